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
  std::uint64_t below = count_at_most(x, y, lo), upto = total;
  if (below >= k) return lo;
  // Invariant: count(lo) < k <= count(hi). Bisect until few differences remain in (lo, hi].
  const std::uint64_t few = std::max<std::uint64_t>(1024, x.size() + y.size());
  bool adjacent = false;
  for (int iter = 0; iter < 200 && upto - below > few; ++iter) {
    double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) { adjacent = true; break; }
    std::uint64_t c = count_at_most(x, y, mid);
    if (c >= k) { hi = mid; upto = c; } else { lo = mid; below = c; }
  }
  if (adjacent || upto - below > few) return largest_at_most(x, y, hi);  // (lo, hi] holds one value
  // Select among the differences in (lo, hi]: for each x_i they are a run of consecutive y_j.
  std::vector<double> window;
  window.reserve(upto - below);
  std::size_t first = 0, last = 0;  // y_j with x_i - y_j <= hi starts at first; > lo ends before last
  for (double xi : x) {
    while (first < y.size() && xi - y[first] > hi) ++first;
    while (last < y.size() && xi - y[last] > lo) ++last;
    for (std::size_t j = first; j < last; ++j) window.push_back(xi - y[j]);
  }
  auto nth = window.begin() + (k - below - 1);
  std::nth_element(window.begin(), nth, window.end());
  return *nth;
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
