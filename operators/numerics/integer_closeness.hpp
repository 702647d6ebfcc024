#pragma once
// When two integers (one side int64 or uint64) are close: the rule shared by the CPU comparison,
// the mismatch map and the device kernel (this header is compiled by nvcc too), so all three
// decide every pair alike. Values are held exactly in 128 bits (an i64 beside a u64 spans 65
// bits), and so is their difference (|u64 max − i64 min| < 2^65); the bound atol + rtol·|b| is a
// double, as for floats, and the difference is compared with it exactly, so at tolerance 0 only
// equal integers are close (a double has 53 bits: through it, 2^53 and 2^53 + 1 would be equal,
// and so would 2^64 − 1 and 2^64 − 2).
#include <cstdint>

#include "operators/tensor/wide_integer.hpp"

#if defined(__CUDACC__)
#define RUBRIC_INTEGER_HD __host__ __device__ __forceinline__
#else
#define RUBRIC_INTEGER_HD inline
#endif

namespace rubric::numerics {

using tensor::WideInteger;
using tensor::WideUnsigned;

// |x − y|, exactly.
RUBRIC_INTEGER_HD WideUnsigned integer_distance(WideInteger x, WideInteger y) {
  return x >= y ? static_cast<WideUnsigned>(x - y) : static_cast<WideUnsigned>(y - x);
}

// |y|, exactly.
RUBRIC_INTEGER_HD WideUnsigned integer_magnitude(WideInteger y) {
  return y < 0 ? static_cast<WideUnsigned>(-y) : static_cast<WideUnsigned>(y);
}

// v (< 2^66) rounded once to the nearest double, ties to even, in 64-bit operations only (the
// device has no 128-bit conversion): below 2^64 the hardware conversion; above, v shifted right
// by two with the bits shifted out kept as a sticky bit, which rounds alike at 2^11 and more.
RUBRIC_INTEGER_HD double wide_to_double(WideUnsigned v) {
  const auto high = static_cast<std::uint64_t>(v >> 64);
  const auto low = static_cast<std::uint64_t>(v);
  if (high == 0) return static_cast<double>(low);
  const std::uint64_t shifted = (high << 62) | (low >> 2) | ((low & 3u) != 0 ? 1u : 0u);
  return static_cast<double>(shifted) * 4.0;
}

// |x − y| / |y| in double: 0 for equal values, +inf for y = 0 < |x − y|.
RUBRIC_INTEGER_HD double integer_relative_difference(WideUnsigned distance, WideUnsigned magnitude_b) {
  if (distance == 0) return 0.0;
  return wide_to_double(distance) / wide_to_double(magnitude_b);
}

// distance ≤ ulp with a ULP tolerance (an integer's ULP is 1), else distance ≤ atol + rtol·|b|
// with the bound rounded once per operation (the device's multiply and add are kept from fusing).
// rtol and atol are finite and non-negative (checked before any pass).
RUBRIC_INTEGER_HD bool integers_close(WideUnsigned distance, WideUnsigned magnitude_b, double rtol, double atol,
                                      std::int64_t ulp) {
  if (ulp > 0) return distance <= static_cast<WideUnsigned>(ulp);
#if defined(__CUDA_ARCH__)
  const double bound = __dadd_rn(atol, __dmul_rn(rtol, wide_to_double(magnitude_b)));
#else
  const double bound = atol + rtol * wide_to_double(magnitude_b);
#endif
  if (!(bound < 36893488147419103232.0)) return true;  // 2^65: past every difference
  // An integer is ≤ a non-negative real exactly when it is ≤ the real's integer part. Between 2^64
  // and 2^65 a double is a whole multiple of 2^12 and bound − 2^64 is exact.
  constexpr double kTwo64 = 18446744073709551616.0;
  if (bound < kTwo64) return distance <= static_cast<WideUnsigned>(static_cast<std::uint64_t>(bound));
  return distance <= ((static_cast<WideUnsigned>(1) << 64) | static_cast<std::uint64_t>(bound - kTwo64));
}

}  // namespace rubric::numerics
