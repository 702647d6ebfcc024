#pragma once
// The elementwise comparison of two integer tensors when one holds 64-bit integers, in integer
// arithmetic: a double has 53 bits, so 2^53 and 2^53 + 1 would compare equal through it.
#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

// Whether compare() takes this path: both dtypes integers or bool, and one of them i64.
bool needs_integer_comparison(const tensor::Tensor& a, const tensor::Tensor& b);

// The fields of CompareStats as compare() fills them, from the exact integers: close(x, y) is
// |x − y| == 0 at tolerance 0, |x − y| ≤ atol + rtol·|y| in 64-bit-mantissa arithmetic otherwise,
// |x − y| ≤ ulp with a ULP tolerance; max_abs_integer holds the greatest difference exactly.
CompareStats compare_integers(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol, unsigned threads);

}  // namespace rubric::numerics
