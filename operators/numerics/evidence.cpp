#include "operators/numerics/evidence.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "operators/numerics/compare_metrics.hpp"
#include "operators/tensor/index_format.hpp"

namespace rubric::numerics {
namespace {

std::string percent(std::int64_t part, std::int64_t whole) {
  if (whole == 0 || part == 0) return "0%";
  const double p = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  if (p >= 1) return fmt::format("{:.1f}%", p);
  if (p < 0.001) return "<0.001%";
  return fmt::format("{:.3f}%", p);
}

std::string number(double v) { return fmt::format("{:.6g}", v); }

// A tolerance as it was given: the shortest digits that read back as it (0.9999999999999998,
// not 1).
std::string bound(double v) { return fmt::format("{}", v); }

// A difference with enough digits not to read as the bound it is compared with when it is not
// that bound (1.0000000000000002 beside an atol of 1).
std::string number_beside(double v, double limit) {
  std::string text = number(v);
  for (int digits = 7; digits <= 17 && v != limit && std::strtod(text.c_str(), nullptr) == limit; ++digits)
    text = fmt::format("{:.{}g}", v, digits);
  return text;
}

}  // namespace

std::vector<std::string> comparison_evidence(const CompareStats& s, const tensor::Shape& shape, const Tolerance& tol,
                                             const EvidenceLabels& labels) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("Mismatched elements: {} / {} ({})", s.mismatches, s.count, percent(s.mismatches, s.count)));
  if (tol.ulp > 0) {
    // An integer's ULP is 1: its distance exactly, past 64 bits too (a u64 beside a negative i64).
    const std::string ulps = s.integers ? fmt::format("{}", s.max_abs_integer) : fmt::format("{}", s.max_ulp);
    lines.push_back(fmt::format("Greatest ULP difference: {} (up to {} allowed)", ulps, tol.ulp));
  }
  if (s.max_abs_index >= 0) {
    const std::string allowed =
        tol.ulp > 0 ? "" : fmt::format(" (up to {} + {}·|{}| allowed)", bound(tol.atol), bound(tol.rtol), labels.expected);
    // Integers print exactly (an i64 or u64 difference may be past 2^53).
    const std::string difference = s.integers ? fmt::format("{}", s.max_abs_integer) : number_beside(s.max_abs, tol.atol);
    lines.push_back(fmt::format("Greatest absolute difference: {} at {}{}", difference,
                                tensor::format_index(shape, s.max_abs_index), allowed));
  }
  if (s.max_rel_index >= 0) {
    const std::string allowed = tol.ulp > 0 ? "" : fmt::format(" (up to {} allowed)", bound(tol.rtol));
    lines.push_back(fmt::format("Greatest relative difference: {} at {}{}", number_beside(s.max_rel, tol.rtol),
                                tensor::format_index(shape, s.max_rel_index), allowed));
  }
  lines.push_back(fmt::format("NaN: {} in {}, {} in {}", s.nan_a, labels.actual, s.nan_b, labels.expected));
  if (s.inf_a > 0 || s.inf_b > 0) {
    lines.push_back(fmt::format("Inf: {} in {}, {} in {}", s.inf_a, labels.actual, s.inf_b, labels.expected));
  }
  if (s.mismatches > 0 && s.first_mismatch_index >= 0) {
    lines.push_back(fmt::format("First mismatch at {}", tensor::format_index(shape, s.first_mismatch_index)));
  }
  if (tolerance_admits_zeros(s, tol)) {
    lines.push_back(fmt::format("Warning: atol {} ≥ max|{}| {}: the tolerance admits an all-zero answer",
                                bound(tol.atol), labels.expected, number(s.max_abs_b)));
  }
  return lines;
}

std::string shape_mismatch_evidence(const tensor::Shape& actual, const tensor::Shape& expected,
                                    const EvidenceLabels& labels) {
  return fmt::format("Shapes differ: {} in {}, {} in {} (no broadcasting)", tensor::format_shape(actual), labels.actual,
                     tensor::format_shape(expected), labels.expected);
}

}  // namespace rubric::numerics
