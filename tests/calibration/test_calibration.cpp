// Comparing reports with labels: agreement, the FAIL-class figures, what the grading machine
// could not decide, and criteria no case exercises.
#include <doctest/doctest.h>

#include "calibration/calibration.hpp"
#include "calibration/calibration_report.hpp"

using namespace rubric;
using namespace rubric::calibration;

namespace {

CriterionResult criterion(const std::string& id, Verdict v, std::string reason = {}) {
  CriterionResult c;
  c.id = id;
  c.title = id + " title";
  c.verdict = v;
  c.reason = std::move(reason);
  return c;
}

Report report(OverallVerdict overall, std::vector<CriterionResult> criteria) {
  Report r;
  r.title = "t";
  r.verdict = overall;
  r.criteria = std::move(criteria);
  return r;
}

Case labelled(const std::string& name, OverallVerdict v, std::vector<CriterionExpectation> pins = {}) {
  Case c;
  c.name = name;
  c.submission = "subs/" + name;
  c.verdict = v;
  c.criteria = std::move(pins);
  return c;
}

}  // namespace

TEST_CASE("a case agrees when its verdict and every pinned criterion match") {
  const CaseResult r = compare_case(labelled("good", OverallVerdict::pass, {{"a", Verdict::pass}}),
                                    report(OverallVerdict::pass, {criterion("a", Verdict::pass), criterion("b", Verdict::pass)}),
                                    "x.json");
  CHECK(r.status == CaseStatus::agree);
  REQUIRE(r.criteria.size() == 2);
  CHECK(r.criteria[0].agree == std::optional<bool>(true));
  CHECK_FALSE(r.criteria[1].expected.has_value());
  CHECK_FALSE(r.criteria[1].agree.has_value());
}

TEST_CASE("a pinned criterion that differs makes the case disagree even when the verdict matches") {
  const CaseResult r = compare_case(labelled("wrong", OverallVerdict::fail, {{"fix", Verdict::fail}}),
                                    report(OverallVerdict::fail, {criterion("cause", Verdict::fail), criterion("fix", Verdict::pass)}),
                                    "x.json");
  CHECK(r.verdict_agrees == std::optional<bool>(true));
  CHECK(r.status == CaseStatus::disagree);
  CHECK(r.criteria[1].agree == std::optional<bool>(false));
}

TEST_CASE("pinning a criterion the rubric lacks is a broken cases file naming it and the known ids") {
  try {
    compare_case(labelled("c", OverallVerdict::pass, {{"cuase", Verdict::pass}}),
                 report(OverallVerdict::pass, {criterion("cause", Verdict::pass)}), "k.cases.json");
    FAIL("no CasesError");
  } catch (const CasesError& e) {
    const std::string m = e.what();
    CHECK(m.find("k.cases.json") != std::string::npos);
    CHECK(m.find("'cuase'") != std::string::npos);
    CHECK(m.find("did you mean 'cause'?") != std::string::npos);
  }
}

TEST_CASE("what the grading machine cannot decide is undecided, not a disagreement") {
  // A `needs gpu` criterion skipped and one after it: INCOMPLETE where FAIL was expected.
  CriterionResult faster = criterion("faster", Verdict::skip, "not evaluated: correct was skipped");
  faster.after = {"correct"};
  const CaseResult r = compare_case(
      labelled("gpu", OverallVerdict::fail, {{"faster", Verdict::fail}}),
      report(OverallVerdict::incomplete, {criterion("correct", Verdict::skip, "needs gpu: no CUDA device"), faster}), "x.json");
  CHECK(r.status == CaseStatus::undecided);
  CHECK_FALSE(r.verdict_agrees.has_value());
  CHECK(r.criteria[1].machine_limited);
  CHECK_FALSE(r.criteria[1].agree.has_value());
  CHECK(r.undecided_reason.find("needs gpu: no CUDA device") != std::string::npos);

  CalibrationResult all;
  all.cases = {r};
  all.agreement = agreement_of(all.cases);
  CHECK(all.agreement.undecided == 1);
  CHECK(all.agreement.pinned_undecided == 1);
  CHECK(all.exit_code() == 3);
}

TEST_CASE("a check blamed on the grader's environment is undecided too") {
  CriterionResult c = criterion("speed", Verdict::error);
  CheckResult check;
  check.verdict = Verdict::error;
  check.blame = Blame::grader_environment;
  c.checks.push_back(check);
  const CaseResult r = compare_case(labelled("s", OverallVerdict::pass), report(OverallVerdict::error, {c}), "x.json");
  CHECK(r.status == CaseStatus::undecided);
}

TEST_CASE("INCOMPLETE from the submission's own noise is a disagreement when FAIL was expected") {
  const CaseResult r = compare_case(labelled("noisy", OverallVerdict::fail),
                                    report(OverallVerdict::incomplete, {criterion("repeated", Verdict::inconclusive)}), "x.json");
  CHECK(r.status == CaseStatus::disagree);
  CHECK(r.verdict_agrees == std::optional<bool>(false));
}

TEST_CASE("FAIL-class precision, recall and F1 over the decided cases") {
  std::vector<CaseResult> cases;
  auto add = [&](OverallVerdict expected, OverallVerdict actual) {
    cases.push_back(compare_case(labelled("c" + std::to_string(cases.size()), expected),
                                 report(actual, {criterion("a", actual == OverallVerdict::fail ? Verdict::fail : Verdict::pass)}),
                                 "x.json"));
  };
  add(OverallVerdict::fail, OverallVerdict::fail);  // TP
  add(OverallVerdict::fail, OverallVerdict::fail);  // TP
  add(OverallVerdict::fail, OverallVerdict::pass);  // FN
  add(OverallVerdict::pass, OverallVerdict::fail);  // FP
  add(OverallVerdict::pass, OverallVerdict::pass);  // TN
  add(OverallVerdict::incomplete, OverallVerdict::incomplete);  // TN, agreeing
  const Agreement a = agreement_of(cases);
  CHECK(a.cases == 6);
  CHECK(a.agreeing == 4);
  CHECK(a.disagreeing == 2);
  CHECK(a.true_positive == 2);
  CHECK(a.false_negative == 1);
  CHECK(a.false_positive == 1);
  CHECK(a.true_negative == 2);
  CHECK(*a.rate == doctest::Approx(4.0 / 6));
  CHECK(*a.precision == doctest::Approx(2.0 / 3));
  CHECK(*a.recall == doctest::Approx(2.0 / 3));
  CHECK(*a.f1 == doctest::Approx(2.0 / 3));
}

TEST_CASE("no predicted or expected FAIL leaves precision and recall undefined, not 0 or 1") {
  std::vector<CaseResult> cases = {compare_case(labelled("p", OverallVerdict::pass),
                                                report(OverallVerdict::pass, {criterion("a", Verdict::pass)}), "x.json")};
  const Agreement a = agreement_of(cases);
  CHECK_FALSE(a.precision.has_value());
  CHECK_FALSE(a.recall.has_value());
  CHECK_FALSE(a.f1.has_value());
  CHECK(format_calibration_json([&] {
          CalibrationResult r;
          r.cases = cases;
          r.agreement = a;
          return r;
        }()).find("\"precision\": null") != std::string::npos);
}

TEST_CASE("criteria that never fail or never pass are listed with what case is missing") {
  CriterionResult penalty = criterion("honest", Verdict::pass);
  penalty.penalty = 3;
  std::vector<CaseResult> cases = {
      compare_case(labelled("a", OverallVerdict::pass),
                   report(OverallVerdict::pass, {criterion("x", Verdict::pass), criterion("y", Verdict::fail), penalty}), "f"),
      compare_case(labelled("b", OverallVerdict::fail),
                   report(OverallVerdict::fail, {criterion("x", Verdict::fail), criterion("y", Verdict::fail), penalty}), "f"),
  };
  const auto u = unexercised_criteria(cases);
  REQUIRE(u.size() == 2);
  CHECK(u[0].id == "y");
  CHECK(u[0].never_passes);
  CHECK_FALSE(u[0].never_fails);
  CHECK(u[0].suggestion.find("correct answer") != std::string::npos);
  CHECK(u[1].id == "honest");
  CHECK(u[1].never_fails);
  CHECK(u[1].suggestion.find("penalises") != std::string::npos);
}

TEST_CASE("the per-criterion table counts expected × actual pairs, unpinned as '-'") {
  std::vector<CaseResult> cases = {
      compare_case(labelled("a", OverallVerdict::pass, {{"x", Verdict::pass}}),
                   report(OverallVerdict::pass, {criterion("x", Verdict::pass)}), "f"),
      compare_case(labelled("b", OverallVerdict::fail, {{"x", Verdict::pass}}),
                   report(OverallVerdict::fail, {criterion("x", Verdict::fail)}), "f"),
      compare_case(labelled("c", OverallVerdict::fail), report(OverallVerdict::fail, {criterion("x", Verdict::fail)}), "f"),
  };
  const auto table = criterion_table(cases);
  REQUIRE(table.size() == 1);
  CHECK(table[0].pinned == 2);
  CHECK(table[0].agreeing == 1);
  REQUIRE(table[0].pairs.size() == 3);
  CHECK(table[0].pairs[0].expected == "PASS");
  CHECK(table[0].pairs[0].actual == "PASS");
  CHECK(table[0].pairs[1].actual == "FAIL");
  CHECK(table[0].pairs[2].expected == "-");
}

TEST_CASE("groups are compared with their criteria, indented under them") {
  CriterionResult g = criterion("serving", Verdict::fail);
  g.is_group = true;
  g.children = {criterion("latency", Verdict::fail)};
  const CaseResult r = compare_case(labelled("g", OverallVerdict::fail, {{"latency", Verdict::fail}, {"serving", Verdict::fail}}),
                                    report(OverallVerdict::fail, {g}), "f");
  CHECK(r.status == CaseStatus::agree);
  REQUIRE(r.criteria.size() == 2);
  CHECK(r.criteria[1].depth == 1);
  CHECK(r.criteria[1].result->id == "latency");
}

TEST_CASE("marked verdicts are counted apart: how often they disagree beside the unmarked ones") {
  auto marked = [](const std::string& id, Verdict v) {
    CriterionResult c = criterion(id, v);
    CheckResult k;
    k.verdict = v;
    k.review = "\"prefix cache\": a question";
    c.checks.push_back(k);
    return c;
  };
  std::vector<CaseResult> cases;
  // Marked and wrong, marked and right, unmarked and right (twice), unmarked and wrong.
  cases.push_back(compare_case(labelled("m1", OverallVerdict::pass, {{"cause", Verdict::pass}}),
                               report(OverallVerdict::fail, {marked("cause", Verdict::fail)}), "x.json"));
  cases.push_back(compare_case(labelled("m2", OverallVerdict::fail, {{"cause", Verdict::fail}}),
                               report(OverallVerdict::fail, {marked("cause", Verdict::fail)}), "x.json"));
  cases.push_back(compare_case(labelled("u1", OverallVerdict::pass, {{"cause", Verdict::pass}}),
                               report(OverallVerdict::pass, {criterion("cause", Verdict::pass)}), "x.json"));
  cases.push_back(compare_case(labelled("u2", OverallVerdict::fail, {{"cause", Verdict::fail}}),
                               report(OverallVerdict::fail, {criterion("cause", Verdict::fail)}), "x.json"));
  cases.push_back(compare_case(labelled("u3", OverallVerdict::fail, {{"cause", Verdict::fail}}),
                               report(OverallVerdict::pass, {criterion("cause", Verdict::pass)}), "x.json"));
  const Agreement a = agreement_of(cases);
  CHECK(a.marked == 2);
  CHECK(a.marked_disagreeing == 1);
  CHECK(a.unmarked == 3);
  CHECK(a.unmarked_disagreeing == 1);
  CHECK(a.marked_cases == 2);
  CHECK(a.marked_cases_disagreeing == 1);
  CHECK(a.unmarked_cases == 3);
  CHECK(a.unmarked_cases_disagreeing == 1);
}
