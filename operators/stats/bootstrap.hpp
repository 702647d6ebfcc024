#pragma once
// Percentile-bootstrap confidence intervals built on resampled medians.
#include <cstdint>
#include <functional>
#include <vector>

namespace rubric::stats {

struct Interval {
  double estimate = 0;  // the quantity on the original samples
  double lo = 0, hi = 0;
};

constexpr int kDefaultReplicates = 10000;

// Resamples every leaf sample set independently (with replacement), takes each resample's median
// and evaluates `quantity` on the vector of medians (one per leaf, in order). The interval is the
// percentile interval of those replicates at `confidence` (e.g. 0.95); the estimate is quantity()
// of the original medians. Deterministic for a seed. Replicates where quantity is NaN are dropped;
// if more than half are, OperatorError. A resample median costs O(1) after one sort per leaf: it is
// drawn from the exact distribution of the median of n uniform draws (an order statistic of
// n uniforms is Beta distributed), so the work does not grow with the sample count.
Interval bootstrap_interval(const std::vector<const std::vector<double>*>& leaves,
                            const std::function<double(const std::vector<double>&)>& quantity,
                            double confidence, std::uint64_t seed, int replicates = kDefaultReplicates);

// The percentile-bootstrap interval of one sample set's median.
Interval median_interval(const std::vector<double>& xs, double confidence, std::uint64_t seed,
                         int replicates = kDefaultReplicates);

}  // namespace rubric::stats
