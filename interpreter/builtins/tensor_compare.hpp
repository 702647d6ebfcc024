#pragma once
// The fused elementwise comparison behind `matches` and the two-tensor metrics. One entry point,
// so the choice between the CPU pass and the device pass is made in one place.
#include "interpreter/builtins/registry.hpp"
#include "interpreter/check_outcome.hpp"
#include "interpreter/value.hpp"
#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric {

// Fills the statistics `figures` asks for in one pass over `a` (the answer) and `b` (the reference).
// Shapes must already be equal. For tensors loaded from files, results are cached per (a, b,
// tolerance, figures) within one check run, and a pass of all figures also serves an ask for the
// shown ones, so `max_abs_err`, `rel_l2` and `matches` on one pair read the data at most twice.
numerics::CompareStats compare_tensors(CallContext& ctx, const tensor::Tensor& a, const tensor::Tensor& b,
                                       const numerics::Tolerance& tol,
                                       numerics::Figures figures = numerics::Figures::all);

// The tolerance a `matches` form asks for, the dtype defaults when it names none.
numerics::Tolerance tolerance_for(const tensor::Tensor& a, const tensor::Tensor& b, const MatchTolerance& t);

// The verdict, torch-style evidence and one-line explanation of a finished comparison.
CheckOutcome comparison_outcome(const numerics::CompareStats& s, const tensor::Tensor& a, const tensor::Tensor& b,
                                const numerics::Tolerance& tol, const MatchTolerance& form);

}  // namespace rubric
