// Conditions of `expect`: decided into PASS / FAIL / ERROR / INCONCLUSIVE with evidence that
// shows the operands decomposed (as doctest and Catch2 do), statistically for samples. `decide`
// tells the kinds of condition apart; `not`, `and`, `or` and a plain bool are decided here, each
// other kind in its own file: evaluator_comparison.cpp, evaluator_within.cpp,
// evaluator_matches.cpp, evaluator_mentions.cpp, evaluator_text.cpp (affirms, denies, claims).
#include <fmt/format.h>
#include <utility>

#include "interpreter/evaluator.hpp"
#include "interpreter/review_marks.hpp"
#include "interpreter/verdicts.hpp"

namespace rubric {

namespace {

bool is_comparison(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::eq:
    case ast::BinaryOp::ne:
    case ast::BinaryOp::lt:
    case ast::BinaryOp::le:
    case ast::BinaryOp::gt:
    case ast::BinaryOp::ge: return true;
    default: return false;
  }
}

}  // namespace

CheckOutcome Evaluator::decide(const ast::Expr& e, const EnvPtr& env) {
  count_step();
  if (auto* u = std::get_if<ast::Unary>(&e.node); u && u->op == ast::UnaryOp::logical_not) return decide_not(*u, env);
  // A block's value is decided in the block's scope, with the evidence of its comparison.
  if (auto* blk = std::get_if<ast::BlockExpr>(&e.node)) return decide(*blk->value, bind_block_lets(*blk, env));
  if (auto* b = std::get_if<ast::Binary>(&e.node)) {
    if (b->op == ast::BinaryOp::logical_and || b->op == ast::BinaryOp::logical_or) return decide_connective(*b, env);
    if (is_comparison(b->op)) return decide_comparison(*b, e, env);
  }
  if (auto* w = std::get_if<ast::Within>(&e.node)) return decide_within(*w, e, env);
  if (auto* m = std::get_if<ast::Matches>(&e.node)) return decide_matches(*m, e, env);
  if (auto* mt = std::get_if<ast::Mentions>(&e.node))
    return mt->verb == ast::MentionVerb::mentions ? decide_mentions(*mt, env) : decide_polarity(*mt, e, env);
  if (auto o = decide_over_claims(e, env)) return *o;
  return decide_truth(e, env);
}

// `not`, `and`, `or` follow the blame algebra (docs/semantics.md): only a decided comparison is
// negated; a failure of submission data, a rubric error, a skip or an inconclusive result is
// never turned into a PASS.
CheckOutcome Evaluator::decide_not(const ast::Unary& u, const EnvPtr& env) {
  CheckOutcome inner = decide(*u.operand, env);
  CheckOutcome o = negated(inner);
  const Truth t = truth_of(inner);
  o.evidence.clear();
  std::string inner_text = source_text(*u.operand, env);
  if (inner_text.size() >= 2 && inner_text.front() == '(' && inner_text.back() == ')')
    inner_text = inner_text.substr(1, inner_text.size() - 2);
  if (inner.decided)
    o.evidence.push_back(fmt::format("not: {} was {}", inner_text, verdict_name(inner.verdict)));
  else
    o.evidence.push_back(fmt::format("not: {} was not decided ({}), so it is not negated", inner_text, verdict_name(inner.verdict)));
  for (const auto& line : inner.evidence) o.evidence.push_back("  " + line);
  if (t == Truth::decided_true) o.explanation = fmt::format("'{}' holds, and must not", inner_text);
  else if (t == Truth::decided_false) o.explanation = fmt::format("'{}' does not hold, as required", inner_text);
  return o;
}

// `and` / `or`: all / any of two sides by the blame algebra, with each side's evidence and the
// review marks of the sides the whole rests on.
CheckOutcome Evaluator::decide_connective(const ast::Binary& b, const EnvPtr& env) {
  const bool is_and = b.op == ast::BinaryOp::logical_and;
  // Left to right; a side that settles the whole leaves the right unevaluated (verdicts.hpp).
  const Connective connective = is_and ? Connective::all : Connective::any;
  auto sub = [&](const char* side, const ast::Expr& x, const CheckOutcome& r, std::vector<std::string>& out) {
    out.push_back(fmt::format("{}: {} was {}{}", side, source_text(x, env), verdict_name(r.verdict),
                              r.decided ? "" : " (not decided)"));
    for (const auto& line : r.evidence) out.push_back("  " + line);
  };
  // Each side's review marks are gathered apart: the whole keeps only those it rests on, so a
  // side that holds clearly in an `or` is not marked for the other side's doubtful reading.
  std::vector<std::string> outer = std::exchange(reviews_, {});
  std::vector<ReviewedPart> parts;
  bool all_decided = true;
  auto side_reviews = [&](const CheckOutcome& x) {
    const Truth t = truth_of(x);
    all_decided = all_decided && is_decided(t);
    parts.push_back({t == Truth::decided_true, std::exchange(reviews_, {})});
  };
  CheckOutcome l = decide(*b.lhs, env);
  side_reviews(l);
  CheckOutcome o;
  sub("left", *b.lhs, l, o.evidence);
  auto finish = [&]() {
    std::vector<std::string> kept;
    if (all_decided) kept = deciding_reasons(parts, !is_and);
    else
      for (auto& p : parts) kept.insert(kept.end(), p.reasons.begin(), p.reasons.end());
    reviews_ = std::move(outer);
    for (const auto& reason : kept) note_review(reason);
    return o;
  };
  auto settled_by = [&](const CheckOutcome& x, const char* side) {
    o.verdict = x.verdict;
    o.blame = x.blame;
    o.decided = x.decided;
    o.explanation = x.explanation.empty() ? fmt::format("the {} side was {}", side, verdict_name(x.verdict)) : x.explanation;
    if (x.verdict == Verdict::pass) o.explanation = fmt::format("the {} side holds", side);
    return finish();
  };
  const Truth lt = truth_of(l);
  if (settles(lt, connective)) return settled_by(l, "left");
  CheckOutcome r = decide(*b.rhs, env);
  side_reviews(r);
  sub("right", *b.rhs, r, o.evidence);
  switch (deciding_side(lt, truth_of(r), connective)) {
    case DecidingSide::left: return settled_by(l, "left");
    case DecidingSide::right: return settled_by(r, "right");
    case DecidingSide::identity: break;
  }
  CheckOutcome both = identity_outcome(connective);
  o.verdict = both.verdict;
  o.blame = both.blame;
  o.decided = true;
  o.explanation = both.explanation;
  return finish();
}

// Any other condition is an expression that must be a bool.
CheckOutcome Evaluator::decide_truth(const ast::Expr& e, const EnvPtr& env) {
  Value v = eval(e, env);
  if (v.is_error()) return outcome_of_error(v);
  if (!v.is(ValueKind::boolean))
    return unusable_operand(v.from_submission(), fmt::format("an expect needs a bool, got a {} ({}) ({})", v.kind_name(), v.repr(5),
                                                             error_location_text(error_location(e, env))));
  if (v.as_bool()) return comparison_outcome(true, {}, "holds");
  return comparison_outcome(false, {fmt::format("{} is false", source_text(e, env))}, "does not hold");
}

}  // namespace rubric
