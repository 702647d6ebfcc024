#pragma once
// Default tolerances by dtype (the less precise of the two operands decides).
#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/dtype.hpp"

namespace rubric::numerics {

// (rtol, atol): f64 (1e-7, 1e-7), f32 (1.3e-6, 1e-5), f16 (1e-3, 1e-5), bf16 (1.6e-2, 1e-5);
// integers, bool and fp8 compare exactly (0, 0).
Tolerance default_tolerance(tensor::DType t);
// For two dtypes: the looser of the two defaults (larger rtol and larger atol), so f16 vs f32
// uses f16's, and an exact dtype against a float uses the float's.
Tolerance default_tolerance(tensor::DType a, tensor::DType b);

// Whether v may bound a difference (an rtol or atol): finite and 0 or more. A negative bound
// admits nothing, NaN decides nothing and an infinite one admits every finite answer: each is
// its writer's mistake, never a verdict.
bool is_tolerance_bound(double v);

}  // namespace rubric::numerics
