#pragma once
// The cases file of `rubric test` (docs/calibration.md): labelled submissions with the verdicts an
// expert gave them. JSON; every path in it is relative to the file's own folder.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/report_model.hpp"

namespace rubric::calibration {

// A cases file that cannot be read or does not follow the schema; the message names the file and
// the field ("kv_cache.cases.json: cases[2].verdict: ...") or the line and column of a JSON error.
struct CasesError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a grader expects of one criterion: one of the five criterion verdicts.
struct CriterionExpectation {
  std::string id;
  Verdict verdict = Verdict::pass;
};

struct Case {
  std::string name;
  std::string submission;  // resolved against the cases file's folder
  std::string reference;   // resolved; empty: the rubric's folder (as `rubric check` does)
  std::string submission_given;  // as the cases file writes them (reports name cases by these)
  std::string reference_given;
  OverallVerdict verdict = OverallVerdict::pass;
  std::vector<CriterionExpectation> criteria;  // pinned criteria, in file order
  std::string why;                             // the grader's note, shown with a disagreement
};

struct CasesFile {
  std::string path;  // as given or found
  std::vector<Case> cases;
};

// The default cases file of a rubric: `<stem>.cases.json` beside it, else `cases.json` beside it.
// Returns the first that exists, or nullopt (the message then names both).
std::optional<std::string> find_default_cases_file(const std::string& rubric_path);

// Reads and validates a cases file: JSON syntax, known fields only, names unique, verdicts spelled
// as the report spells them, submission and reference folders present. Throws CasesError.
CasesFile read_cases_file(const std::string& path);

// Parses "PASS", "FAIL", "ERROR", "INCOMPLETE" (overall) and "PASS", "FAIL", "ERROR", "SKIP",
// "INCONCLUSIVE" (criterion); nullopt for anything else.
std::optional<OverallVerdict> parse_overall_verdict(const std::string& name);
std::optional<Verdict> parse_criterion_verdict(const std::string& name);

}  // namespace rubric::calibration
