#include "operators/stats/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "operators/stats/normal.hpp"
#include "operators/stats/summary.hpp"

namespace rubric::stats {
namespace {

// P(U >= u) under the null for sizes n1, n2: the counts of U are the coefficients of the Gaussian
// binomial [n1+n2 choose n1]_q, built as Π (1 − q^(n2+i)) / (1 − q^i) for i = 1..n1.
double exact_sf(long u, long n1, long n2) {
  if (n1 > n2) std::swap(n1, n2);
  const long top = n1 * n2;
  std::vector<long double> c(top + 1, 0);
  c[0] = 1;
  for (long i = 1; i <= n1; ++i) {
    for (long k = top; k >= n2 + i; --k) c[k] -= c[k - (n2 + i)];  // × (1 − q^(n2+i))
    for (long k = i; k <= top; ++k) c[k] += c[k - i];              // ÷ (1 − q^i)
  }
  long double total = 0, tail = 0;
  for (long k = 0; k <= top; ++k) {
    total += c[k];
    if (k >= u) tail += c[k];
  }
  return double(tail / total);
}

}  // namespace

MannWhitneyResult mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  require_samples(x, "Mann-Whitney U (first sample)");
  require_samples(y, "Mann-Whitney U (second sample)");
  const std::size_t n1 = x.size(), n2 = y.size(), n = n1 + n2;

  // Midranks of the pooled samples, and the tie term Σ(t³ − t).
  std::vector<std::pair<double, int>> pooled;
  pooled.reserve(n);
  for (double v : x) pooled.emplace_back(v, 0);
  for (double v : y) pooled.emplace_back(v, 1);
  std::sort(pooled.begin(), pooled.end(), [](auto& a, auto& b) { return a.first < b.first; });
  double r1 = 0, tie_term = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double t = double(j - i), rank = (double(i + 1) + double(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second == 0) r1 += rank;
    tie_term += t * t * t - t;
    i = j;
  }

  MannWhitneyResult res;
  res.u = r1 - double(n1) * double(n1 + 1) / 2;
  const double u2 = double(n1) * double(n2) - res.u;
  const double u_big = std::max(res.u, u2);
  const bool ties = tie_term > 0;
  if (!ties && (n1 <= 8 || n2 <= 8)) {
    res.method = "exact";
    res.p_value = std::min(1.0, 2 * exact_sf(std::lround(u_big), long(n1), long(n2)));
    return res;
  }
  res.method = "asymptotic";
  const double mu = double(n1) * double(n2) / 2;
  const double var = double(n1) * double(n2) / 12 * ((double(n) + 1) - tie_term / (double(n) * double(n - 1)));
  if (var <= 0) { res.p_value = 1; return res; }  // every value tied
  const double z = (u_big - mu - 0.5) / std::sqrt(var);
  res.p_value = std::clamp(2 * normal_sf(z), 0.0, 1.0);
  return res;
}

}  // namespace rubric::stats
