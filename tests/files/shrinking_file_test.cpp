// A mapped tensor file that shrinks between loading and reading: the tail reads as zeros (never a
// SIGBUS death), and every pass over the tensor reports the file instead of a result computed
// from those zeros. Through the operators, and through the language, where it is the
// submission's FAIL naming the file (the rubric's ERROR for a reference file).
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "interpreter/builtins/registry.hpp"
#include "operators/files/bus_guard.hpp"
#include "operators/tensor/stripe_reader.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_axis.hpp"
#include "operators/numerics/logits.hpp"
#include "operators/numerics/mismatch_grid.hpp"
#include "operators/numerics/summary.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/tensor/cast.hpp"
#include "operators/tensor/mapped_file.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/raw.hpp"
#include "operators/tensor/safetensors.hpp"
#include "operators/tensor/slice.hpp"

using rubric::test::TempDir;
namespace rt = rubric::tensor;
namespace rn = rubric::numerics;
namespace rf = rubric::files;

namespace {

constexpr std::int64_t kSide = 512;                    // a 512 x 512 f32 matrix: 1 MiB of data
constexpr std::uint64_t kNpyBytes = 128 + (1u << 20);  // numpy's 128-byte header, then the data

rt::Tensor ramp(float scale) {
  std::vector<std::byte> bytes(std::size_t(kSide * kSide) * sizeof(float));
  for (std::int64_t i = 0; i < kSide * kSide; ++i) {
    const float v = scale * float(i % 1000 + 1) / 1000.0f;
    std::memcpy(bytes.data() + i * 4, &v, 4);
  }
  return rt::Tensor::from_bytes(rt::DType::f32, {kSide, kSide}, std::move(bytes), "ramp");
}

// The message of the FileChanged `f` throws, or a note of what happened instead.
std::string changed_message(const std::function<void()>& f, std::string* file = nullptr) {
  try {
    f();
  } catch (const rf::FileChanged& e) {
    if (file) *file = e.file;
    return e.what();
  } catch (const std::exception& e) {
    return std::string("another error: ") + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("every pass over a mapped tensor whose file shrank reports the file, never the zeros") {
  TempDir t;
  const std::string a = t.path + "/out.npy", b = t.path + "/ref.npy";
  using Pass = std::function<void(const rt::Tensor&, const rt::Tensor&)>;
  const rn::Tolerance tol = rn::default_tolerance(rt::DType::f32);
  const std::vector<std::pair<const char*, Pass>> passes = {
      {"compare", [&](auto& x, auto& y) { rn::compare(x, y, tol); }},
      {"compare_along rows", [&](auto& x, auto& y) { rn::compare_along(x, y, {1}, tol); }},
      {"compare_along columns", [&](auto& x, auto& y) { rn::compare_along(x, y, {0}, tol); }},
      {"summarize", [&](auto& x, auto&) { rn::summarize(x); }},
      {"cast", [&](auto& x, auto&) { rt::cast(x, rt::DType::f16); }},
      {"mismatch_grid", [&](auto& x, auto& y) { rn::mismatch_grid(x, y, tol); }},
      {"topk_agree", [&](auto& x, auto& y) { rn::topk_agree(x, y, 3); }},
      {"kl_div", [&](auto& x, auto& y) { rn::kl_div(x, y); }},
      {"a strided slice compared", [&](auto& x, auto& y) {
         std::vector<rt::Subscript> col(2);
         col[0].kind = rt::Subscript::Kind::range;
         col[1].index = 7;
         rn::compare(rt::slice(x, col), rt::slice(y, col), tol);
       }},
      {"save_npy", [&](auto& x, auto&) { rt::save_npy(t.path + "/copy.npy", x); }},
      {"save_raw", [&](auto& x, auto&) { rt::save_raw(t.path + "/copy.bin", x); }},
  };
  for (const auto how : {rt::FileReading::copy, rt::FileReading::map})
  for (const auto& [name, pass] : passes) {
    CAPTURE(name);
    CAPTURE(how == rt::FileReading::copy ? "copied" : "mapped");
    rt::set_file_reading(how);
    rt::save_npy(a, ramp(1));
    rt::save_npy(b, ramp(1));
    const rt::Tensor x = rt::load_npy(a), y = rt::load_npy(b);
    pass(x, y);  // whole: no error
    REQUIRE(::truncate(a.c_str(), 4096) == 0);
    std::string file;
    CHECK(changed_message([&] { pass(x, y); }, &file) ==
          fmt::format("{} shrank while it was read ({} bytes mapped, 4096 now)", a, kNpyBytes));
    CHECK(file == a);
    CHECK_FALSE(rt::intact(x));
    CHECK(rt::intact(y));
  }
  rt::set_file_reading(rt::FileReading::timed);
}

TEST_CASE("a comparison of two shrunk files names the reference first; a load after the shrink says so") {
  TempDir t;
  const std::string a = t.path + "/out.npy", b = t.path + "/ref.npy";
  rt::save_npy(a, ramp(1));
  rt::save_npy(b, ramp(1));
  const rt::Tensor x = rt::load_npy(a), y = rt::load_npy(b);
  REQUIRE(::truncate(a.c_str(), 0) == 0);
  REQUIRE(::truncate(b.c_str(), 200) == 0);
  std::string file;
  CHECK(changed_message([&] { rn::compare(x, y, rn::Tolerance{}); }, &file) ==
        fmt::format("{} shrank while it was read ({} bytes mapped, 200 now)", b, kNpyBytes));
  CHECK(file == b);

  // Mapped whole, emptied before its header is parsed: the header read as zeros is not "not a .npy file".
  rt::save_npy(a, ramp(1));
  auto mapped = rt::MappedFile::open(a);
  REQUIRE(::truncate(a.c_str(), 0) == 0);
  CHECK(changed_message([&] { rt::load_npy(mapped); }) ==
        fmt::format("{} shrank while it was read ({} bytes mapped, 0 now)", a, kNpyBytes));
  rt::save_safetensors(b, {{"w", ramp(1)}});
  auto mapped_st = rt::MappedFile::open(b);
  REQUIRE(::truncate(b.c_str(), 0) == 0);
  CHECK(changed_message([&] { rt::load_safetensors(mapped_st, "w"); }).find("shrank while it was read") !=
        std::string::npos);
}

TEST_CASE("a file shrunk inside its last page (no fault at all) is still caught") {
  TempDir t;
  // 2100 f32 = 8400 bytes: the last page holds 208 bytes; cutting 100 of them raises no SIGBUS,
  // the bytes past the new end simply read as zeros.
  std::vector<std::byte> bytes(2100 * 4);
  for (std::size_t i = 0; i < 2100; ++i) {
    const float v = 1.0f + float(i);
    std::memcpy(bytes.data() + i * 4, &v, 4);
  }
  const rt::Tensor ones = rt::Tensor::from_bytes(rt::DType::f32, {2100}, bytes, "ones");
  const std::string a = t.path + "/out.bin";
  rt::save_raw(a, ones);
  const rt::Tensor x = rt::load_raw(a, rt::DType::f32, {2100});
  REQUIRE(::truncate(a.c_str(), 8300) == 0);
  CHECK(x.at(2099) == 0.0);  // what the zeros would have made of it
  CHECK(changed_message([&] { rn::compare(x, ones, rn::Tolerance{}); }) ==
        fmt::format("{} shrank while it was read (8400 bytes mapped, 8300 now)", a));
}

namespace {

// A rubric run with a test-only builtin `shrink(p, bytes)` that truncates a file in the middle of
// the check: after load() has mapped it, before the comparison reads it.
rubric::Report run_with_shrink(const std::string& body, const TempDir& t) {
  rubric::Engine e;
  e.registry().add("shrink", {rubric::ParamSpec{"p", {}}, rubric::ParamSpec{"bytes", {}}}, false,
                   "Truncates a file (tests only).", "test", [](rubric::CallContext&, const std::vector<rubric::Value>& a) {
                     const int rc = ::truncate(a[0].as_path().full().c_str(), off_t(a[1].as_number()));
                     return rubric::Value::number(rc);
                   });
  auto diags = rubric::test::load_text(e, "rubric \"b\" {}\ncriterion c \"c\" {\n" + body + "\n}\n");
  REQUIRE_MESSAGE(!has_errors(diags), rubric::test::all_messages(diags));
  return e.check(t.path + "/sub", t.path + "/ref");
}

std::string lines(const rubric::Report& r) {
  std::string out;
  for (const auto& c : r.criteria.at(0).checks)
    out += fmt::format("[{}] {}\n", rubric::verdict_name(c.verdict), c.explanation);
  return out;
}

}  // namespace

TEST_CASE("in the language a submission file that shrank after load() FAILs every check that reads it") {
  TempDir t;
  rt::save_npy(t.dir("sub") + "/out.npy", ramp(1));
  rt::save_npy(t.dir("ref") + "/ref.npy", ramp(1));
  rubric::Report r = run_with_shrink(R"(  let out = load(submission / "out.npy")
  let ref = load(reference / "ref.npy")
  expect out.shape == [512, 512]
  expect out matches ref
  expect shrink(submission / "out.npy", 4096) == 0
  expect out matches ref
  expect rel_l2(out, ref) < 1e-3
  expect max(rel_l2(out, ref, axis = 0)) < 1e-3
  expect max(out) <= 1
  expect out[511, 511] == 1
  expect max(cast(out, f16)) <= 1
  expect out[:, 3] matches ref[:, 3])",
                                   t);
  const std::string out = lines(r);
  CAPTURE(out);
  const std::string shrank = fmt::format("submission/out.npy shrank while it was read ({} bytes mapped, 4096 now)", kNpyBytes);
  const auto& checks = r.criteria.at(0).checks;
  REQUIRE(checks.size() == 10);
  CHECK(checks[0].verdict == rubric::Verdict::pass);
  CHECK(checks[1].verdict == rubric::Verdict::pass);  // compared while whole
  CHECK(checks[2].verdict == rubric::Verdict::pass);
  for (std::size_t i = 3; i < checks.size(); ++i) {
    CAPTURE(i);
    CHECK(checks[i].verdict == rubric::Verdict::fail);
    CHECK(checks[i].blame == rubric::Blame::submission);
    CHECK(checks[i].explanation.find(shrank) != std::string::npos);
  }
  CHECK(out.find(t.path) == std::string::npos);  // named by its root, not where it lies
  CHECK(r.verdict == rubric::OverallVerdict::fail);
}

TEST_CASE("in the language a reference file that shrank is the rubric's ERROR, even beside a shrunk answer") {
  TempDir t;
  rt::save_npy(t.dir("sub") + "/out.npy", ramp(1));
  rt::save_npy(t.dir("ref") + "/ref.npy", ramp(1));
  rubric::Report r = run_with_shrink(R"(  let out = load(submission / "out.npy")
  let ref = load(reference / "ref.npy")
  expect ref.shape == out.shape
  expect shrink(reference / "ref.npy", 1000) + shrink(submission / "out.npy", 1000) == 0
  expect out matches ref
  expect cosine(out, ref) > 0.99
  expect std(ref) > 0)",
                                   t);
  const std::string out = lines(r);
  CAPTURE(out);
  const auto& checks = r.criteria.at(0).checks;
  REQUIRE(checks.size() == 5);
  for (std::size_t i = 2; i < checks.size(); ++i) {
    CAPTURE(i);
    CHECK(checks[i].verdict == rubric::Verdict::error);
    CHECK(checks[i].explanation.find(
              fmt::format("reference/ref.npy shrank while it was read ({} bytes mapped, 1000 now)", kNpyBytes)) !=
          std::string::npos);
  }
}

TEST_CASE("a second load() of a file that shrank since the first FAILs naming it") {
  TempDir t;
  rt::save_npy(t.dir("sub") + "/out.npy", ramp(1));
  rt::save_npy(t.dir("ref") + "/ref.npy", ramp(1));
  // The second load() of the same file finds its mapping (one per file and run) already damaged.
  rubric::Report r = run_with_shrink(R"(  expect load(submission / "out.npy").size == 262144
  expect shrink(submission / "out.npy", 64) == 0
  expect load(submission / "out.npy", dtype = f32, shape = [4]).size == 4)",
                                     t);
  const std::string out = lines(r);
  CAPTURE(out);
  REQUIRE(r.criteria.at(0).checks.size() == 3);
  CHECK(r.criteria[0].checks[2].verdict == rubric::Verdict::fail);
  CHECK(out.find("submission/out.npy shrank while it was read") != std::string::npos);
}
