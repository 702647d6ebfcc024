#pragma once
// Summary statistics of a sample set. Every function throws OperatorError on an empty set
// (or a set too small for the statistic) and on NaN samples.
#include <vector>

namespace rubric::stats {

double median(const std::vector<double>& xs);
double mean(const std::vector<double>& xs);
// Percentile p in [0, 100] with numpy's default linear interpolation between order statistics.
double percentile(const std::vector<double>& xs, double p);
// The same on already sorted samples (no copy, no checks beyond p's range).
double percentile_sorted(const std::vector<double>& sorted, double p);
double stdev(const std::vector<double>& xs);  // sample standard deviation (ddof = 1), needs 2 samples
double cv(const std::vector<double>& xs);     // stdev / |mean|

// Throws OperatorError naming `what` when xs is empty or holds NaN.
void require_samples(const std::vector<double>& xs, const char* what, std::size_t at_least = 1);

}  // namespace rubric::stats
