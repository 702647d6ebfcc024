#pragma once
// One-pass statistics of a single tensor (all cores, block-wise, no widened copy).
#include <cstdint>

#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

struct TensorSummary {
  std::int64_t count = 0;
  std::int64_t nan_count = 0;
  std::int64_t inf_count = 0;
  // numpy semantics: any NaN makes min, max, mean and std NaN; infinities take part in min
  // and max, make the mean ±inf (NaN if both signs occur) and std NaN. Empty: all NaN.
  double min = 0, max = 0, mean = 0;
  double std = 0;  // population standard deviation (numpy's default ddof = 0)
};

// Mean and variance are merged from per-block two-pass results (Chan et al.), so a large
// mean does not cancel the variance away.
TensorSummary summarize(const tensor::Tensor& t, unsigned threads = 0);

// How many elements have |x| <= bound (NaN never does): the elements an all-zero tensor would
// match to an absolute tolerance `bound`.
std::int64_t count_within(const tensor::Tensor& t, double bound, unsigned threads = 0);

}  // namespace rubric::numerics
