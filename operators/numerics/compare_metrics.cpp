#include "operators/numerics/compare_metrics.hpp"

#include <cmath>
#include <limits>

namespace rubric::numerics {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// NaN when a NaN is involved, +inf for an unequal infinity, otherwise nothing to override.
bool nonfinite_override(const CompareStats& s, double& out) {
  if (s.nan_a > 0 || s.nan_b > 0) {
    out = kNaN;
    return true;
  }
  if (s.unequal_nonfinite > 0) {
    out = kInf;
    return true;
  }
  return false;
}

}  // namespace

double max_abs_err(const CompareStats& s) {
  double v;
  return nonfinite_override(s, v) ? v : s.max_abs;
}

double max_rel_err(const CompareStats& s) {
  double v;
  return nonfinite_override(s, v) ? v : s.max_rel;
}

double rel_l2(const CompareStats& s) {
  double v;
  if (nonfinite_override(s, v)) return v;
  const double num = std::sqrt(s.sum_sq_diff), den = std::sqrt(s.sum_sq_b);
  if (den == 0) return num == 0 ? 0 : kInf;
  return num / den;
}

double cosine(const CompareStats& s) {
  if (s.nan_a > 0 || s.nan_b > 0 || s.unequal_nonfinite > 0) return kNaN;
  const double na = std::sqrt(s.sum_sq_a), nb = std::sqrt(s.sum_sq_b);
  if (na == 0 && nb == 0) return 1;
  if (na == 0 || nb == 0) return 0;
  return s.dot_ab / (na * nb);
}

double frac_close(const CompareStats& s) {
  if (s.count == 0) return 1;
  return static_cast<double>(s.count - s.mismatches) / static_cast<double>(s.count);
}

bool tolerance_admits_zeros(const CompareStats& s, const Tolerance& tol) {
  return s.count > 0 && tol.ulp == 0 && tol.atol >= s.max_abs_b;
}

}  // namespace rubric::numerics
