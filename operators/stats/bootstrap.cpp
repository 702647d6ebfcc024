#include "operators/stats/bootstrap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "operators/error.hpp"
#include "operators/stats/random.hpp"
#include "operators/stats/summary.hpp"

namespace rubric::stats {
namespace {

// Draws the median of a with-replacement resample of sorted data without building the resample:
// resampled indices are ceil(n·U) for uniform U, so the k-th smallest index is ceil(n·U_(k)) with
// U_(k) ~ Beta(k, n-k+1); the next order statistic is the minimum of the n-k uniforms above it.
class ResampledMedian {
 public:
  explicit ResampledMedian(const std::vector<double>& xs) : sorted_(xs) {
    std::sort(sorted_.begin(), sorted_.end());
    n_ = sorted_.size();
    k_ = n_ % 2 ? (n_ + 1) / 2 : n_ / 2;
  }

  double original() const {
    return n_ % 2 ? sorted_[k_ - 1] : sorted_[k_ - 1] + (sorted_[k_] - sorted_[k_ - 1]) / 2;
  }

  double draw(Random& rng) const {
    const double u = rng.beta(double(k_), double(n_ - k_ + 1));
    const double lower = sorted_[index_of(u)];
    if (n_ % 2) return lower;
    const double m = double(n_ - k_);
    const double u2 = u + (1 - u) * (1 - std::pow(rng.uniform(), 1 / m));
    const double upper = sorted_[index_of(u2)];
    return lower + (upper - lower) / 2;
  }

 private:
  std::size_t index_of(double u) const {
    double j = std::ceil(u * double(n_)) - 1;
    return static_cast<std::size_t>(std::clamp(j, 0.0, double(n_ - 1)));
  }

  std::vector<double> sorted_;
  std::size_t n_ = 0, k_ = 0;
};

}  // namespace

Interval bootstrap_interval(const std::vector<const std::vector<double>*>& leaves,
                            const std::function<double(const std::vector<double>&)>& quantity,
                            double confidence, std::uint64_t seed, int replicates) {
  if (leaves.empty()) throw OperatorError("bootstrap: no sample sets given");
  if (!(confidence > 0 && confidence < 1))
    throw OperatorError(fmt::format("bootstrap: confidence {} is not strictly between 0 and 1", confidence));
  if (replicates < 100) throw OperatorError(fmt::format("bootstrap: {} replicates is too few (at least 100)", replicates));

  std::vector<ResampledMedian> medians;
  medians.reserve(leaves.size());
  std::vector<double> point(leaves.size());
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    require_samples(*leaves[i], "bootstrap sample set");
    medians.emplace_back(*leaves[i]);
    point[i] = medians.back().original();
  }

  Interval out;
  out.estimate = quantity(point);

  Random rng(seed);
  std::vector<double> reps;
  reps.reserve(replicates);
  std::vector<double> draw(leaves.size());
  for (int r = 0; r < replicates; ++r) {
    for (std::size_t i = 0; i < medians.size(); ++i) draw[i] = medians[i].draw(rng);
    double q = quantity(draw);
    if (!std::isnan(q)) reps.push_back(q);
  }
  if (reps.size() * 2 < std::size_t(replicates))
    throw OperatorError(fmt::format("bootstrap: the quantity is undefined (NaN) on {} of {} resamples",
                                    replicates - reps.size(), replicates));
  std::sort(reps.begin(), reps.end());
  const double tail = (1 - confidence) / 2 * 100;
  out.lo = percentile_sorted(reps, tail);
  out.hi = percentile_sorted(reps, 100 - tail);
  return out;
}

Interval median_interval(const std::vector<double>& xs, double confidence, std::uint64_t seed, int replicates) {
  return bootstrap_interval({&xs}, [](const std::vector<double>& m) { return m[0]; }, confidence, seed, replicates);
}

}  // namespace rubric::stats
