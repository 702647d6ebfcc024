// The report model's small free functions (language.md §10). Compiled into rubric_report, so the
// report printers and the CLI can be built and tested on hand-made reports alone.
#include "interpreter/report_model.hpp"

#include <algorithm>

namespace rubric {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::pass: return "PASS";
    case Verdict::skip: return "SKIP";
    case Verdict::inconclusive: return "INCONCLUSIVE";
    case Verdict::fail: return "FAIL";
    case Verdict::error: return "ERROR";
  }
  return "ERROR";
}

std::string error_location_text(const SourceLocation& l) {
  if (!l.known()) return "";
  std::string out = l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
  return l.raised_in.empty() ? out : out + "; raised in " + l.raised_in;
}

Verdict worst(Verdict a, Verdict b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

const char* overall_verdict_name(OverallVerdict v) {
  switch (v) {
    case OverallVerdict::pass: return "PASS";
    case OverallVerdict::fail: return "FAIL";
    case OverallVerdict::error: return "ERROR";
    case OverallVerdict::incomplete: return "INCOMPLETE";
  }
  return "ERROR";
}

std::string review_reason(const CriterionResult& c) {
  // A FAIL rests on its failing checks only, and on none of them in doubt when one failed on a
  // clear reading: whatever the doubtful checks read, the verdict stands.
  const bool failed = c.verdict == Verdict::fail;
  if (failed)
    for (const CheckResult& check : c.checks)
      if (check.verdict == Verdict::fail && check.review.empty()) return "";
  std::vector<std::string> seen;
  std::string joined;
  for (const CheckResult& check : c.checks) {
    if (failed && check.verdict != Verdict::fail) continue;
    if (check.review.empty() || std::find(seen.begin(), seen.end(), check.review) != seen.end()) continue;
    seen.push_back(check.review);
    joined += (joined.empty() ? "" : "; ") + check.review;
  }
  return joined;
}

int exit_code(OverallVerdict v) {
  switch (v) {
    case OverallVerdict::pass: return 0;
    case OverallVerdict::fail: return 1;
    case OverallVerdict::error: return 2;
    case OverallVerdict::incomplete: return 3;
  }
  return 2;
}

}  // namespace rubric
