#include "operators/stats/hodges_lehmann.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "operators/error.hpp"
#include "operators/stats/normal.hpp"
#include "operators/stats/summary.hpp"

namespace rubric::stats {
namespace {

// #{(i, j): x_i − y_j <= t}: as x_i grows, the first y_j with x_i − y_j <= t moves right.
std::uint64_t count_at_most(const std::vector<double>& x, const std::vector<double>& y, double t) {
  std::uint64_t count = 0;
  std::size_t j = 0;
  for (double xi : x) {
    while (j < y.size() && xi - y[j] > t) ++j;
    count += y.size() - j;
  }
  return count;
}

// The greatest difference x_i − y_j that is <= t.
double largest_at_most(const std::vector<double>& x, const std::vector<double>& y, double t) {
  double best = -INFINITY;
  std::size_t j = 0;
  for (double xi : x) {
    while (j < y.size() && xi - y[j] > t) ++j;
    if (j < y.size()) best = std::max(best, xi - y[j]);
  }
  return best;
}

}  // namespace

double kth_pairwise_difference(const std::vector<double>& x, const std::vector<double>& y, std::uint64_t k) {
  const std::uint64_t total = std::uint64_t(x.size()) * y.size();
  if (k < 1 || k > total) throw OperatorError(fmt::format("pairwise difference rank {} outside 1..{}", k, total));
  double lo = x.front() - y.back(), hi = x.back() - y.front();
  if (count_at_most(x, y, lo) >= k) return lo;
  // Invariant: count(lo) < k <= count(hi).
  for (int iter = 0; iter < 200; ++iter) {
    double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (count_at_most(x, y, mid) >= k ? hi : lo) = mid;
  }
  return largest_at_most(x, y, hi);
}

Interval hodges_lehmann_shift(const std::vector<double>& x, const std::vector<double>& y, double confidence) {
  require_samples(x, "Hodges-Lehmann (first sample)");
  require_samples(y, "Hodges-Lehmann (second sample)");
  if (!(confidence > 0 && confidence < 1))
    throw OperatorError(fmt::format("Hodges-Lehmann: confidence {} is not strictly between 0 and 1", confidence));
  std::vector<double> xs(x), ys(y);
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  const std::uint64_t total = std::uint64_t(xs.size()) * ys.size();

  Interval out;
  const double upper_mid = kth_pairwise_difference(xs, ys, total / 2 + 1);
  out.estimate = total % 2 ? upper_mid : (kth_pairwise_difference(xs, ys, total / 2) + upper_mid) / 2;

  const double m = double(xs.size()), n = double(ys.size());
  const double z = normal_quantile(1 - (1 - confidence) / 2);
  double k = std::floor(m * n / 2 - z * std::sqrt(m * n * (m + n + 1) / 12));
  if (k < 1) k = 1;
  const std::uint64_t kk = static_cast<std::uint64_t>(k);
  out.lo = kth_pairwise_difference(xs, ys, kk);
  out.hi = kth_pairwise_difference(xs, ys, total + 1 - kk);
  return out;
}

}  // namespace rubric::stats
