#pragma once
// `rubric test`: grade every labelled case with the rubric and compare what it decided with what
// the grader expected (docs/calibration.md). The engine stays a one-submission evaluator; this
// stage runs it once per case and does the bookkeeping.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "calibration/cases_file.hpp"
#include "interpreter/engine.hpp"
#include "interpreter/report_model.hpp"

namespace rubric::calibration {

// agree: every expectation met. disagree: at least one decided expectation not met.
// undecided: nothing disagrees, but the grading machine could not decide something the case
// expects (a `needs gpu` criterion skipped without a GPU, a check blamed on the grader's
// environment), so this machine cannot tell whether the rubric is right about it.
enum class CaseStatus { agree, disagree, undecided };
const char* case_status_name(CaseStatus s);  // "agree", "disagree", "undecided"

// One criterion (or group) of one case's report next to what the case pins for it.
struct CriterionComparison {
  std::string id;
  bool is_group = false;
  int depth = 0;                     // 0 top level, 1 inside a group, ...
  std::optional<Verdict> expected;   // unset when the case does not pin it
  Verdict actual = Verdict::pass;
  bool machine_limited = false;      // undecided because of the grading machine, not the submission
  std::optional<bool> agree;         // set only when pinned and decided on this machine
  const CriterionResult* result = nullptr;  // into the case's report
};

struct CaseResult {
  Case expected;
  Report report;
  OverallVerdict actual = OverallVerdict::pass;
  std::optional<bool> verdict_agrees;  // unset when undecided on this machine
  std::vector<CriterionComparison> criteria;  // every criterion and group, report order
  CaseStatus status = CaseStatus::agree;
  std::string undecided_reason;  // what the machine could not do, when status is undecided
};

// Counts over the decided cases, FAIL as the positive class (a rubric's job is to catch wrong
// answers): precision = TP / (TP + FP), recall = TP / (TP + FN), F1 their harmonic mean; unset
// when the denominator is zero.
struct Agreement {
  std::size_t cases = 0, agreeing = 0, disagreeing = 0, undecided = 0;
  std::size_t true_positive = 0, false_positive = 0, false_negative = 0, true_negative = 0;
  std::optional<double> rate;  // agreeing / decided cases
  std::optional<double> precision, recall, f1;
  std::size_t pinned = 0, pinned_agreeing = 0, pinned_undecided = 0;  // criterion pins over all cases
  // Decided pins whose verdict was marked for review (it rests on an ambiguous reading of prose)
  // and how many of them disagree, beside the same for the unmarked ones: the mark is worth having
  // when marked verdicts disagree far more often.
  std::size_t marked = 0, marked_disagreeing = 0, unmarked = 0, unmarked_disagreeing = 0;
  // The same over decided cases' verdicts: a case is marked when a criterion of its report is.
  std::size_t marked_cases = 0, marked_cases_disagreeing = 0, unmarked_cases = 0, unmarked_cases_disagreeing = 0;
};

// One (expected, actual) pair of verdicts and how many cases had it.
struct VerdictPair {
  std::string expected;  // a verdict name, or "-" when the case does not pin the criterion
  std::string actual;
  std::size_t count = 0;
};

// A row of the per-criterion table: the criterion's expected × actual verdicts over all cases.
struct CriterionRow {
  std::string id;
  std::string title;
  bool is_group = false;
  int depth = 0;
  std::size_t pinned = 0, agreeing = 0;
  std::vector<VerdictPair> pairs;  // ordered by expected then actual (listing order), "-" last
};

// A criterion no case exercises: it never FAILs, or never PASSes, on any case.
struct Unexercised {
  std::string id;
  std::string title;
  bool never_fails = false;
  bool never_passes = false;
  std::string suggestion;  // what case is missing, in a sentence
};

struct CalibrationResult {
  std::string rubric;      // the rubric file as given
  std::string title;       // the rubric's title (from the first report)
  std::string cases_file;  // the cases file as given or found
  std::vector<CaseResult> cases;  // file order
  Agreement agreement;
  std::vector<CriterionRow> table;
  std::vector<Unexercised> unexercised;

  // 0 every case agrees, 1 any disagrees, 3 none disagrees but some could not be decided here.
  int exit_code() const;
};

// Grades each case with `engine` (a rubric already loaded without errors) and compares.
// A case pinning a criterion the rubric does not have is a broken cases file: CasesError.
// `on_case` (may be empty) is told before each case is graded, for a progress line.
CalibrationResult calibrate(Engine& engine, const std::string& rubric_path, const CasesFile& cases,
                            const std::function<void(std::size_t index, const Case&)>& on_case = {});

// One case's report next to its expectations (calibrate calls it per case). Throws CasesError
// naming `cases_file` when the case pins a criterion the report does not have.
CaseResult compare_case(const Case& expected, Report report, const std::string& cases_file);

// The statistics and tables over already compared cases (calibrate calls it; tests too).
Agreement agreement_of(const std::vector<CaseResult>& cases);
std::vector<CriterionRow> criterion_table(const std::vector<CaseResult>& cases);
std::vector<Unexercised> unexercised_criteria(const std::vector<CaseResult>& cases);

}  // namespace rubric::calibration
