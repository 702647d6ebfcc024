#pragma once
// The Mann-Whitney U test, two-sided, matching scipy.stats.mannwhitneyu(method='auto').
#include <string>
#include <vector>

namespace rubric::stats {

struct MannWhitneyResult {
  double u = 0;        // U of the first sample: R1 − n1(n1+1)/2 (SciPy's statistic)
  double p_value = 1;  // two-sided
  std::string method;  // "exact" or "asymptotic"
};

// 'exact' (the permutation distribution of U) when either sample has at most 8 values and there
// are no ties; otherwise the tie-corrected normal approximation with continuity correction.
// Throws OperatorError on an empty sample or NaN.
MannWhitneyResult mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace rubric::stats
