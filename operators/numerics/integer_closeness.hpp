#pragma once
// When two integers (one side int64) are close: the rule shared by the CPU comparison, the
// mismatch map and the device kernel (this header is compiled by nvcc too), so all three decide
// every pair alike. The difference is exact, since every difference of two int64 fits 64 unsigned
// bits; the bound atol + rtol·|b| is a double, as for floats, and the difference is compared with
// it exactly, so at tolerance 0 only equal integers are close (a double has 53 bits: through it,
// 2^53 and 2^53 + 1 would be equal).
#include <cstdint>

#if defined(__CUDACC__)
#define RUBRIC_INTEGER_HD __host__ __device__ __forceinline__
#else
#define RUBRIC_INTEGER_HD inline
#endif

namespace rubric::numerics {

// |x − y|, exactly.
RUBRIC_INTEGER_HD std::uint64_t integer_distance(std::int64_t x, std::int64_t y) {
  return x >= y ? static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)
                : static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x);
}

// |y|, exactly (|INT64_MIN| included).
RUBRIC_INTEGER_HD std::uint64_t integer_magnitude(std::int64_t y) {
  return y < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(y) : static_cast<std::uint64_t>(y);
}

// |x − y| / |y| in double: 0 for equal values, +inf for y = 0 < |x − y|.
RUBRIC_INTEGER_HD double integer_relative_difference(std::uint64_t distance, std::uint64_t magnitude_b) {
  if (distance == 0) return 0.0;
  return static_cast<double>(distance) / static_cast<double>(magnitude_b);
}

// distance ≤ ulp with a ULP tolerance (an integer's ULP is 1), else distance ≤ atol + rtol·|b|
// with the bound rounded once per operation (the device's multiply and add are kept from fusing).
// rtol and atol are finite and non-negative (checked before any pass).
RUBRIC_INTEGER_HD bool integers_close(std::uint64_t distance, std::uint64_t magnitude_b, double rtol, double atol,
                                      std::int64_t ulp) {
  if (ulp > 0) return distance <= static_cast<std::uint64_t>(ulp);
#if defined(__CUDA_ARCH__)
  const double bound = __dadd_rn(atol, __dmul_rn(rtol, static_cast<double>(magnitude_b)));
#else
  const double bound = atol + rtol * static_cast<double>(magnitude_b);
#endif
  if (!(bound < 18446744073709551616.0)) return true;  // 2^64: past every difference
  // An integer is ≤ a non-negative real exactly when it is ≤ the real's integer part.
  return distance <= static_cast<std::uint64_t>(bound);
}

}  // namespace rubric::numerics
