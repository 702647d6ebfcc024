#include "interpreter/verdicts.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace rubric {

// ---- conditions ----

Truth truth_of(const CheckOutcome& o) {
  switch (o.verdict) {
    case Verdict::pass: return Truth::decided_true;
    case Verdict::fail: return o.decided ? Truth::decided_false : Truth::submission_failure;
    case Verdict::error: return Truth::error;
    case Verdict::skip: return Truth::skipped;
    case Verdict::inconclusive: return Truth::inconclusive;
  }
  return Truth::error;
}

Truth truth_of(const ErrorInfo& e) {
  if (e.blame == Blame::submission) return Truth::submission_failure;
  if (e.verdict == Verdict::inconclusive) return Truth::inconclusive;
  if (e.verdict == Verdict::skip) return Truth::skipped;
  return Truth::error;
}

std::optional<Truth> truth_of(const Value& v) {
  if (v.is_error()) return truth_of(v.as_error());
  if (v.is(ValueKind::boolean)) return v.as_bool() ? Truth::decided_true : Truth::decided_false;
  return std::nullopt;
}

bool is_decided(Truth t) { return t == Truth::decided_true || t == Truth::decided_false; }

int undecided_rank(Truth t) {
  switch (t) {
    case Truth::error: return 3;
    case Truth::submission_failure: return 2;
    case Truth::inconclusive: return 1;
    case Truth::skipped: return 0;
    default: return -1;
  }
}

const Value& stronger_undecided(const Value& a, const Value& b) {
  return undecided_rank(truth_of(b.as_error())) > undecided_rank(truth_of(a.as_error())) ? b : a;
}

namespace {
Truth absorbing(Connective c) { return c == Connective::all ? Truth::decided_false : Truth::decided_true; }
Truth identity(Connective c) { return c == Connective::all ? Truth::decided_true : Truth::decided_false; }
}  // namespace

bool settles(Truth side, Connective c) { return side == absorbing(c) || undecided_rank(side) >= 2; }

DecidingSide deciding_side(Truth left, Truth right, Connective c) {
  if (settles(left, c)) return DecidingSide::left;
  if (settles(right, c)) return DecidingSide::right;
  if (undecided_rank(left) >= 0 || undecided_rank(right) >= 0)
    return undecided_rank(right) > undecided_rank(left) ? DecidingSide::right : DecidingSide::left;
  return DecidingSide::identity;
}

Truth combine(Truth left, Truth right, Connective c) {
  switch (deciding_side(left, right, c)) {
    case DecidingSide::left: return left;
    case DecidingSide::right: return right;
    case DecidingSide::identity: break;
  }
  return identity(c);
}

Truth negate(Truth t) {
  if (t == Truth::decided_true) return Truth::decided_false;
  if (t == Truth::decided_false) return Truth::decided_true;
  return t;
}

CheckOutcome comparison_outcome(bool passed, std::vector<std::string> evidence, std::string explanation) {
  CheckOutcome o;
  o.verdict = passed ? Verdict::pass : Verdict::fail;
  o.blame = passed ? Blame::none : Blame::submission;
  o.evidence = std::move(evidence);
  o.explanation = std::move(explanation);
  return o;
}

CheckOutcome negated(CheckOutcome inner) {
  const Truth t = truth_of(inner);
  if (is_decided(t)) {
    inner.verdict = t == Truth::decided_true ? Verdict::fail : Verdict::pass;
    inner.blame = inner.verdict == Verdict::fail ? Blame::submission : Blame::none;
  }
  return inner;
}

CheckOutcome identity_outcome(Connective c) {
  const bool all = c == Connective::all;
  return comparison_outcome(all, {}, all ? "both sides hold" : "neither side holds");
}

CheckOutcome outcome_of_error(const Value& v) {
  const ErrorInfo& info = v.as_error();
  CheckOutcome o;
  o.decided = false;
  if (info.blame == Blame::submission) {
    o.verdict = Verdict::fail;
    o.blame = Blame::submission;
  } else {
    o.verdict = info.verdict == Verdict::skip || info.verdict == Verdict::inconclusive ? info.verdict : Verdict::error;
    o.blame = info.blame == Blame::none && o.verdict == Verdict::error ? Blame::rubric : info.blame;
  }
  std::string where = error_location_text(info.location);
  o.explanation = where.empty() ? info.message : fmt::format("{} ({})", info.message, where);
  return o;
}

CheckOutcome unusable_operand(bool from_submission, std::string explanation) {
  CheckOutcome o;
  o.decided = false;
  o.blame = from_submission ? Blame::submission : Blame::rubric;
  o.verdict = from_submission ? Verdict::fail : Verdict::error;
  o.explanation = std::move(explanation);
  return o;
}

CheckOutcome statistical_outcome(Verdict answer) {
  CheckOutcome o;
  o.verdict = answer;
  o.blame = answer == Verdict::fail ? Blame::submission : answer == Verdict::error ? Blame::rubric : Blame::none;
  o.decided = answer == Verdict::pass || answer == Verdict::fail;
  return o;
}

Verdict both_margins(Verdict upper, Verdict lower) {
  if (upper == Verdict::fail || lower == Verdict::fail) return Verdict::fail;
  return worst(upper, lower);
}

Value value_of_outcome(const CheckOutcome& o) {
  if (o.decided && (o.verdict == Verdict::pass || o.verdict == Verdict::fail)) return Value::boolean(o.verdict == Verdict::pass);
  if (o.verdict == Verdict::fail) return Value::error(o.explanation, Blame::submission);
  return Value::undecided(o.explanation, o.verdict, o.blame);
}

// ---- criteria and groups ----

std::optional<NotEvaluated> after_rule(const std::vector<std::pair<std::string, std::optional<Verdict>>>& dependencies) {
  for (const auto& [id, v] : dependencies)
    if (v == Verdict::fail) return NotEvaluated{Verdict::fail, fmt::format("not evaluated: {} did not pass", id)};
  for (const auto& [id, v] : dependencies) {
    const Verdict dv = v.value_or(Verdict::skip);
    if (dv == Verdict::pass) continue;
    const char* how = dv == Verdict::skip ? "was skipped" : dv == Verdict::inconclusive ? "was inconclusive" : "ended in ERROR";
    return NotEvaluated{Verdict::skip, fmt::format("not evaluated: {} {}", id, how)};
  }
  return std::nullopt;
}

Verdict criterion_verdict(const std::vector<CheckResult>& checks, const std::size_t (&omitted)[5]) {
  Verdict v = Verdict::pass;
  for (const auto& c : checks) v = worst(v, c.verdict);
  for (int k = 0; k < 5; ++k)
    if (omitted[k]) v = worst(v, static_cast<Verdict>(k));
  return v;
}

bool skipped_for_device(Verdict evaluated, bool submission_operation_failed) {
  return !(evaluated == Verdict::fail && submission_operation_failed);
}

std::optional<double> criterion_score(Verdict v, std::optional<double> scored, bool not_evaluated) {
  if (v == Verdict::pass) return scored.value_or(1.0);
  if (v == Verdict::fail) return scored && !not_evaluated ? *scored : 0.0;
  return std::nullopt;
}

bool penalty_deducted(Verdict v, std::size_t decided_against) { return v == Verdict::fail && decided_against > 0; }

Verdict group_verdict(const std::vector<CriterionResult>& children) {
  Verdict v = Verdict::pass;
  for (const auto& ch : children) v = worst(v, ch.verdict);
  return v;
}

std::optional<double> combined_score(const std::vector<CriterionResult>& children) {
  double sum_w = 0, sum_ws = 0, penalties = 0;
  bool decided = false;
  for (const auto& c : children) {
    if (c.penalty) {
      if (c.deducted) penalties += *c.penalty;
      continue;
    }
    if (!c.score) continue;
    decided = true;
    sum_w += c.weight;
    sum_ws += c.weight * *c.score;
  }
  if (!decided || sum_w <= 0) return std::nullopt;
  return std::clamp((sum_ws - penalties) / sum_w, 0.0, 1.0);
}

namespace {

struct Tally {
  bool error = false, required_failed = false, undecided = false;
};

void tally(const std::vector<CriterionResult>& cs, Tally& t) {
  for (const auto& c : cs) {
    if (c.is_group) {
      tally(c.children, t);
      if (c.required && c.verdict == Verdict::fail) t.required_failed = true;
      continue;
    }
    if (c.verdict == Verdict::error) t.error = true;
    if (c.verdict == Verdict::fail && c.required) t.required_failed = true;
    if (c.verdict == Verdict::skip || c.verdict == Verdict::inconclusive) t.undecided = true;
  }
}

}  // namespace

OverallVerdict overall_verdict(const std::vector<CriterionResult>& criteria, std::optional<double> score, double pass_mark) {
  Tally t;
  tally(criteria, t);
  if (t.error) return OverallVerdict::error;
  if (t.required_failed) return OverallVerdict::fail;
  if (score && *score < pass_mark - 1e-12) return OverallVerdict::fail;
  if (t.undecided || !score) return OverallVerdict::incomplete;
  return OverallVerdict::pass;
}

}  // namespace rubric
