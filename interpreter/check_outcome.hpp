#pragma once
// The decided result of one condition (a comparison, `matches`, `mentions`, `and`/`or`/`not`):
// verdict, blame and the evidence lines a report shows under the check.
#include <string>
#include <vector>

#include "interpreter/report_model.hpp"

namespace rubric {

struct CheckOutcome {
  Verdict verdict = Verdict::pass;
  Blame blame = Blame::none;
  std::vector<std::string> evidence;  // decomposed operands, one line each
  std::string explanation;            // one line
};

}  // namespace rubric
