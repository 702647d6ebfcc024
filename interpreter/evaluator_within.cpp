// `value within tolerance of reference`: a relative (5%) or absolute (2 ms) tolerance, decided on
// the numbers, or statistically on both one-sided margins when a side is samples.
#include <cmath>
#include <fmt/format.h>
#include <memory>

#include "interpreter/evaluator.hpp"
#include "interpreter/sample_decision.hpp"
#include "interpreter/units.hpp"
#include "interpreter/verdicts.hpp"
#include "operators/numerics/tolerance.hpp"

namespace rubric {

namespace {

std::shared_ptr<SampleExpr> sample_op(SampleExpr::Op op, std::shared_ptr<const SampleExpr> lhs,
                                      std::shared_ptr<const SampleExpr> rhs, Dimension dim) {
  auto x = std::make_shared<SampleExpr>();
  x->op = op;
  x->lhs = std::move(lhs);
  x->rhs = std::move(rhs);
  x->dim = dim;
  return x;
}

// The operands `within` reads, checked: the value, the tolerance and the reference.
struct WithinOperands {
  Value value, tolerance, reference;
  bool relative = false;  // a plain-number tolerance is a fraction of the reference
  std::string tolerance_text;  // "5% of 12 ms", "2 ms"
};

// `a within T of b` with samples: margin = allowed - |a - b| must be >= 0, where allowed is T·|b|
// (relative) or T. The statistical helper works on signed quantities, so both one-sided bounds
// are decided: a - b <= allowed and b - a <= allowed.
CheckOutcome decide_sample_within(Evaluator& ev, const ast::Within& w, const WithinOperands& x, const ast::Expr& e,
                                  const EnvPtr& env) {
  const Value &a = x.value, &t = x.tolerance, &r = x.reference;
  if (auto few = too_few_samples(a, ev.source_text(*w.value, env))) return *few;
  if (auto few = too_few_samples(r, ev.source_text(*w.reference, env))) return *few;
  const Dimension d = dimension_of(a);
  auto ea = sample_expr_of(a), er = sample_expr_of(r);
  StatQuestion q;
  q.dim = d;
  q.side = stats::PassingSide::AtLeast;
  q.bound_text = format_quantity(0, d);
  auto diff = sample_op(SampleExpr::Op::sub, ea, er, d);
  auto allowed = std::make_shared<SampleExpr>();
  allowed->op = SampleExpr::Op::constant;
  if (x.relative) {
    allowed->constant = std::fabs(t.as_number());
    // references are positive in practice (times, throughputs); see docs/semantics.md
    allowed = sample_op(SampleExpr::Op::mul, allowed, er, d);
  } else {
    allowed->constant = t.as_number();
    allowed->dim = d;
  }
  const std::string sides = fmt::format("({} - {}) [within {}]", ev.source_text(*w.value, env), ev.source_text(*w.reference, env),
                                        x.tolerance_text);
  StatQuestion qu = q, ql = q;
  qu.quantity = sample_op(SampleExpr::Op::sub, allowed, diff, d);  // allowed - (a - b) >= 0
  qu.what = "allowed - " + sides;
  ql.quantity = sample_op(SampleExpr::Op::add, allowed, diff, d);  // allowed + (a - b) >= 0
  ql.what = "allowed + " + sides;
  std::uint64_t s = mix_seed(ev.seed(), ev.location_of(e, env));
  CheckOutcome ou = decide_statistically(qu, ev.confidence(), s);
  CheckOutcome ol = decide_statistically(ql, ev.confidence(), s + 1);
  CheckOutcome o = statistical_outcome(both_margins(ou.verdict, ol.verdict));
  o.evidence = ou.evidence;
  o.evidence.insert(o.evidence.end(), ol.evidence.begin(), ol.evidence.end());
  o.explanation = o.verdict == ou.verdict ? ou.explanation : ol.explanation;
  return o;
}

// `a within T of b` on two numbers: |a - b| against T·|b| or T.
CheckOutcome decide_number_within(Evaluator& ev, const ast::Within& w, const WithinOperands& x, const ast::Expr& e,
                                  const EnvPtr& env) {
  const Value &a = x.value, &t = x.tolerance, &r = x.reference;
  if (std::isnan(a.as_number()) || std::isnan(r.as_number()))
    return outcome_of_error(ev.error_at(e, env, "'within' with NaN (not a number) decides nothing" +
                                                    (std::isnan(a.as_number()) ? ev.candidate_value_note(a, w.value.get(), env)
                                                                               : ev.candidate_value_note(r, w.reference.get(), env)),
                                        owner_of(std::isnan(a.as_number()) ? a : r)));
  const Dimension d = dimension_of(a);
  double av = a.as_number(), y = r.as_number();
  double diff = std::fabs(av - y);
  double allowed = x.relative ? std::fabs(t.as_number()) * std::fabs(y) : t.as_number();
  bool passed = diff <= allowed;
  auto [as, rs] = format_quantity_pair(av, y, d);
  auto [ds, alls] = format_quantity_pair(diff, allowed, d);
  std::string line = fmt::format("|{} - {}| = {} {} {} ({})", as, rs, ds, passed ? "<=" : ">", alls, x.tolerance_text);
  std::string expl = y != 0 ? fmt::format("differs by {} ({} allowed)", percent_text(diff / std::fabs(y)), x.tolerance_text)
                            : fmt::format("differs by {} ({} allowed)", format_quantity(diff, d), x.tolerance_text);
  return comparison_outcome(passed, {line}, expl);
}

}  // namespace

CheckOutcome Evaluator::decide_within(const ast::Within& w, const ast::Expr& e, const EnvPtr& env) {
  Value a = eval(*w.value, env), t = eval(*w.tolerance, env), r = eval(*w.reference, env);
  for (const Value* v : {&a, &t, &r})
    if (v->is_error()) return outcome_of_error(*v);
  auto numeric = [](const Value& v) { return v.is(ValueKind::number) || v.is(ValueKind::samples); };
  if (!numeric(a) || !numeric(r) || !t.is(ValueKind::number)) {
    // The operand of the wrong kind answers: the candidate's string FAILs, the rubric's is its ERROR.
    const Value& wrong = !numeric(a) ? a : !numeric(r) ? r : t;
    const ast::Expr* wrong_expr = !numeric(a) ? w.value.get() : !numeric(r) ? w.reference.get() : w.tolerance.get();
    return outcome_of_error(error_at(e, env, fmt::format("'within' needs numbers: got a {} within a {} of a {}{}", a.kind_name(),
                                                         t.kind_name(), r.kind_name(), candidate_value_note(wrong, wrong_expr, env)),
                                     owner_of(wrong)));
  }
  // A negative tolerance admits nothing, a NaN decides nothing and an infinite one admits every
  // finite value: a bad bound, never a verdict.
  if (!numerics::is_tolerance_bound(t.as_number()))
    return outcome_of_error(error_at(*w.tolerance, env, fmt::format("'within' needs a finite tolerance of 0 or more, got {}{}", t.to_string(),
                                                                     candidate_value_note(t, w.tolerance.get(), env, false)),
                                     owner_of(t)));
  if (dimension_of(a) != dimension_of(r) && (a.claimed() || r.claimed()))
    // A claim in the prose of another quantity than the measurement ("2.3x" against 45 GB/s): no
    // match, not the rubric's error (docs/text.md).
    return comparison_outcome(false, {fmt::format("{} and {}: a claim of another dimension ({} vs {})", a.to_string(), r.to_string(),
                                                  dimension_description(dimension_of(a)), dimension_description(dimension_of(r)))},
                              "not comparable: a claim of another unit");
  if (dimension_of(a) != dimension_of(r))
    return outcome_of_error(error_at(e, env, fmt::format("'within' of {} and {}: the dimensions differ ({} vs {})", a.to_string(),
                                                         r.to_string(), dimension_description(dimension_of(a)),
                                                         dimension_description(dimension_of(r)))));
  bool relative = t.as_quantity().dim.dimensionless();
  if (!relative && t.as_quantity().dim != dimension_of(a))
    return outcome_of_error(error_at(e, env, fmt::format("the tolerance {} has a different dimension from {} ({} vs {})", t.to_string(),
                                                         a.to_string(), dimension_description(t.as_quantity().dim),
                                                         dimension_description(dimension_of(a)))));
  std::string tol_text = relative ? fmt::format("{} of {}", percent_text(t.as_number()), r.to_string()) : t.to_string();
  WithinOperands x{std::move(a), std::move(t), std::move(r), relative, std::move(tol_text)};
  if (x.value.is(ValueKind::samples) || x.reference.is(ValueKind::samples)) return decide_sample_within(*this, w, x, e, env);
  return decide_number_within(*this, w, x, e, env);
}

}  // namespace rubric
