// `value matches reference`: numbers, flat lists of numbers elementwise, or tensors (through the
// tensor family's hook), close within an rtol/atol or ULP tolerance.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>

#include "interpreter/evaluator.hpp"
#include "interpreter/units.hpp"
#include "interpreter/verdicts.hpp"
#include "operators/numerics/tolerance.hpp"

namespace rubric {

namespace {

std::uint64_t ulp_distance(double a, double b) {
  auto ordered = [](double x) {
    std::int64_t i;
    std::memcpy(&i, &x, sizeof i);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  std::int64_t ia = ordered(a), ib = ordered(b);
  return ia > ib ? std::uint64_t(ia) - std::uint64_t(ib) : std::uint64_t(ib) - std::uint64_t(ia);
}

// How far apart the elements are: how many are not close, and the greatest difference.
struct Closeness {
  std::size_t bad = 0, worst_i = 0;
  double worst_abs = -1;
};

// Whether x is close to the reference y under the tolerance (NaN is never close; infinities only
// to themselves).
bool is_close(double x, double y, const MatchTolerance& tol, double rtol, double atol) {
  if (tol.form == ast::ToleranceForm::ulp) {
    std::uint64_t u = std::isfinite(x) && std::isfinite(y) ? ulp_distance(x, y) : UINT64_MAX;
    return !std::isnan(x) && !std::isnan(y) && (x == y || u <= static_cast<std::uint64_t>(tol.ulp));
  }
  if (std::isnan(x) || std::isnan(y)) return false;
  if (std::isinf(x) || std::isinf(y)) return x == y;
  return std::fabs(x - y) <= atol + rtol * std::fabs(y);
}

// A tolerance of `matches` (both, ulp, rtol or atol): a plain number, finite and 0 or more. A bad
// one is an error outcome, never a verdict; nullopt when `x` is absent or good (then in `out`).
std::optional<CheckOutcome> tolerance_part(Evaluator& ev, const ast::ExprPtr& x, const EnvPtr& env, double& out) {
  if (!x) return std::nullopt;
  Value v = ev.eval(*x, env);
  if (v.is_error()) return outcome_of_error(v);
  if (!v.is(ValueKind::number) || !v.as_quantity().dim.dimensionless())
    return outcome_of_error(ev.error_at(*x, env, fmt::format("a 'matches' tolerance must be a plain number, got {}{}", v.repr(5),
                                                             ev.candidate_value_note(v, x.get(), env, false)),
                                        owner_of(v)));
  // A negative bound admits nothing, a NaN decides nothing and an infinite one admits every
  // finite answer: a bad tolerance, never a verdict.
  if (!numerics::is_tolerance_bound(v.as_number()))
    return outcome_of_error(ev.error_at(*x, env, fmt::format("a 'matches' tolerance must be a finite number, 0 or more, got {}{}", v.repr(5),
                                                             ev.candidate_value_note(v, x.get(), env, false)),
                                        owner_of(v)));
  out = v.as_number();
  return std::nullopt;
}

// Numbers, or flat lists of numbers, elementwise; the evidence in NumPy's words for lists.
CheckOutcome match_numbers(Evaluator& ev, const ast::Matches& m, const Value& a, const Value& r, const MatchTolerance& tol,
                           const ast::Expr& e, const EnvPtr& env) {
  std::vector<Value> xs, ys;
  if (a.is(ValueKind::list) && r.is(ValueKind::list)) {
    xs = a.as_list();
    ys = r.as_list();
    if (xs.size() != ys.size())
      return comparison_outcome(false, {fmt::format("lengths differ: {} vs {}", xs.size(), ys.size())}, "shapes differ (no broadcasting)");
  } else {
    xs = {a};
    ys = {r};
  }
  double rtol = 1e-7, atol = 1e-7;
  if (tol.form == ast::ToleranceForm::both) rtol = atol = tol.both;
  if (tol.form == ast::ToleranceForm::explicit_rtol_atol) {
    rtol = tol.rtol.value_or(0);
    atol = tol.atol.value_or(0);
  }
  Closeness c;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].is_error()) return outcome_of_error(xs[i]);
    if (!xs[i].is(ValueKind::number) || !ys[i].is(ValueKind::number))
      return outcome_of_error(ev.error_at(e, env, fmt::format("'matches' compares numbers or tensors, got a {} and a {}{}", xs[i].kind_name(),
                                                              ys[i].kind_name(),
                                                              !xs[i].is(ValueKind::number)
                                                                  ? ev.candidate_value_note(xs[i], xs.size() == 1 ? m.value.get() : nullptr, env)
                                                                  : ev.candidate_value_note(ys[i], ys.size() == 1 ? m.reference.get() : nullptr, env)),
                                          owner_of(!xs[i].is(ValueKind::number) ? xs[i] : ys[i])));
    if (xs[i].as_quantity().dim != ys[i].as_quantity().dim)
      return outcome_of_error(ev.error_at(e, env, fmt::format("'matches' of {} and {}: the dimensions differ", xs[i].to_string(), ys[i].to_string())));
    double x = xs[i].as_number(), y = ys[i].as_number();
    double d = std::fabs(x - y);
    if (!is_close(x, y, tol, rtol, atol)) ++c.bad;
    if (std::isnan(d) || d > c.worst_abs) {
      c.worst_abs = std::isnan(d) ? INFINITY : d;
      c.worst_i = i;
    }
  }
  bool passed = c.bad == 0;
  std::vector<std::string> evidence;
  std::string allowed = tol.form == ast::ToleranceForm::ulp ? fmt::format("{} ulp", format_number(tol.ulp))
                                                            : fmt::format("{} + {}·|ref|", format_number(atol, 17), format_number(rtol, 17));
  if (xs.size() == 1) {
    evidence.push_back(fmt::format("{} vs reference {}: difference {} (up to {} allowed)", xs[0].to_string(), ys[0].to_string(),
                             format_quantity(std::fabs(xs[0].as_number() - ys[0].as_number()), xs[0].as_quantity().dim), allowed));
  } else {
    evidence.push_back(fmt::format("Mismatched elements: {} / {} ({})", c.bad, xs.size(),
                             percent_text(double(c.bad) / std::max<std::size_t>(1, xs.size()))));
    if (!xs.empty())
      evidence.push_back(fmt::format("Greatest absolute difference: {} at ({}) (up to {} allowed)", format_number(c.worst_abs), c.worst_i,
                               allowed));
  }
  return comparison_outcome(passed, evidence, passed ? "close within the tolerance" : fmt::format("{} of {} not close", c.bad, xs.size()));
}

}  // namespace

CheckOutcome Evaluator::decide_matches(const ast::Matches& m, const ast::Expr& e, const EnvPtr& env) {
  Value a = eval(*m.value, env), r = eval(*m.reference, env);
  if (a.is_error()) return outcome_of_error(a);
  if (r.is_error()) return outcome_of_error(r);
  if (auto held = a.held_error()) return outcome_of_error(*held);
  if (auto held = r.held_error()) return outcome_of_error(*held);
  MatchTolerance tol;
  tol.form = m.form;
  double rt = 0, at = 0;
  if (auto o = tolerance_part(*this, m.both, env, tol.both)) return *o;
  if (auto o = tolerance_part(*this, m.ulp, env, tol.ulp)) return *o;
  if (m.rtol) {
    if (auto o = tolerance_part(*this, m.rtol, env, rt)) return *o;
    tol.rtol = rt;
  }
  if (m.atol) {
    if (auto o = tolerance_part(*this, m.atol, env, at)) return *o;
    tol.atol = at;
  }
  if (a.is(ValueKind::tensor) || r.is(ValueKind::tensor)) {
    if (auto o = try_matches_hooks(a, r, tol, e, env)) return *o;
    return outcome_of_error(error_at(e, env, "tensor comparison is not available in this build (the tensor family is not bound)"));
  }
  return match_numbers(*this, m, a, r, tol, e, env);
}

}  // namespace rubric
