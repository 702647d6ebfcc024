#pragma once
// Compensated (Neumaier) summation: adds block partial sums without losing the small ones,
// so totals over 1e9 elements keep ~full double precision.
#include <cmath>

namespace rubric::numerics {

struct NeumaierSum {
  double sum = 0;
  double compensation = 0;

  void add(double v) {
    const double t = sum + v;
    if (std::fabs(sum) >= std::fabs(v)) compensation += (sum - t) + v;
    else compensation += (v - t) + sum;
    sum = t;
  }
  void add(const NeumaierSum& other) {
    add(other.sum);
    add(other.compensation);
  }
  double value() const { return sum + compensation; }
};

}  // namespace rubric::numerics
