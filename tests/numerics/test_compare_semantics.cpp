// Closeness rules, shapes, default tolerances and accumulation accuracy.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/numerics/summary.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/numerics/logits.hpp"
#include "operators/tensor/cast.hpp"
#include "operators/tensor/minifloat.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/random.hpp"
#include "operators/tensor/stripe_reader.hpp"
#include "scratch_dir.hpp"

using namespace rubric::numerics;
using rubric::tensor::DType;
using rubric::tensor::Shape;
using rubric::tensor::Tensor;

namespace {

Tensor f64(const Shape& shape, const std::vector<double>& v) {
  std::vector<std::byte> bytes(v.size() * 8);
  if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
  return Tensor::from_bytes(DType::f64, shape, std::move(bytes), "test");
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The figures a `matches` verdict shows are the same in `got` as in `want`.
void check_same_shown(const CompareStats& got, const CompareStats& want) {
  CHECK(got.count == want.count);
  CHECK(got.mismatches == want.mismatches);
  CHECK(got.first_mismatch_index == want.first_mismatch_index);
  CHECK(got.max_abs == want.max_abs);
  CHECK(got.max_abs_index == want.max_abs_index);
  CHECK(got.max_rel == want.max_rel);
  CHECK(got.max_rel_index == want.max_rel_index);
  CHECK(got.max_abs_b == want.max_abs_b);
  CHECK(got.nan_a == want.nan_a);
  CHECK(got.inf_b == want.inf_b);
  CHECK(got.unequal_nonfinite == want.unequal_nonfinite);
}

}  // namespace

TEST_CASE("NaN is never close; an infinity only to the same infinity") {
  const Tensor a = f64({6}, {kNaN, kInf, kInf, 1.0, -kInf, 2.0});
  const Tensor b = f64({6}, {kNaN, kInf, -kInf, kInf, -kInf, 2.0});
  const CompareStats s = compare(a, b, {1.0, 1.0, 0});
  CHECK(s.mismatches == 3);  // NaN/NaN, inf/-inf, 1/inf (even though rtol·|inf| = inf)
  CHECK(s.first_mismatch_index == 0);
  CHECK(s.nan_a == 1);
  CHECK(s.nan_b == 1);
  CHECK(s.inf_a == 3);
  CHECK(s.inf_b == 4);
  CHECK(s.unequal_nonfinite == 3);
  CHECK(s.max_abs == 0);  // only the finite pair 2 vs 2
  CHECK(std::isnan(max_abs_err(s)));
  CHECK(std::isnan(cosine(s)));
  CHECK(frac_close(s) == doctest::Approx(0.5));
  const CompareStats u = compare(a, b, {0, 0, 4});
  CHECK(u.mismatches == 3);
}

TEST_CASE("shapes must be equal: (N, 1) against (N,) is refused") {
  const Tensor a = f64({4, 1}, {1, 2, 3, 4});
  const Tensor b = f64({4}, {1, 2, 3, 4});
  CHECK_THROWS_AS(compare(a, b, {}), ShapeMismatchError);
  try {
    compare(a, b, {});
  } catch (const ShapeMismatchError& e) {
    CHECK(std::string(e.what()).find("(4, 1)") != std::string::npos);
    CHECK(std::string(e.what()).find("(4,)") != std::string::npos);
  }
  CHECK_THROWS_AS(topk_agree(a, b, 1), ShapeMismatchError);
  CHECK_THROWS_AS(compare(a, a, {-1, 0, 0}), rubric::OperatorError);
}

TEST_CASE("default tolerances follow the less precise dtype") {
  CHECK(default_tolerance(DType::f32).rtol == 1.3e-6);
  CHECK(default_tolerance(DType::f32).atol == 1e-5);
  CHECK(default_tolerance(DType::f64, DType::f64).rtol == 1e-7);
  CHECK(default_tolerance(DType::f16, DType::f32).rtol == 1e-3);
  CHECK(default_tolerance(DType::bf16, DType::f16).rtol == 1.6e-2);
  CHECK(default_tolerance(DType::bf16, DType::f16).atol == 1e-5);
  CHECK(default_tolerance(DType::i32, DType::i32).rtol == 0);
  CHECK(default_tolerance(DType::f8e4m3, DType::f8e4m3).atol == 0);
  CHECK(default_tolerance(DType::boolean, DType::u8).atol == 0);
}

TEST_CASE("mixed dtypes compare after widening; narrow formats are decoded on the fly") {
  const Tensor ref = rubric::tensor::random_tensor({257, 31}, DType::f32, 5);
  const Tensor half = rubric::tensor::cast(ref, DType::f16);
  const Tensor bf = rubric::tensor::cast(ref, DType::bf16);
  CHECK(compare(half, ref, default_tolerance(DType::f16, DType::f32)).mismatches == 0);
  CHECK(compare(bf, ref, default_tolerance(DType::bf16, DType::f32)).mismatches == 0);
  CHECK(compare(bf, ref, {0, 0, 0}).mismatches > 0);
  // Rounding to f16 moves each value at most half an f16 ulp: ≤ 1 ulp in a's dtype after rounding b.
  CHECK(compare(half, ref, {0, 0, 1}).mismatches == 0);
  CHECK(compare(half, ref, {0, 0, 1}).max_ulp <= 1);
}

TEST_CASE("sums over many elements keep full precision") {
  const std::int64_t n = 10'000'000;
  std::vector<double> v(n, 0.1);
  const Tensor a = f64({n}, v);
  const CompareStats s = compare(a, a, {0, 0, 0});
  CHECK(std::fabs(s.sum_sq_a - 0.01 * n) <= 1e-13 * 0.01 * n);
  CHECK(std::fabs(s.dot_ab - 0.01 * n) <= 1e-13 * 0.01 * n);
  CHECK(rel_l2(s) == 0);
  CHECK(cosine(s) == doctest::Approx(1.0).epsilon(1e-15));
  for (std::int64_t i = 0; i < n; ++i) v[i] = 1e9 + static_cast<double>(i % 2);
  const TensorSummary t = summarize(f64({n}, v));
  CHECK(t.mean == doctest::Approx(1e9 + 0.5).epsilon(1e-15));
  CHECK(t.std == doctest::Approx(0.5).epsilon(1e-9));  // E[x²] − mean² would cancel to garbage
}

TEST_CASE("summary follows numpy for NaN, infinities and empty tensors") {
  const TensorSummary nan = summarize(f64({3}, {1, kNaN, 2}));
  CHECK(std::isnan(nan.min));
  CHECK(std::isnan(nan.mean));
  CHECK(nan.nan_count == 1);
  const TensorSummary inf = summarize(f64({3}, {1, kInf, 2}));
  CHECK(inf.max == kInf);
  CHECK(inf.min == 1);
  CHECK(inf.mean == kInf);
  CHECK(std::isnan(inf.std));
  const TensorSummary both = summarize(f64({2}, {-kInf, kInf}));
  CHECK(std::isnan(both.mean));
  CHECK(std::isnan(summarize(f64({0}, {})).mean));
  const TensorSummary plain = summarize(f64({4}, {1, 2, 3, 4}));
  CHECK(plain.mean == 2.5);
  CHECK(plain.std == doctest::Approx(std::sqrt(1.25)));
}

TEST_CASE("top-k agreement and KL divergence on hand-made rows") {
  const Tensor p = f64({2, 4}, {1, 5, 3, 0, 9, 1, 1, 8});
  const Tensor q = f64({2, 4}, {2, 6, 4, 1, 1, 9, 1, 8});
  CHECK(topk_agree(p, q, 1) == 0.5);
  CHECK(topk_agree(p, q, 2) == 0.5);
  CHECK(topk_agree(p, q, 4) == 1.0);
  CHECK_THROWS_AS(topk_agree(p, q, 5), rubric::OperatorError);
  CHECK(kl_div(p, q) > 0);
  // Row 0 of q is row 0 of p shifted by +1: softmax is unchanged, so that row contributes 0.
  const Tensor p0 = f64({1, 4}, {1, 5, 3, 0}), q0 = f64({1, 4}, {2, 6, 4, 1});
  CHECK(std::fabs(kl_div(p0, q0)) < 1e-15);
  // Large logits do not overflow: log-sum-exp.
  const Tensor big = f64({1, 3}, {1000, 999, -1000}), big2 = f64({1, 3}, {999, 1000, -1000});
  const double e = std::exp(-1.0);
  const double p1 = 1 / (1 + e), p2 = e / (1 + e);
  CHECK(kl_div(big, big2) == doctest::Approx(p1 * std::log(p1 / p2) + p2 * std::log(p2 / p1)));
}

TEST_CASE("ULP distances in narrow formats agree with the encoders, subnormals and overflow included") {
  using rubric::tensor::ulp_distance_bits;
  // Wide-range references: tiny (subnormal in every format), ordinary, and past each maximum.
  std::vector<double> ref_values;
  const Tensor r = rubric::tensor::random_tensor({6000}, DType::f64, 11);
  for (std::int64_t i = 0; i < r.size(); ++i) ref_values.push_back(r.at(i) * std::ldexp(1.0, static_cast<int>(i % 40) - 24 + static_cast<int>(i % 7) * 4));
  const Tensor ref = f64({static_cast<std::int64_t>(ref_values.size())}, ref_values);
  struct Format {
    DType dtype;
    int sign_bit;
    std::uint32_t (*encode)(double);
  } formats[] = {
      {DType::f16, 15, [](double v) { return static_cast<std::uint32_t>(rubric::tensor::float_to_f16(v)); }},
      {DType::bf16, 15, [](double v) { return static_cast<std::uint32_t>(rubric::tensor::float_to_bf16(v)); }},
      {DType::f8e4m3, 7, [](double v) { return static_cast<std::uint32_t>(rubric::tensor::float_to_f8e4m3(v)); }},
      {DType::f8e5m2, 7, [](double v) { return static_cast<std::uint32_t>(rubric::tensor::float_to_f8e5m2(v)); }},
  };
  for (const Format& f : formats) {
    CAPTURE(rubric::tensor::dtype_name(f.dtype));
    // a: the reference shifted a little, then rounded into the narrow format.
    std::vector<double> shifted(ref_values);
    const double step = f.sign_bit == 7 ? 0.15 : 0.01;  // 8-bit formats are coarse: shift further
    for (std::size_t i = 0; i < shifted.size(); ++i) shifted[i] *= 1.0 + step * static_cast<double>(i % 5);
    const Tensor a = rubric::tensor::cast(f64({static_cast<std::int64_t>(shifted.size())}, shifted), f.dtype);
    std::uint64_t want_max = 0;
    std::int64_t want_over_2 = 0;
    for (std::int64_t i = 0; i < a.size(); ++i) {
      if (!std::isfinite(a.at(i))) {
        ++want_over_2;  // an infinite answer never matches a finite reference
        continue;
      }
      const std::uint64_t d = ulp_distance_bits(f.encode(a.at(i)), f.encode(ref.at(i)), f.sign_bit);
      want_max = std::max(want_max, d);
      want_over_2 += d > 2;
    }
    const CompareStats s = compare(a, ref, {0, 0, 2});
    CHECK(s.max_ulp == want_max);
    CHECK(s.mismatches == want_over_2);
    CHECK(want_over_2 > 100);  // the case is not trivial
  }
}

TEST_CASE("an f64 ULP distance past 2^53 is compared with the ULP tolerance exactly") {
  // 1.0 and the double 2^53 + 1 steps above it: as a double the distance rounds to 2^53, the
  // tolerance. Per element, in the careful path (an infinity in the block) and per axis alike.
  const std::uint64_t one = 0x3FF0000000000000ull, steps = (std::uint64_t{1} << 53) + 1;
  const std::vector<std::uint64_t> xa{one + steps, one, one + steps - 1}, xb{one, one, one};
  auto f64 = [](std::vector<std::uint64_t> bits) {
    std::vector<std::byte> bytes(bits.size() * 8);
    std::memcpy(bytes.data(), bits.data(), bytes.size());
    return Tensor::from_bytes(DType::f64, {static_cast<std::int64_t>(bits.size())}, std::move(bytes), "t");
  };
  const Tensor a = f64(xa), b = f64(xb);
  const std::int64_t two53 = std::int64_t{1} << 53;
  const CompareStats s = compare(a, b, {0, 0, two53});
  CHECK(s.mismatches == 1);
  CHECK(s.first_mismatch_index == 0);
  CHECK(s.max_ulp == steps);
  CHECK(compare(a, b, {0, 0, two53 + 1}).mismatches == 0);
  // The same pairs beside an infinity on both sides (the block goes through the careful loop).
  const std::uint64_t inf = 0x7FF0000000000000ull;
  CHECK(compare(f64({one + steps, inf}), f64({one, inf}), {0, 0, two53}).mismatches == 1);
}

TEST_CASE("the striped pass gives compare()'s figures, on any number of workers, and reads each file along in order") {
  // 300,000 f32 pairs (several stripes and a short last one), mismatches and equal maxima placed
  // in different stripes: the lowest index must win whichever worker found it.
  const std::int64_t n = 300000;
  std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    y[static_cast<std::size_t>(i)] = std::sin(0.001f * static_cast<float>(i)) + 2.0f;
    x[static_cast<std::size_t>(i)] = y[static_cast<std::size_t>(i)] + 1e-6f;
  }
  for (std::int64_t at : {70000, 140000, 290000}) x[static_cast<std::size_t>(at)] = y[static_cast<std::size_t>(at)] + 0.5f;
  auto tensor = [&](const std::vector<float>& v) {
    std::vector<std::byte> bytes(v.size() * 4);
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return Tensor::from_bytes(DType::f32, {n}, std::move(bytes), "test");
  };
  const Tensor a = tensor(x), b = tensor(y);
  const CompareStats whole = compare(a, b, {1e-3, 1e-3, 0}, 1);
  for (unsigned workers : {1u, 2u, 3u}) {
    std::vector<std::size_t> fed_a, fed_b;
    PassFeeds feeds;
    feeds.a = [&](std::size_t offset, const std::byte* bytes, std::size_t) {
      CHECK(bytes == nullptr);  // tensors in memory are read in place
      fed_a.push_back(offset);
    };
    feeds.b = [&](std::size_t offset, const std::byte*, std::size_t) { fed_b.push_back(offset); };
    feeds.a_base = 128;  // a header before the elements
    const CompareStats s = compare_striped(a, b, {1e-3, 1e-3, 0}, feeds, workers);
    CHECK(s.count == whole.count);
    CHECK(s.mismatches == 3);
    CHECK(s.first_mismatch_index == 70000);
    CHECK(s.max_abs_index == 70000);
    CHECK(s.max_abs == whole.max_abs);
    CHECK(s.max_rel == whole.max_rel);
    CHECK(s.max_rel_index == whole.max_rel_index);
    CHECK(s.sum_sq_diff == doctest::Approx(whole.sum_sq_diff).epsilon(1e-12));
    REQUIRE(!fed_a.empty());
    CHECK(std::is_sorted(fed_a.begin(), fed_a.end()));
    CHECK(std::is_sorted(fed_b.begin(), fed_b.end()));
    CHECK(fed_a.back() == 128 + 4 * static_cast<std::size_t>(n));
    CHECK(fed_b.back() == 4 * static_cast<std::size_t>(n));
  }
}

TEST_CASE("a striped pass over two .npy files gives the figures of the same tensors in memory and hands on each file's bytes once, in order") {
  rubric::testing::ScratchDir dir("rubric_striped_files");
  const std::int64_t n = 200003;  // three full stripes and a short one
  std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    y[static_cast<std::size_t>(i)] = std::cos(0.01f * static_cast<float>(i)) * (i % 7 == 0 ? 0.0f : 3.0f);
    x[static_cast<std::size_t>(i)] = y[static_cast<std::size_t>(i)] * (1 + 1e-4f) + (i == 150000 ? 1.0f : 0.0f);
  }
  x[90000] = std::numeric_limits<float>::quiet_NaN();  // a block through the careful loop
  auto in_memory = [&](const std::vector<float>& v) {
    std::vector<std::byte> bytes(v.size() * 4);
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return Tensor::from_bytes(DType::f32, {n}, std::move(bytes), "memory");
  };
  const Tensor ma = in_memory(x), mb = in_memory(y);
  rubric::tensor::save_npy(dir.file("a.npy"), ma);
  rubric::tensor::save_npy(dir.file("b.npy"), mb);
  const Tensor fa = rubric::tensor::load_npy(dir.file("a.npy")), fb = rubric::tensor::load_npy(dir.file("b.npy"));
  auto file_bytes = [&](const std::string& name) {
    std::ifstream in(dir.file(name), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string a_file = file_bytes("a.npy"), b_file = file_bytes("b.npy");
  // Both ways of reading a file: out of it into the pass's buffers, and through its mapping.
  for (const auto how : {rubric::tensor::FileReading::copy, rubric::tensor::FileReading::map})
  for (const Tolerance& tol : {Tolerance{1e-3, 1e-3, 0}, Tolerance{0, 0, 2}}) {
    CAPTURE(how == rubric::tensor::FileReading::copy ? "copied" : "mapped");
    rubric::tensor::set_file_reading(how);
    const CompareStats memory = compare(ma, mb, tol, 1);
    for (unsigned workers : {1u, 2u, 3u}) {
      CAPTURE(workers);
      std::string read_a, read_b;
      std::size_t reached_a = 0, reached_b = 0;
      // Bytes handed on are the copy the pass read; none (null): the pass read the mapping.
      auto collect = [](std::string& into, std::size_t& reached, const std::string& file) {
        return [&into, &reached, &file](std::size_t offset, const std::byte* bytes, std::size_t count) {
          CHECK(offset - count == reached + (reached == 0 ? 128 : 0));  // in order, after the header
          if (bytes) into.append(reinterpret_cast<const char*>(bytes), count);
          else into.append(file, offset - count, count);
          reached = offset;
        };
      };
      PassFeeds feeds;
      feeds.a = collect(read_a, reached_a, a_file);
      feeds.b = collect(read_b, reached_b, b_file);
      feeds.a_base = feeds.b_base = 128;
      const CompareStats s = compare_striped(fa, fb, tol, feeds, workers);
      check_same_shown(s, memory);
      CHECK(s.max_ulp == memory.max_ulp);
      CHECK(s.nan_a == 1);
      CHECK(s.sum_sq_diff == memory.sum_sq_diff);
      CHECK(s.dot_ab == memory.dot_ab);
      CHECK(read_a == a_file.substr(128));
      CHECK(read_b == b_file.substr(128));
      const CompareStats unfed = compare(fa, fb, tol, workers);  // a plain comparison reads the files the same way
      CHECK(unfed.mismatches == memory.mismatches);
      CHECK(unfed.max_rel_index == memory.max_rel_index);
      CHECK(unfed.sum_sq_a == memory.sum_sq_a);
    }
  }
  rubric::tensor::set_file_reading(rubric::tensor::FileReading::map);
  CHECK_FALSE(rubric::tensor::StripeReader(fa, 65536, 2).copies());
  // Read out of the file (the pass does so when the mapping would read slowly): the file's bytes.
  rubric::tensor::set_file_reading(rubric::tensor::FileReading::copy);
  rubric::tensor::StripeReader reader(fa, 65536, 2);
  REQUIRE(reader.copies());
  const std::byte* first = reader.read(0, 65536, 0);
  const std::byte* last = reader.read(196608, n, 1);
  CHECK(std::string(reinterpret_cast<const char*>(first), 65536 * 4) == a_file.substr(128, 65536 * 4));
  CHECK(std::string(reinterpret_cast<const char*>(last), (n - 196608) * 4) == a_file.substr(128 + 196608 * 4));
  rubric::tensor::set_file_reading(rubric::tensor::FileReading::timed);
}

TEST_CASE("the shown figures of an f32 pass equal those of the full pass, NaNs and infinities included") {
  // Three blocks of 1,024: the second holds a NaN and an infinity (the careful path), the third a
  // mismatch and a zero reference (relative difference inf); everything `matches` shows must agree.
  const std::int64_t n = 3 * 1024 + 17;
  std::vector<float> a(static_cast<std::size_t>(n)), b(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    b[k] = std::sin(static_cast<float>(k)) * 3.0f;
    a[k] = b[k] + 1e-6f * static_cast<float>(k % 7);
  }
  a[1500] = std::numeric_limits<float>::quiet_NaN();
  b[1700] = std::numeric_limits<float>::infinity();
  a[2600] += 0.5f;
  b[3000] = 0.0f;
  a[3000] = 1e-4f;
  auto as_tensor = [](const std::vector<float>& v) {
    std::vector<std::byte> bytes(v.size() * 4);
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return Tensor::from_bytes(DType::f32, {static_cast<std::int64_t>(v.size())}, std::move(bytes), "test");
  };
  const Tensor ta = as_tensor(a), tb = as_tensor(b);
  const Tolerance tol{1e-3, 1e-3, 0};
  for (unsigned threads : {1u, 2u}) {
    const CompareStats all = compare(ta, tb, tol, threads, Figures::all);
    const CompareStats shown = compare(ta, tb, tol, threads, Figures::shown);
    CHECK(all.sums);
    CHECK_FALSE(shown.sums);
    check_same_shown(shown, all);
    CHECK(shown.mismatches == 3);  // the NaN, the infinity, the shifted element
    CHECK(shown.max_abs_index == 2600);
  }
}
