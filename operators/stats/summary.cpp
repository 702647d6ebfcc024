#include "operators/stats/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "operators/error.hpp"

namespace rubric::stats {

void require_samples(const std::vector<double>& xs, const char* what, std::size_t at_least) {
  if (xs.size() < at_least)
    throw OperatorError(fmt::format("{} needs at least {} sample{}, got {}", what, at_least, at_least == 1 ? "" : "s", xs.size()));
  for (std::size_t i = 0; i < xs.size(); ++i)
    if (std::isnan(xs[i])) throw OperatorError(fmt::format("{}: sample {} is NaN", what, i));
}

double percentile_sorted(const std::vector<double>& sorted, double p) {
  if (!(p >= 0 && p <= 100)) throw OperatorError(fmt::format("percentile {} is outside [0, 100]", p));
  const double h = (sorted.size() - 1) * (p / 100.0);
  const std::size_t lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted[lo];
  const double frac = h - lo;
  return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double percentile(const std::vector<double>& xs, double p) {
  require_samples(xs, "percentile");
  std::vector<double> s(xs);
  std::sort(s.begin(), s.end());
  return percentile_sorted(s, p);
}

double median(const std::vector<double>& xs) {
  require_samples(xs, "median");
  std::vector<double> s(xs);
  const std::size_t n = s.size(), mid = n / 2;
  std::nth_element(s.begin(), s.begin() + mid, s.end());
  double upper = s[mid];
  if (n % 2) return upper;
  double lower = *std::max_element(s.begin(), s.begin() + mid);
  return lower + (upper - lower) / 2;
}

double mean(const std::vector<double>& xs) {
  require_samples(xs, "mean");
  double sum = 0;
  for (double x : xs) sum += x;
  return sum / xs.size();
}

double stdev(const std::vector<double>& xs) {
  require_samples(xs, "stdev", 2);
  const double m = mean(xs);
  double ss = 0;
  for (double x : xs) ss += (x - m) * (x - m);
  return std::sqrt(ss / (xs.size() - 1));
}

double cv(const std::vector<double>& xs) {
  const double m = mean(xs);
  if (m == 0) throw OperatorError("cv: the mean is 0, the coefficient of variation is undefined");
  return stdev(xs) / std::fabs(m);
}

}  // namespace rubric::stats
