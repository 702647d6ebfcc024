// The verdict rules of interpreter/verdicts.hpp, each against its table in docs/semantics.md
// ("Blame algebra" and "Criteria, scores, verdicts"). States are letters as the docs write them:
// T decided true, F decided false, D a failure of submission data, E an error, S skipped,
// I inconclusive. tests/interpreter/test_blame_algebra.cpp checks the same tables end to end.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "interpreter/verdicts.hpp"

using namespace rubric;

namespace {

const std::string kStates = "TFDESI";

Truth state(char c) {
  switch (c) {
    case 'T': return Truth::decided_true;
    case 'F': return Truth::decided_false;
    case 'D': return Truth::submission_failure;
    case 'E': return Truth::error;
    case 'S': return Truth::skipped;
    default: return Truth::inconclusive;
  }
}

char letter(Truth t) { return kStates[static_cast<std::size_t>(t)]; }

// One row of a connective's table: the left operand `l` against each right operand T F D E S I.
std::string row(char l, Connective c) {
  std::string out;
  for (char r : kStates) out += letter(combine(state(l), state(r), c));
  return out;
}

// A check outcome in each state, as the evaluator makes them.
CheckOutcome outcome_in(char c) {
  switch (c) {
    case 'T': return comparison_outcome(true, {}, "holds");
    case 'F': return comparison_outcome(false, {}, "does not hold");
    case 'D': return unusable_operand(true, "submission/result.json: no such file");
    case 'E': return unusable_operand(false, "reference/result.json: no such file");
    case 'S': return outcome_of_error(Value::undecided("no usable CUDA device", Verdict::skip, Blame::grader_environment));
    default: return statistical_outcome(Verdict::inconclusive);
  }
}

CriterionResult criterion(const char* id, Verdict v, std::optional<double> score, double weight = 1) {
  CriterionResult c;
  c.id = id;
  c.verdict = v;
  c.score = score;
  c.weight = weight;
  return c;
}

}  // namespace

TEST_CASE("the states of a check outcome and of a value") {
  for (char c : kStates) CHECK(letter(truth_of(outcome_in(c))) == c);
  CHECK(truth_of(Value::boolean(true)) == Truth::decided_true);
  CHECK(truth_of(Value::boolean(false)) == Truth::decided_false);
  CHECK(truth_of(Value::error("missing", Blame::submission)) == Truth::submission_failure);
  CHECK(truth_of(Value::error("bad rubric", Blame::rubric)) == Truth::error);
  CHECK(truth_of(Value::undecided("no GPU", Verdict::skip, Blame::grader_environment)) == Truth::skipped);
  CHECK(truth_of(Value::undecided("straddles", Verdict::inconclusive, Blame::none)) == Truth::inconclusive);
  CHECK_FALSE(truth_of(Value::number(1)).has_value());
  // Strength of an undecided state: E over D over I over S; decided states have none.
  CHECK(undecided_rank(Truth::error) > undecided_rank(Truth::submission_failure));
  CHECK(undecided_rank(Truth::submission_failure) > undecided_rank(Truth::inconclusive));
  CHECK(undecided_rank(Truth::inconclusive) > undecided_rank(Truth::skipped));
  CHECK(undecided_rank(Truth::decided_true) < 0);
}

TEST_CASE("`and` follows the table of docs/semantics.md") {
  //                    T   F   D   E   S   I   (right)
  CHECK(row('T', Connective::all) == "TFDESI");
  CHECK(row('F', Connective::all) == "FFFFFF");
  CHECK(row('D', Connective::all) == "DDDDDD");
  CHECK(row('E', Connective::all) == "EEEEEE");
  CHECK(row('S', Connective::all) == "SFDESI");
  CHECK(row('I', Connective::all) == "IFDEII");
}

TEST_CASE("`or` follows the table of docs/semantics.md") {
  CHECK(row('T', Connective::any) == "TTTTTT");
  CHECK(row('F', Connective::any) == "TFDESI");
  CHECK(row('D', Connective::any) == "DDDDDD");
  CHECK(row('E', Connective::any) == "EEEEEE");
  CHECK(row('S', Connective::any) == "TSDESI");
  CHECK(row('I', Connective::any) == "TIDEII");
}

TEST_CASE("a left side that settles leaves the right unevaluated; ties go to the left") {
  // D, E and the absorbing value settle; T, S and I under `and` do not.
  CHECK(std::string("FDE") == [] {
    std::string s;
    for (char c : kStates)
      if (settles(state(c), Connective::all)) s += c;
    return s;
  }());
  CHECK(std::string("TDE") == [] {
    std::string s;
    for (char c : kStates)
      if (settles(state(c), Connective::any)) s += c;
    return s;
  }());
  CHECK(deciding_side(Truth::skipped, Truth::skipped, Connective::all) == DecidingSide::left);
  CHECK(deciding_side(Truth::skipped, Truth::inconclusive, Connective::all) == DecidingSide::right);
  CHECK(deciding_side(Truth::decided_true, Truth::decided_true, Connective::all) == DecidingSide::identity);
  CHECK(deciding_side(Truth::decided_false, Truth::decided_false, Connective::any) == DecidingSide::identity);
  CHECK(identity_outcome(Connective::all).verdict == Verdict::pass);
  CHECK(identity_outcome(Connective::any).verdict == Verdict::fail);
  CHECK(identity_outcome(Connective::any).blame == Blame::submission);
  // Of two undecided values the stronger is kept, the first on a tie.
  Value skip1 = Value::undecided("a", Verdict::skip, Blame::grader_environment);
  Value skip2 = Value::undecided("b", Verdict::skip, Blame::grader_environment);
  Value missing = Value::error("c", Blame::submission);
  CHECK(stronger_undecided(skip1, skip2).as_error().message == "a");
  CHECK(stronger_undecided(skip1, missing).as_error().message == "c");
}

TEST_CASE("`not` negates only a decided comparison") {
  //           T    F    D    E    S    I
  const std::string expected = "FTDESI";
  for (std::size_t i = 0; i < kStates.size(); ++i) {
    CAPTURE(kStates[i]);
    CHECK(letter(negate(state(kStates[i]))) == expected[i]);
    CHECK(letter(truth_of(negated(outcome_in(kStates[i])))) == expected[i]);
  }
  // A negated FAIL passes with no blame; a negated PASS fails the submission.
  CHECK(negated(outcome_in('F')).blame == Blame::none);
  CHECK(negated(outcome_in('T')).blame == Blame::submission);
  // A missing file stays the submission's FAIL, never a PASS.
  CHECK(negated(outcome_in('D')).verdict == Verdict::fail);
  CHECK_FALSE(negated(outcome_in('D')).decided);
}

TEST_CASE("an error value shows as a check by its blame and verdict") {
  struct Row {
    Blame blame;
    Verdict verdict;
    Verdict shown;
    Blame shown_blame;
  };
  const Row rows[] = {
      {Blame::submission, Verdict::error, Verdict::fail, Blame::submission},
      {Blame::submission, Verdict::skip, Verdict::fail, Blame::submission},  // the submission's failure wins
      {Blame::rubric, Verdict::error, Verdict::error, Blame::rubric},
      {Blame::none, Verdict::error, Verdict::error, Blame::rubric},  // an unblamed error is the rubric's
      {Blame::grader_environment, Verdict::error, Verdict::error, Blame::grader_environment},
      {Blame::grader_environment, Verdict::skip, Verdict::skip, Blame::grader_environment},
      {Blame::none, Verdict::inconclusive, Verdict::inconclusive, Blame::none},
      {Blame::rubric, Verdict::pass, Verdict::error, Blame::rubric},  // an error is never a PASS
  };
  for (const Row& r : rows) {
    CheckOutcome o = outcome_of_error(Value::undecided("why", r.verdict, r.blame));
    CAPTURE(verdict_name(r.verdict));
    CHECK(o.verdict == r.shown);
    CHECK(o.blame == r.shown_blame);
    CHECK_FALSE(o.decided);
  }
  // The error's place follows its message.
  SourceLocation at{"task.rubric", 9, 14, ""};
  CHECK(outcome_of_error(Value::error("no key 'p99'", Blame::submission, at)).explanation == "no key 'p99' (task.rubric:9:14)");
}

TEST_CASE("an unusable operand is the submission's FAIL when it is the candidate's, else the rubric's ERROR") {
  CheckOutcome theirs = unusable_operand(true, "cand has 1 measurement");
  CHECK(theirs.verdict == Verdict::fail);
  CHECK(theirs.blame == Blame::submission);
  CHECK_FALSE(theirs.decided);
  CheckOutcome ours = unusable_operand(false, "base has 1 measurement");
  CHECK(ours.verdict == Verdict::error);
  CHECK(ours.blame == Blame::rubric);
}

TEST_CASE("statistical answers and `within` on samples") {
  CHECK(statistical_outcome(Verdict::pass).decided);
  CHECK(statistical_outcome(Verdict::fail).blame == Blame::submission);
  CHECK_FALSE(statistical_outcome(Verdict::inconclusive).decided);
  CHECK(statistical_outcome(Verdict::inconclusive).blame == Blame::none);
  // Upper × lower margin: a FAIL of either fails; otherwise the worse.
  CHECK(both_margins(Verdict::pass, Verdict::pass) == Verdict::pass);
  CHECK(both_margins(Verdict::pass, Verdict::inconclusive) == Verdict::inconclusive);
  CHECK(both_margins(Verdict::inconclusive, Verdict::fail) == Verdict::fail);
  CHECK(both_margins(Verdict::error, Verdict::fail) == Verdict::fail);
  CHECK(both_margins(Verdict::error, Verdict::pass) == Verdict::error);
}

TEST_CASE("a condition used as a value: decided is a bool, undecided keeps its state") {
  for (char c : kStates) {
    CAPTURE(c);
    Value v = value_of_outcome(outcome_in(c));
    CHECK(letter(*truth_of(v)) == c);
  }
}

TEST_CASE("`after`: a FAIL among the dependencies fails, anything else undecided skips") {
  using Deps = std::vector<std::pair<std::string, std::optional<Verdict>>>;
  CHECK_FALSE(after_rule({}));
  CHECK_FALSE(after_rule(Deps{{"a", Verdict::pass}, {"b", Verdict::pass}}));
  // FAIL is checked first, wherever it stands.
  auto failed = after_rule(Deps{{"a", Verdict::skip}, {"b", Verdict::fail}});
  REQUIRE(failed);
  CHECK(failed->verdict == Verdict::fail);
  CHECK(failed->reason == "not evaluated: b did not pass");
  const std::pair<std::optional<Verdict>, const char*> undecided[] = {
      {Verdict::skip, "not evaluated: a was skipped"},
      {Verdict::inconclusive, "not evaluated: a was inconclusive"},
      {Verdict::error, "not evaluated: a ended in ERROR"},
      {std::nullopt, "not evaluated: a was skipped"},  // not evaluated at all (--only)
  };
  for (const auto& [v, reason] : undecided) {
    auto r = after_rule(Deps{{"a", v}});
    REQUIRE(r);
    CHECK(r->verdict == Verdict::skip);
    CHECK(r->reason == reason);
  }
}

TEST_CASE("a criterion is the worst of its checks, counted ones included") {
  std::vector<CheckResult> checks(2);
  checks[0].verdict = Verdict::pass;
  checks[1].verdict = Verdict::inconclusive;
  std::size_t none[5] = {0, 0, 0, 0, 0};
  CHECK(criterion_verdict({}, none) == Verdict::pass);
  CHECK(criterion_verdict(checks, none) == Verdict::inconclusive);
  std::size_t one_fail_unlisted[5] = {0, 0, 0, 1, 0};
  CHECK(criterion_verdict(checks, one_fail_unlisted) == Verdict::fail);
  // Ordering: ERROR > FAIL > INCONCLUSIVE > SKIP > PASS.
  checks[0].verdict = Verdict::error;
  CHECK(criterion_verdict(checks, one_fail_unlisted) == Verdict::error);
}

TEST_CASE("without a device only a failed operation on the submission decides a `needs gpu` criterion") {
  CHECK(skipped_for_device(Verdict::pass, false));
  CHECK(skipped_for_device(Verdict::fail, false));  // a comparison may have read missing figures
  CHECK_FALSE(skipped_for_device(Verdict::fail, true));
  CHECK(skipped_for_device(Verdict::error, true));
}

TEST_CASE("a criterion's score and penalty") {
  CHECK(criterion_score(Verdict::pass, std::nullopt, false) == 1.0);
  CHECK(criterion_score(Verdict::pass, 0.4, false) == 0.4);
  CHECK(criterion_score(Verdict::fail, 0.4, false) == 0.4);
  CHECK(criterion_score(Verdict::fail, std::nullopt, false) == 0.0);
  CHECK(criterion_score(Verdict::fail, 0.4, true) == 0.0);  // not evaluated: `after` did not pass
  CHECK_FALSE(criterion_score(Verdict::skip, 0.4, false));
  CHECK_FALSE(criterion_score(Verdict::error, std::nullopt, true));
  CHECK_FALSE(criterion_score(Verdict::inconclusive, std::nullopt, false));
  CHECK(penalty_deducted(Verdict::fail, 1));
  CHECK_FALSE(penalty_deducted(Verdict::fail, 0));  // unreadable data or `after`: nothing decided
  CHECK_FALSE(penalty_deducted(Verdict::pass, 0));
}

TEST_CASE("groups: the worst child, and the weighted score of the decided ones") {
  std::vector<CriterionResult> kids{criterion("a", Verdict::pass, 1.0, 3), criterion("b", Verdict::fail, 0.0, 1),
                                    criterion("c", Verdict::skip, std::nullopt, 5)};
  CHECK(group_verdict(kids) == Verdict::fail);
  CHECK(*combined_score(kids) == doctest::Approx(0.75));
  CriterionResult penalty = criterion("p", Verdict::fail, std::nullopt);
  penalty.penalty = 2;
  penalty.deducted = true;
  kids.push_back(penalty);
  CHECK(*combined_score(kids) == doctest::Approx(0.25));  // (3 - 2) / 4
  penalty.penalty = 10;
  kids.back() = penalty;
  CHECK(*combined_score(kids) == 0.0);  // clamped
  CHECK_FALSE(combined_score({criterion("s", Verdict::skip, std::nullopt)}));
  CHECK(group_verdict({}) == Verdict::pass);
}

TEST_CASE("the rubric's verdict") {
  struct Row {
    std::vector<Verdict> verdicts;
    bool required_fails;
    std::optional<double> score;
    OverallVerdict expected;
  };
  const Row rows[] = {
      {{Verdict::pass, Verdict::pass}, false, 1.0, OverallVerdict::pass},
      {{Verdict::pass, Verdict::error}, false, 1.0, OverallVerdict::error},
      {{Verdict::fail, Verdict::error}, true, 0.5, OverallVerdict::error},  // ERROR over FAIL
      {{Verdict::pass, Verdict::fail}, true, 0.9, OverallVerdict::fail},   // a required FAIL
      {{Verdict::pass, Verdict::fail}, false, 0.6, OverallVerdict::fail},  // under the pass mark
      {{Verdict::pass, Verdict::fail}, false, 0.75, OverallVerdict::pass},
      {{Verdict::pass, Verdict::skip}, false, 1.0, OverallVerdict::incomplete},
      {{Verdict::inconclusive, Verdict::fail}, false, 0.5, OverallVerdict::fail},  // FAIL over INCOMPLETE
      {{Verdict::skip}, false, std::nullopt, OverallVerdict::incomplete},  // nothing decided
  };
  for (const Row& r : rows) {
    std::vector<CriterionResult> cs;
    for (Verdict v : r.verdicts) {
      cs.push_back(criterion("c", v, std::nullopt));
      cs.back().required = r.required_fails && v == Verdict::fail;
    }
    CAPTURE(overall_verdict_name(r.expected));
    CHECK(overall_verdict(cs, r.score, 0.7) == r.expected);
  }
  // A required group that failed fails the rubric, whatever its children's flags.
  CriterionResult g = criterion("g", Verdict::fail, 0.0);
  g.is_group = true;
  g.required = true;
  g.children = {criterion("x", Verdict::fail, 0.0)};
  CHECK(overall_verdict({g}, 1.0, 0.5) == OverallVerdict::fail);
}
