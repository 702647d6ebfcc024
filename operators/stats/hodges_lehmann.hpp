#pragma once
// The Hodges-Lehmann estimate of the shift between two samples, with its distribution-free
// confidence interval (the one that inverts the Mann-Whitney test).
#include <cstdint>
#include <vector>

#include "operators/stats/bootstrap.hpp"

namespace rubric::stats {

// Shift of x relative to y: the median of all n1·n2 differences x_i − y_j; lo and hi are the
// order statistics d_(k) and d_(n1·n2 + 1 − k) of those differences with
// k = floor(n1·n2/2 − z·sqrt(n1·n2·(n1+n2+1)/12)) (normal approximation, clamped to k >= 1, so
// tiny samples get the widest interval they have). The differences are never materialised:
// each order statistic is found by bisection with an O(n1 + n2) count, so 10,000 × 10,000 is cheap.
Interval hodges_lehmann_shift(const std::vector<double>& x, const std::vector<double>& y, double confidence = 0.95);

// The k-th smallest (1-based) of the differences x_i − y_j, x and y sorted ascending.
double kth_pairwise_difference(const std::vector<double>& x_sorted, const std::vector<double>& y_sorted, std::uint64_t k);

}  // namespace rubric::stats
