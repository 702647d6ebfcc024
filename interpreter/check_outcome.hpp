#pragma once
// The decided result of one condition (a comparison, `matches`, `mentions`, `and`/`or`/`not`):
// verdict, blame and the evidence lines a report shows under the check.
#include <optional>
#include <string>
#include <vector>

#include "interpreter/report_model.hpp"

namespace rubric {

struct CheckOutcome {
  Verdict verdict = Verdict::pass;
  Blame blame = Blame::none;
  std::vector<std::string> evidence;  // decomposed operands, one line each
  std::string explanation;            // one line
  // True when the verdict is a comparison's answer. False when the condition could not be
  // decided (its data could not be read, the rubric erred, the grader lacks something, the
  // statistics did not settle): `not` negates only decided outcomes (docs/semantics.md).
  bool decided = true;
  // A comparison with a null on one side: the explanation names that side ("r.exit is null, not
  // a number"), and a run that ended abnormally is given after it as the reason for the null.
  bool null_operand = false;
  // Why the verdict rests on an ambiguous reading of prose, "; "-joined; empty when it does not.
  std::string review;
  std::optional<SamplePlot> samples;       // for the HTML report's plots (report_model.hpp)
  std::optional<MismatchMap> mismatch_map;
};

}  // namespace rubric
