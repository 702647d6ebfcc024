#include <doctest/doctest.h>

#include <functional>

#include "report/number_format.hpp"
#include "report/verdict_summary.hpp"
#include "sample_reports.hpp"

using namespace rubric;
using namespace rubric::report;

TEST_CASE("report model: names, worst-of ordering, exit codes") {
  CHECK(std::string(verdict_name(Verdict::inconclusive)) == "INCONCLUSIVE");
  CHECK(worst(Verdict::pass, Verdict::skip) == Verdict::skip);
  CHECK(worst(Verdict::inconclusive, Verdict::skip) == Verdict::inconclusive);
  CHECK(worst(Verdict::fail, Verdict::inconclusive) == Verdict::fail);
  CHECK(worst(Verdict::error, Verdict::fail) == Verdict::error);
  CHECK(exit_code(OverallVerdict::pass) == 0);
  CHECK(exit_code(OverallVerdict::fail) == 1);
  CHECK(exit_code(OverallVerdict::error) == 2);
  CHECK(exit_code(OverallVerdict::incomplete) == 3);
  CHECK(std::string(overall_verdict_name(OverallVerdict::incomplete)) == "INCOMPLETE");
}

TEST_CASE("numbers: percentages and plain numbers") {
  CHECK(format_percent(0.725) == "72.5%");
  CHECK(format_percent(1.0) == "100%");
  CHECK(format_percent(2.0 / 3.0) == "66.7%");
  CHECK(format_percent(0.0) == "0%");
  CHECK(format_number(4) == "4");
  CHECK(format_number(0.5) == "0.5");
  CHECK(format_number(1.0 / 3.0) == "0.333333");
}

TEST_CASE("counts per verdict over leaf criteria and checks") {
  const Report r = test::kv_cache_report();
  const VerdictCounts criteria = count_criteria(r);
  CHECK(criteria.total() == 5);  // the group itself is not counted
  CHECK(criteria[Verdict::fail] == 2);
  CHECK(describe_counts(criteria) == "1 PASS, 2 FAIL, 1 ERROR, 1 SKIP");
  CHECK(describe_counts(VerdictCounts{}) == "none");
}

TEST_CASE("why the rubric got its verdict") {
  Report r = test::kv_cache_report();
  CHECK(overall_reason(r) == "criterion tail in ERROR (the rubric or its reference files are at fault)");
  {
    // Who is at fault follows the errored checks' blame.
    Report machine = r;
    std::function<void(std::vector<CriterionResult>&)> blame_machine = [&](std::vector<CriterionResult>& cs) {
      for (auto& c : cs) {
        for (auto& k : c.checks)
          if (k.verdict == Verdict::error) k.blame = Blame::grader_environment;
        blame_machine(c.children);
      }
    };
    blame_machine(machine.criteria);
    CHECK(overall_reason(machine) == "criterion tail in ERROR (the grading machine is at fault, not the submission)");
  }

  r = test::single_check_report(Verdict::fail, OverallVerdict::fail);
  r.criteria[0].required = true;
  r.pass_mark = 0.5;
  CHECK(overall_reason(r) == "required criterion only failed; score 0% is below the pass mark 50%");

  r.criteria[0].required = false;
  CHECK(overall_reason(r) == "score 0% is below the pass mark 50%");

  r = test::single_check_report(Verdict::skip, OverallVerdict::incomplete);
  r.criteria[0].reason = "no usable CUDA device";
  CHECK(overall_reason(r) == "nothing was decided; skipped: only (no usable CUDA device)");
  CHECK(describe_score(r) == "no score: nothing was decided (pass mark 100%)");

  r = test::single_check_report(Verdict::pass, OverallVerdict::pass);
  CHECK(overall_reason(r) == "score 100% reaches the pass mark 100%");
  r.criteria[0].required = true;
  CHECK(overall_reason(r) == "every required criterion passed and the score 100% reaches the pass mark 100%");
}
