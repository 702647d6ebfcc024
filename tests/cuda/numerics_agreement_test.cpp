// The device comparison's arithmetic (run here through the CPU stand-in, which executes the same
// code as the kernel) against operators/numerics' CPU compare: every field, every dtype pair that
// matters, both closeness rules. Only the floating-point sums may differ (summation order).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "operators/cuda/compare_kernel_math.hpp"
#include "operators/cuda/dtype_info.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/tensor/tensor.hpp"

using namespace rubric;
using tensor::DType;

namespace {

std::vector<unsigned char> draw(DType t, std::size_t n, std::uint64_t seed) {
  std::vector<unsigned char> bytes(n * cuda::element_bytes(t));
  for (std::size_t i = 0; i < n; ++i) cuda::math::store_random(bytes.data(), t, i, seed);
  return bytes;
}

// b: a perturbed copy of a's values (so most pairs are close and some are not), with NaN and inf.
std::vector<unsigned char> near_copy(const std::vector<unsigned char>& a, DType ta, DType tb, std::size_t n) {
  std::vector<unsigned char> b(n * cuda::element_bytes(tb));
  for (std::size_t i = 0; i < n; ++i) {
    double v = cuda::math::load_as_double(a.data(), ta, i);
    if (i % 5 == 1) v += cuda::is_floating(tb) ? 1e-3 * v : 1;
    if (i % 11 == 3) v = -v * 1.5;
    std::uint64_t bits;
    if (cuda::is_floating(tb)) {
      if (i == 17) v = NAN;
      if (i == 23) v = INFINITY;
      bits = cuda::math::encode_bits(v, tb);
    } else {
      bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
      if (tb == DType::boolean) bits = v != 0;
    }
    std::memcpy(b.data() + i * cuda::element_bytes(tb), &bits, cuda::element_bytes(tb));
  }
  return b;
}

tensor::Tensor as_tensor(DType t, const std::vector<unsigned char>& bytes, std::size_t n) {
  std::vector<std::byte> copy(bytes.size());
  std::memcpy(copy.data(), bytes.data(), bytes.size());
  return tensor::Tensor::from_bytes(t, {static_cast<std::int64_t>(n)}, std::move(copy), "test");
}

void agree_on(DType ta, const std::vector<unsigned char>& a, DType tb, const std::vector<unsigned char>& b,
              std::size_t n, numerics::Tolerance tol) {
  numerics::CompareStats cpu = numerics::compare(as_tensor(ta, a, n), as_tensor(tb, b, n), tol, 1);
  cuda::math::Partial p;
  cuda::math::Rule rule{tol.rtol, tol.atol, tol.ulp};
  for (std::size_t i = 0; i < n; ++i) cuda::math::accumulate(p, a.data(), ta, b.data(), tb, i, rule);
  numerics::CompareStats dev = cuda::math::to_stats(p);
  INFO(cuda::dtype_label(ta) << " vs " << cuda::dtype_label(tb) << " rtol " << tol.rtol << " atol " << tol.atol
                             << " ulp " << tol.ulp);
  CHECK(dev.count == cpu.count);
  CHECK(dev.mismatches == cpu.mismatches);
  CHECK(dev.first_mismatch_index == cpu.first_mismatch_index);
  CHECK(dev.max_abs == cpu.max_abs);
  CHECK(dev.max_abs_index == cpu.max_abs_index);
  CHECK(dev.max_rel == cpu.max_rel);
  CHECK(dev.max_rel_index == cpu.max_rel_index);
  CHECK(dev.nan_a == cpu.nan_a);
  CHECK(dev.nan_b == cpu.nan_b);
  CHECK(dev.inf_a == cpu.inf_a);
  CHECK(dev.inf_b == cpu.inf_b);
  CHECK(dev.max_abs_b == cpu.max_abs_b);
  CHECK(dev.max_ulp == cpu.max_ulp);
  CHECK(dev.integers == cpu.integers);
  CHECK(dev.max_abs_integer == cpu.max_abs_integer);
  CHECK(dev.sum_sq_diff == doctest::Approx(cpu.sum_sq_diff).epsilon(1e-12));
  CHECK(dev.sum_sq_a == doctest::Approx(cpu.sum_sq_a).epsilon(1e-12));
  CHECK(dev.sum_sq_b == doctest::Approx(cpu.sum_sq_b).epsilon(1e-12));
  CHECK(dev.dot_ab == doctest::Approx(cpu.dot_ab).epsilon(1e-12));
}

void agree(DType ta, DType tb, numerics::Tolerance tol) {
  const std::size_t n = 4099;
  auto a = draw(ta, n, 3);
  if (cuda::is_floating(ta)) {
    std::uint64_t nan = cuda::poison_pattern(ta);
    std::memcpy(a.data() + 29 * cuda::element_bytes(ta), &nan, cuda::element_bytes(ta));
  }
  agree_on(ta, a, tb, near_copy(a, ta, tb, n), n, tol);
}

template <typename T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
  std::vector<unsigned char> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

}  // namespace

TEST_CASE("device arithmetic agrees with operators/numerics, same dtype") {
  for (DType t : {DType::f64, DType::f32, DType::f16, DType::bf16, DType::f8e4m3, DType::f8e5m2}) {
    agree(t, t, {1e-3, 1e-5, 0});
    agree(t, t, {0, 0, 2});
  }
  for (DType t : {DType::i64, DType::u64, DType::i32, DType::i16, DType::i8, DType::u8, DType::boolean}) {
    agree(t, t, {0, 0, 0});
    agree(t, t, {0, 0, 1});
  }
}

TEST_CASE("device arithmetic agrees with operators/numerics, mixed dtypes (b rounded to a's for ULPs)") {
  agree(DType::f16, DType::f32, {1e-3, 1e-5, 0});
  agree(DType::f16, DType::f32, {0, 0, 1});
  agree(DType::bf16, DType::f64, {0, 0, 1});
  agree(DType::f32, DType::f64, {0, 0, 3});
  agree(DType::f8e4m3, DType::f32, {0, 0, 1});
  agree(DType::f8e5m2, DType::f16, {0, 0, 1});
  agree(DType::i32, DType::f32, {0, 0, 0});
}

TEST_CASE("an f64 ULP distance past 2^53 against a ULP tolerance of 2^53: both sides decide it exactly") {
  const std::uint64_t one = 0x3FF0000000000000ull, steps = (std::uint64_t{1} << 53) + 1;
  const std::vector<std::uint64_t> a{one + steps, one, one + steps - 1}, b{one, one, one};
  agree_on(DType::f64, bytes_of(a), DType::f64, bytes_of(b), a.size(), {0, 0, std::int64_t{1} << 53});
  agree_on(DType::f64, bytes_of(a), DType::f64, bytes_of(b), a.size(), {0, 0, (std::int64_t{1} << 53) + 1});
}

TEST_CASE("int64 past 2^53 compares as integers on the device too: decisions and greatest difference exact") {
  constexpr std::int64_t big = std::int64_t{1} << 53, top = INT64_MAX, bottom = INT64_MIN;
  // Differences 1 and 2 at 2^53 round to the same double; the greater must still win.
  const std::vector<std::int64_t> a{big + 1, 5, big + 2, top, -7}, b{big, 5, big, bottom + 1, -7};
  const std::vector<std::int64_t> near{big + 1, big + 3, big - 1, 0, -big - 2}, at{big, big + 2, big, 0, -big};
  for (numerics::Tolerance tol : {numerics::Tolerance{0, 0, 0}, {0, 1, 0}, {1e-16, 0, 0}, {0, 0, 1}, {0, 0x1p53, 0}}) {
    agree_on(DType::i64, bytes_of(a), DType::i64, bytes_of(b), a.size(), tol);
    agree_on(DType::i64, bytes_of(near), DType::i64, bytes_of(at), near.size(), tol);
  }
  const std::vector<std::int32_t> narrow{7, 5, 0, -1, 2};
  agree_on(DType::i32, bytes_of(narrow), DType::i64, bytes_of(a), a.size(), {0, 0, 0});

  cuda::math::Partial p;
  for (std::size_t i = 0; i < a.size(); ++i)
    cuda::math::accumulate(p, bytes_of(a).data(), DType::i64, bytes_of(b).data(), DType::i64, i, {0, 0, 0});
  const numerics::CompareStats s = cuda::math::to_stats(p);
  CHECK(s.integers);
  CHECK(s.mismatches == 3);
  CHECK(s.max_abs_integer == UINT64_MAX - 1);  // 2^63 − 1 − (−2^63 + 1)
  CHECK(s.max_abs_index == 3);
}

TEST_CASE("uint64 beside int64 on the device: past 2^63 against negatives, differences past 64 bits") {
  constexpr std::uint64_t top = UINT64_MAX, half = std::uint64_t{1} << 63, big = std::uint64_t{1} << 53;
  const std::vector<std::uint64_t> a{half, top, big + 1, 5, top, top - 1};
  const std::vector<std::int64_t> b{INT64_MIN, -1, static_cast<std::int64_t>(big), 5, INT64_MIN, INT64_MAX};
  const std::vector<std::uint64_t> c{top - 1, top, half, 0, big + 2, big};
  for (numerics::Tolerance tol : {numerics::Tolerance{0, 0, 0}, {0, 1, 0}, {1e-16, 0, 0}, {0, 0, 1}, {0, 0x1p64 + 0x1p62, 0},
                                  {0.5, 0x1p63, 0}}) {
    agree_on(DType::u64, bytes_of(a), DType::i64, bytes_of(b), a.size(), tol);
    agree_on(DType::i64, bytes_of(b), DType::u64, bytes_of(a), a.size(), tol);
    agree_on(DType::u64, bytes_of(a), DType::u64, bytes_of(c), a.size(), tol);
  }
  cuda::math::Partial p;
  for (std::size_t i = 0; i < a.size(); ++i)
    cuda::math::accumulate(p, bytes_of(a).data(), DType::u64, bytes_of(b).data(), DType::i64, i, {0, 0, 0});
  const numerics::CompareStats s = cuda::math::to_stats(p);
  CHECK(s.integers);
  CHECK(s.mismatches == 5);
  CHECK(s.max_abs_integer == (tensor::WideUnsigned{top} + half));  // 2^64 - 1 + 2^63
  CHECK(s.max_abs_index == 4);
  CHECK(s.max_ulp == top);  // saturated; max_abs_integer holds it
}
