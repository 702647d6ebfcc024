// A comparison condition (`==`, `!=`, `<`, `<=`, `>`, `>=`): its operands shown decomposed (as
// doctest and Catch2 do), decided statistically when a side is samples.
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <tuple>

#include "interpreter/evaluator.hpp"
#include "interpreter/sample_decision.hpp"
#include "interpreter/units.hpp"
#include "interpreter/verdicts.hpp"
#include "grammar/ast_print.hpp"

namespace rubric {

namespace {

bool is_arith(ast::BinaryOp op) {
  return op == ast::BinaryOp::add || op == ast::BinaryOp::sub || op == ast::BinaryOp::mul || op == ast::BinaryOp::div;
}

const char* arith_symbol(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::add: return "+";
    case ast::BinaryOp::sub: return "-";
    case ast::BinaryOp::mul: return "\xC3\x97";  // ×
    default: return "/";
  }
}

struct Operand {
  Value value;
  std::string decomposition;  // "(0.95 × 12400 tok/s)" or empty
};

Operand eval_operand(Evaluator& ev, const ast::Expr& e, const EnvPtr& env) {
  if (auto* b = std::get_if<ast::Binary>(&e.node)) {
    if (is_arith(b->op)) {
      Value l = ev.eval(*b->lhs, env);
      Value r = ev.eval(*b->rhs, env);
      Value v = ev.apply_binary(b->op, l, r, e, env);
      if (v.is_error() || l.is_error() || r.is_error()) return {v, ""};
      // Samples show their median, as the comparison of medians reads ("(1.1 × 360.5 µs)").
      auto show = [](const Value& x) {
        return x.is(ValueKind::samples) ? format_quantity(x.as_samples().point_estimate(), x.as_samples().dim()) : x.to_string();
      };
      return {v, fmt::format("({} {} {})", show(l), arith_symbol(b->op), show(r))};
    }
  }
  return {ev.eval(e, env), ""};
}

// An operand's text with its decomposition after it: "12400 tok/s (0.95 × 13052.6 tok/s)".
std::string with_decomposition(std::string text, const Operand& x) {
  return x.decomposition.empty() ? text : text + " " + x.decomposition;
}

// An ordering with samples on a side: decided on the sides' medians, statistically.
CheckOutcome decide_sample_ordering(Evaluator& ev, const ast::Binary& b, const Operand& l, const Operand& r,
                                    const ast::Expr& e, const EnvPtr& env) {
  bool lnum = l.value.is(ValueKind::number) || l.value.is(ValueKind::samples);
  bool rnum = r.value.is(ValueKind::number) || r.value.is(ValueKind::samples);
  if (!lnum || !rnum || dimension_of(l.value) != dimension_of(r.value)) {
    Value v = ev.apply_binary(b.op, l.value, r.value, e, env);
    return outcome_of_error(v.is_error() ? v : ev.error_at(e, env, "cannot compare these values"));
  }
  if (auto few = too_few_samples(l.value, ev.source_text(*b.lhs, env))) return *few;
  if (auto few = too_few_samples(r.value, ev.source_text(*b.rhs, env))) return *few;
  StatQuestion q;
  bool at_least = b.op == ast::BinaryOp::ge || b.op == ast::BinaryOp::gt;
  const bool strict = b.op == ast::BinaryOp::gt || b.op == ast::BinaryOp::lt;
  q.dim = dimension_of(l.value);
  if (!r.value.is(ValueKind::samples)) {
    q.quantity = l.value.as_samples().expr;
    q.bound = r.value.as_number();
    q.what = ev.source_text(*b.lhs, env);
    q.bound_text = with_decomposition(r.value.to_string(), r);
  } else if (!l.value.is(ValueKind::samples)) {
    q.quantity = r.value.as_samples().expr;
    q.bound = l.value.as_number();
    at_least = !at_least;
    q.what = ev.source_text(*b.rhs, env);
    q.bound_text = with_decomposition(l.value.to_string(), l);
  } else {
    auto diff = std::make_shared<SampleExpr>();
    diff->op = SampleExpr::Op::sub;
    diff->lhs = l.value.as_samples().expr;
    diff->rhs = r.value.as_samples().expr;
    diff->dim = q.dim;
    q.quantity = diff;
    // Decided on the difference of the sides; the line before it shows the sides themselves.
    q.what = "left side - right side";
    q.bound_text = format_quantity(0, q.dim);
    auto median_of = [&](const Operand& x) {
      return with_decomposition(format_quantity(x.value.as_samples().point_estimate(), q.dim), x);
    };
    q.in_terms = fmt::format("{} {} {}, medians", median_of(l), ast::op_text(b.op), median_of(r));
  }
  q.side = strict ? (at_least ? stats::PassingSide::Above : stats::PassingSide::Below)
                  : (at_least ? stats::PassingSide::AtLeast : stats::PassingSide::AtMost);
  return decide_statistically(q, ev.confidence(), mix_seed(ev.seed(), ev.location_of(e, env)));
}

// A null where a value belongs (an exit code of a program that was killed, an optional key
// written as null): the explanation says which side is null before anything else.
CheckOutcome null_comparison(Evaluator& ev, const ast::Binary& b, const Operand& l, const Operand& r, const EnvPtr& env) {
  const char* op = ast::op_text(b.op);
  const bool left_null = l.value.is_null();
  const Value& null_side = left_null ? l.value : r.value;
  const Value& other = left_null ? r.value : l.value;
  std::string what = ev.source_text(left_null ? *b.lhs : *b.rhs, env);
  std::string expl = fmt::format("{} is null, not a {}", what.empty() ? "a side" : what, other.kind_name());
  if (b.op != ast::BinaryOp::eq && b.op != ast::BinaryOp::ne) {
    CheckOutcome o = unusable_operand(null_side.from_submission() || other.from_submission(), expl);
    o.evidence.push_back(fmt::format("{} {} {}", l.value.repr(), op, r.value.repr()));
    o.null_operand = true;
    return o;
  }
  bool passed = (b.op == ast::BinaryOp::ne);
  CheckOutcome o = comparison_outcome(passed, {fmt::format("{} {} {}", l.value.repr(), op, r.value.repr())}, passed ? "holds" : expl);
  o.null_operand = !passed;
  return o;
}

// Two values compared as the operator says, the line showing both sides and how far apart.
CheckOutcome value_comparison(Evaluator& ev, const ast::Binary& b, const Operand& l, const Operand& r, const ast::Expr& e,
                              const EnvPtr& env) {
  const char* op = ast::op_text(b.op);
  const bool ordering = b.op != ast::BinaryOp::eq && b.op != ast::BinaryOp::ne;
  Value v = ev.apply_binary(b.op, l.value, r.value, e, env);
  if (v.is_error()) return outcome_of_error(v);
  bool passed = v.as_bool();
  const bool numbers = l.value.is(ValueKind::number) && r.value.is(ValueKind::number);
  if (numbers && l.value.as_quantity().dim != r.value.as_quantity().dim && (l.value.claimed() || r.value.claimed()))
    return comparison_outcome(passed, {fmt::format("{} {} {}: a claim of another dimension", l.value.repr(), op, r.value.repr())},
                              "not comparable: a claim of another unit");
  // Two numbers are shown in one unit and one notation, with the digits that tell them apart.
  std::string ls = l.value.repr(), rs = r.value.repr();
  if (numbers && l.value.as_quantity().dim == r.value.as_quantity().dim)
    std::tie(ls, rs) = format_quantity_pair(l.value.as_number(), r.value.as_number(), l.value.as_quantity().dim);
  // A fraction compared with a percentage the rubric wrote reads as percentages.
  if (numbers && (l.value.percent() || r.value.percent()) && l.value.as_quantity().dim.dimensionless() &&
      r.value.as_quantity().dim.dimensionless()) {
    auto percent = [](double f) { return fmt::format("{:.6g}%", f * 100); };
    ls = percent(l.value.as_number());
    rs = percent(r.value.as_number());
  }
  std::string line = fmt::format("{} {} {}", with_decomposition(ls, l), op, with_decomposition(rs, r));
  std::string expl;
  if (numbers && std::isfinite(l.value.as_number()) && std::isfinite(r.value.as_number())) {
    double x = l.value.as_number(), y = r.value.as_number();
    double rel = y != 0 ? (x - y) / std::fabs(y) : 0;
    if (ordering && y != 0 && x != y) {
      bool above = x > y;
      std::string how = above ? percent_text(rel) + (passed ? " above" : " over") : percent_text(rel) + (passed ? " below" : " short");
      line += ": " + how;
      expl = fmt::format("{} is {}{} {}", ls, how, above || passed ? "" : " of", rs);
    } else if (!ordering && !passed) {
      expl = fmt::format("they differ by {}", format_quantity(std::fabs(x - y), l.value.as_quantity().dim));
    }
  } else if (b.op == ast::BinaryOp::eq && !passed) {
    if (auto d = first_difference(l.value, r.value)) expl = *d;
  }
  if (expl.empty()) expl = passed ? "holds" : "does not hold";
  return comparison_outcome(passed, {line}, expl);
}

}  // namespace

CheckOutcome Evaluator::decide_comparison(const ast::Binary& b, const ast::Expr& e, const EnvPtr& env) {
  Operand l = eval_operand(*this, *b.lhs, env);
  Operand r = eval_operand(*this, *b.rhs, env);
  if (l.value.is_error()) return outcome_of_error(l.value);
  if (r.value.is_error()) return outcome_of_error(r.value);
  const bool ordering = b.op != ast::BinaryOp::eq && b.op != ast::BinaryOp::ne;
  if (ordering && (l.value.is(ValueKind::samples) || r.value.is(ValueKind::samples)))
    return decide_sample_ordering(*this, b, l, r, e, env);
  if (l.value.is_null() != r.value.is_null()) return null_comparison(*this, b, l, r, env);
  return value_comparison(*this, b, l, r, e, env);
}

}  // namespace rubric
