// The comparison arithmetic shared by the device kernel and the stand-in, against numpy, and
// the per-dtype decoding it relies on.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include <fmt/format.h>

#include "operators/cuda/compare_kernel_math.hpp"
#include "operators/cuda/dtype_info.hpp"
#include "operators/cuda/gpu_session.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric::cuda;
using rubric::tensor::DType;

namespace {

std::map<std::string, double> read_expected(const std::string& path) {
  std::map<std::string, double> m;
  std::ifstream in(path);
  std::string k, v;
  while (in >> k >> v) m[k] = v == "inf" ? INFINITY : std::stod(v);
  return m;
}

void check_against_numpy(DType ta, const char* la, DType tb, const char* lb, double rtol, double atol) {
  TempDir dir;
  std::int64_t n = 100003;
  std::string cmd = "/usr/bin/python3 " + rubric::test::shell_quote(test_path("make_compare_case.py")) + " " + rubric::test::shell_quote(dir.path) + " " + la + " " + lb + " " +
                    std::to_string(n) + " 7 " + fmt::format("{} {}", rtol, atol);
  REQUIRE(std::system(cmd.c_str()) == 0);
  auto e = read_expected(dir / "expected.txt");
  SessionOptions o;
  o.compiler.cache_dir = dir / "cache";
  GpuSession session(o);
  CompareOutcome r = session.compare(TensorArg{ta, {n}, nullptr, dir / "a.bin"}, TensorArg{tb, {n}, nullptr, dir / "b.bin"},
                                     {rtol, atol, 0}, true, true);
  INFO(r.failure);
  REQUIRE(r.ok);
  // Without ulp_stats the same fields, and max_ulp left at 0 (the device path skips the ULP work).
  CompareOutcome no_ulp = session.compare(TensorArg{ta, {n}, nullptr, dir / "a.bin"},
                                          TensorArg{tb, {n}, nullptr, dir / "b.bin"}, {rtol, atol, 0}, true);
  REQUIRE(no_ulp.ok);
  CHECK(no_ulp.stats.max_ulp == 0);
  CHECK(no_ulp.stats.mismatches == r.stats.mismatches);
  CHECK(no_ulp.stats.max_rel == r.stats.max_rel);
  CHECK(no_ulp.stats.max_rel_index == r.stats.max_rel_index);
  const auto& s = r.stats;
  CHECK(s.count == e["count"]);
  CHECK(s.mismatches == e["mismatches"]);
  CHECK(s.first_mismatch_index == e["first_mismatch_index"]);
  CHECK(s.max_abs == doctest::Approx(e["max_abs"]).epsilon(1e-12));
  CHECK(s.max_abs_index == e["max_abs_index"]);
  if (std::isinf(e["max_rel"])) CHECK(std::isinf(s.max_rel));
  else CHECK(s.max_rel == doctest::Approx(e["max_rel"]).epsilon(1e-12));
  CHECK(s.max_rel_index == e["max_rel_index"]);
  CHECK(s.nan_a == e["nan_a"]);
  CHECK(s.nan_b == e["nan_b"]);
  CHECK(s.inf_a == e["inf_a"]);
  CHECK(s.inf_b == e["inf_b"]);
  CHECK(s.sum_sq_diff == doctest::Approx(e["sum_sq_diff"]).epsilon(1e-9));
  CHECK(s.sum_sq_a == doctest::Approx(e["sum_sq_a"]).epsilon(1e-9));
  CHECK(s.sum_sq_b == doctest::Approx(e["sum_sq_b"]).epsilon(1e-9));
  CHECK(s.dot_ab == doctest::Approx(e["dot_ab"]).epsilon(1e-9));
  CHECK(s.max_abs_b == doctest::Approx(e["max_abs_b"]).epsilon(1e-12));
  if (e.count("max_ulp")) CHECK(static_cast<double>(s.max_ulp) == e["max_ulp"]);
}

}  // namespace

TEST_CASE("the fused comparison agrees with numpy: f32, f16, f64, mixed f16/f32, integers") {
  SUBCASE("f32") { check_against_numpy(DType::f32, "f32", DType::f32, "f32", 1.3e-6, 1e-5); }
  SUBCASE("f16") { check_against_numpy(DType::f16, "f16", DType::f16, "f16", 1e-3, 1e-5); }
  SUBCASE("f64") { check_against_numpy(DType::f64, "f64", DType::f64, "f64", 1e-7, 1e-7); }
  SUBCASE("f16 vs f32") { check_against_numpy(DType::f16, "f16", DType::f32, "f32", 1e-3, 1e-3); }
  SUBCASE("i32") { check_against_numpy(DType::i32, "i32", DType::i32, "i32", 0, 0); }
}

TEST_CASE("decoding the narrow float types") {
  using math::decode_bits;
  CHECK(decode_bits(0x3C00, DType::f16) == 1.0);
  CHECK(decode_bits(0xC000, DType::f16) == -2.0);
  CHECK(decode_bits(0x0001, DType::f16) == std::ldexp(1.0, -24));  // smallest subnormal
  CHECK(std::isinf(decode_bits(0x7C00, DType::f16)));
  CHECK(std::isnan(decode_bits(0x7E00, DType::f16)));
  CHECK(decode_bits(0x3F80, DType::bf16) == 1.0);
  CHECK(std::isnan(decode_bits(0x7FC0, DType::bf16)));
  CHECK(decode_bits(0x38, DType::f8e4m3) == 1.0);
  CHECK(decode_bits(0x7E, DType::f8e4m3) == 448.0);  // e4m3 has no infinity: the top code is finite
  CHECK(std::isnan(decode_bits(0x7F, DType::f8e4m3)));
  CHECK(decode_bits(0x3C, DType::f8e5m2) == 1.0);
  CHECK(decode_bits(0x7B, DType::f8e5m2) == 57344.0);
  CHECK(std::isinf(decode_bits(0x7C, DType::f8e5m2)));
  CHECK(std::isnan(decode_bits(0x7F, DType::f8e5m2)));
  CHECK(decode_bits(0xFF, DType::i8) == -1.0);
  CHECK(decode_bits(0xFF, DType::u8) == 255.0);
}

TEST_CASE("poison patterns decode to NaN for every float dtype") {
  for (DType t : {DType::f64, DType::f32, DType::f16, DType::bf16, DType::f8e4m3, DType::f8e5m2})
    CHECK(std::isnan(math::decode_bits(poison_pattern(t), t)));
  CHECK(poison_pattern(DType::i32) == 0xFFFFFFFFull);
}

TEST_CASE("ULP mode: distance counted in a's dtype") {
  float one = 1.0f, next = std::nextafter(1.0f, 2.0f), two_up = std::nextafter(next, 2.0f);
  float a[3] = {one, next, two_up}, b[3] = {one, one, one};
  math::Partial p;
  for (int i = 0; i < 3; ++i)
    math::accumulate(p, reinterpret_cast<unsigned char*>(a), DType::f32, reinterpret_cast<unsigned char*>(b), DType::f32,
                     i, {0, 0, 1});
  CHECK(p.max_ulp == 2);
  CHECK(p.mismatches == 1);
  CHECK(p.first_mismatch_index == 2);
}

TEST_CASE("partials combine to the sequential result whatever the split") {
  std::vector<float> a(1000), b(1000);
  for (int i = 0; i < 1000; ++i) {
    a[i] = static_cast<float>(std::sin(i));
    b[i] = static_cast<float>(std::sin(i) + (i % 37 == 0 ? 0.5 : 0.0));
  }
  auto* pa = reinterpret_cast<unsigned char*>(a.data());
  auto* pb = reinterpret_cast<unsigned char*>(b.data());
  math::Rule rule{1e-3, 1e-3, 0};
  math::Partial whole, left, right;
  for (int i = 0; i < 1000; ++i) math::accumulate(whole, pa, DType::f32, pb, DType::f32, i, rule);
  for (int i = 0; i < 1000; ++i) math::accumulate(i % 3 ? left : right, pa, DType::f32, pb, DType::f32, i, rule);
  math::combine(right, left);  // out of order on purpose
  CHECK(right.mismatches == whole.mismatches);
  CHECK(right.first_mismatch_index == whole.first_mismatch_index);
  CHECK(right.max_abs == whole.max_abs);
  CHECK(right.max_abs_index == whole.max_abs_index);
  CHECK(right.max_rel_index == whole.max_rel_index);
  CHECK(right.sum_sq_diff == doctest::Approx(whole.sum_sq_diff));
}

TEST_CASE("the comparison's fast decoders are exact for every f16, e4m3 and e5m2 bit pattern") {
  using rubric::cuda::math::decode_bits;
  using rubric::cuda::math::decode_minifloat;
  auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, 8) == 0; };
  int bad = 0;
  for (std::uint32_t h = 0; h < 65536; ++h) bad += !same(decode_bits(h, DType::f16), decode_minifloat(h, 5, 10, true));
  for (std::uint32_t b = 0; b < 256; ++b) {
    bad += !same(decode_bits(b, DType::f8e5m2), decode_minifloat(b, 5, 2, true));
    double e4m3 = (b & 0x7F) == 0x7F ? NAN : decode_minifloat(b, 4, 3, false);
    bad += !same(decode_bits(b, DType::f8e4m3), e4m3);
  }
  CHECK(bad == 0);
}

TEST_CASE("max_rel screened by cross-multiplication equals dividing every pair, value and index") {
  using namespace rubric::cuda::math;
  std::uint64_t r = 99;
  auto next = [&] { return (r = splitmix64(r)) >> 11; };
  for (int round = 0; round < 20; ++round) {
    Partial screened;
    double best = 0;
    std::int64_t best_i = -1;
    for (std::uint64_t i = 0; i < 5000; ++i) {
      // Many exact and near ties: quotients from a handful of values, some one ULP apart.
      double b = static_cast<double>(1 + next() % 7) * (next() % 2 ? 1e-3 : 3.0);
      double a = b * (1.0 + static_cast<double>(next() % 5) * 0.25) + (next() % 3 == 0 ? b * 1e-16 : 0.0);
      if (round % 4 == 3 && next() % 500 == 0) b = 0;  // an infinite quotient in some rounds
      std::uint64_t ba, bb;
      std::memcpy(&ba, &a, 8);
      std::memcpy(&bb, &b, 8);
      accumulate_bits(screened, ba, DType::f64, bb, DType::f64, i, Rule{0, 0, 0});
      double diff = std::fabs(a - b), abs_b = std::fabs(b);
      double rel = abs_b > 0 ? diff / abs_b : (diff == 0 ? 0.0 : INFINITY);
      if (rel > 0 || best_i < 0) take_max(best, best_i, rel, static_cast<std::int64_t>(i));
    }
    CHECK(screened.max_rel == best);
    CHECK(screened.max_rel_index == best_i);
  }
}
