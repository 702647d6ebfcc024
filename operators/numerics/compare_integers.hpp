#pragma once
// The elementwise comparison of two integer tensors when one holds 64-bit integers (i64 or u64),
// in integer arithmetic: a double has 53 bits, so 2^53 and 2^53 + 1 would compare equal through
// it. Values and differences are held in 128 bits, so a u64 past 2^63 beside a negative i64 is
// neither wrapped nor rounded.
#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

// Whether compare() takes this path: both dtypes integers or bool, and one of them i64 or u64.
bool needs_integer_comparison(const tensor::Tensor& a, const tensor::Tensor& b);

// The fields of CompareStats as compare() fills them, from the exact integers, each pair decided
// by integers_close (integer_closeness.hpp); max_abs_integer holds the greatest difference exactly.
CompareStats compare_integers(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol, unsigned threads);

}  // namespace rubric::numerics
