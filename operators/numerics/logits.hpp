#pragma once
// Row-wise metrics for logits: rows are the slices along the last axis.
#include <cstdint>

#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

// Fraction of rows whose k largest entries have the same index sets in a and b (order within
// the top k does not matter). Ties go to the lower index; NaN ranks below every number.
// Throws OperatorError for differing shapes, a 0-d tensor, or k outside [1, row length].
double topk_agree(const tensor::Tensor& a, const tensor::Tensor& b, std::int64_t k);

// Mean over rows of KL(softmax(p) ‖ softmax(q)), natural log, each softmax computed stably
// through log-sum-exp. Same shape rules as topk_agree; a NaN anywhere gives NaN.
double kl_div(const tensor::Tensor& p, const tensor::Tensor& q);

}  // namespace rubric::numerics
