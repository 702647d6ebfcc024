#include "interpreter/sample_decision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <unordered_map>
#include <vector>

#include "interpreter/units.hpp"
#include "interpreter/verdicts.hpp"
#include "operators/error.hpp"
#include "operators/stats/bootstrap.hpp"

namespace rubric {

namespace {

// The expression over leaf medians: each leaf is replaced by medians[index of that leaf].
double eval_with(const SampleExpr& e, const std::unordered_map<const SampleSet*, std::size_t>& index,
                 const std::vector<double>& medians) {
  switch (e.op) {
    case SampleExpr::Op::leaf: return medians[index.at(e.leaf.get())];
    case SampleExpr::Op::constant: return e.constant;
    case SampleExpr::Op::add: return eval_with(*e.lhs, index, medians) + eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::sub: return eval_with(*e.lhs, index, medians) - eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::mul: return eval_with(*e.lhs, index, medians) * eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::div: return eval_with(*e.lhs, index, medians) / eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::neg: return -eval_with(*e.lhs, index, medians);
  }
  return 0;
}

}  // namespace

CheckOutcome decide_statistically(const StatQuestion& q, double confidence, std::uint64_t seed) {
  Samples s{q.quantity};
  auto leaves = s.leaves();
  std::unordered_map<const SampleSet*, std::size_t> index;
  std::vector<const std::vector<double>*> data;
  std::size_t n = SIZE_MAX;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    index[leaves[i].get()] = i;
    data.push_back(&leaves[i]->values);
    n = std::min(n, leaves[i]->values.size());
  }
  CheckOutcome o;
  try {
    stats::Interval iv = stats::bootstrap_interval(
        data, [&](const std::vector<double>& medians) { return eval_with(*q.quantity, index, medians); }, confidence, seed);
    stats::Decision d = stats::decide(iv, q.bound, q.side, n);
    o = statistical_outcome(d.verdict == stats::Verdict::Pass   ? Verdict::pass
                            : d.verdict == stats::Verdict::Fail ? Verdict::fail
                                                                : Verdict::inconclusive);
    if (!q.in_terms.empty()) o.evidence.push_back(q.in_terms);
    o.evidence.push_back(fmt::format("{}: median {} ({:g}% CI {} .. {}, n = {} per set) {} {}", q.what,
                                     format_quantity(iv.estimate, q.dim), confidence * 100, format_quantity(iv.lo, q.dim),
                                     format_quantity(iv.hi, q.dim), n, stats::side_operator(q.side),
                                     q.bound_text));
    for (const auto& l : leaves) o.evidence.push_back(fmt::format("  {} ({} samples)", l->description, l->values.size()));
    // The picture of the same decision (HTML report): each side's samples on one axis, so only
    // the sides in the first side's unit; the quantity's interval against the bound.
    SamplePlot plot;
    plot.unit = leaves.empty() ? "" : dimension_name(leaves.front()->dim);
    for (const auto& l : leaves)
      if (l->dim == leaves.front()->dim) plot.series.push_back({l->description, l->values});
    plot.quantity = q.what;
    plot.quantity_unit = dimension_name(q.dim);
    plot.estimate = iv.estimate;
    plot.lo = iv.lo;
    plot.hi = iv.hi;
    plot.bound = q.bound;
    plot.at_least = q.side == stats::PassingSide::AtLeast;
    o.samples = std::move(plot);
    // The decision's own words carry bare numbers; the report says the same with units.
    const std::string interval = fmt::format("the {:g}% interval {} .. {}", confidence * 100, format_quantity(iv.lo, q.dim),
                                             format_quantity(iv.hi, q.dim));
    const std::string bound = format_quantity(q.bound, q.dim);
    if (o.verdict == Verdict::pass) o.explanation = fmt::format("{} lies wholly on the passing side of {}", interval, bound);
    else if (o.verdict == Verdict::fail) o.explanation = fmt::format("{} lies wholly on the failing side of {}", interval, bound);
    else if (d.settleable)
      o.explanation = fmt::format("{} straddles {}: about {} samples per set (now {}) would likely settle it, or {:.2g}x less noise",
                                  interval, bound, d.samples_needed, n,
                                  std::sqrt(double(d.samples_needed) / double(n ? n : 1)));
    else
      o.explanation = fmt::format("{} straddles {} with the estimate on the bound: more samples will not settle it", interval,
                                  bound);
  } catch (const OperatorError& ex) {
    o = unusable_operand(false, fmt::format("statistical comparison failed: {}", ex.what()));
  }
  return o;
}

std::uint64_t mix_seed(std::uint64_t seed, const SourceLocation& l) {
  return seed * 0x9E3779B97F4A7C15ull + (std::uint64_t(l.line) << 20) + l.column;
}

std::optional<CheckOutcome> too_few_samples(const Value& v, const std::string& text) {
  if (!v.is(ValueKind::samples)) return std::nullopt;
  for (const auto& leaf : v.as_samples().leaves()) {
    if (leaf->values.size() >= kMinSamplesPerSet) continue;
    CheckOutcome o = unusable_operand(v.from_submission(), fmt::format("{} has {} measurement{} in a set ({}): a statistical comparison needs at least {} per set, "
                                "since one value shows no spread to be confident about",
                                text.empty() ? "a side" : text, leaf->values.size(), leaf->values.size() == 1 ? "" : "s",
                                leaf->description, kMinSamplesPerSet));
    o.evidence.push_back(fmt::format("  {} ({} sample{})", leaf->description, leaf->values.size(), leaf->values.size() == 1 ? "" : "s"));
    return o;
  }
  return std::nullopt;
}

}  // namespace rubric
