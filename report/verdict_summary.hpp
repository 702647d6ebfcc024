#pragma once
// What every printer says at the end: counts per verdict and why the rubric got its verdict.
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "interpreter/report_model.hpp"

namespace rubric::report {

// Counts indexed by Verdict (pass, skip, inconclusive, fail, error).
struct VerdictCounts {
  std::array<std::size_t, 5> counts{};
  std::size_t total() const;
  std::size_t operator[](Verdict v) const { return counts[static_cast<std::size_t>(v)]; }
  void add(Verdict v) { ++counts[static_cast<std::size_t>(v)]; }
};

// Verdicts in the order reports list them: PASS, FAIL, ERROR, INCONCLUSIVE, SKIP.
const std::array<Verdict, 5>& listing_order();

// Leaf criteria (groups descended into) and their checks.
VerdictCounts count_criteria(const Report& report);
VerdictCounts count_checks(const Report& report);

// "3 PASS, 1 FAIL, 1 SKIP" (only verdicts that occur; "none" when empty).
std::string describe_counts(const VerdictCounts& counts);

// "2 criteria marked for review (verdicts kept): cause, fix" when some criterion's verdict rests on an
// ambiguous reading of prose (docs/text.md, "Doubt made visible"); "" when none does.
std::string describe_marked(const Report& report);

// Calls `visit(criterion, depth)` for every criterion and group, depth-first in report order.
void for_each_criterion(const Report& report,
                        const std::function<void(const CriterionResult&, int depth)>& visit);

// Why the rubric got its verdict, in one line: "required criterion numerics failed",
// "score 60% is below the pass mark 70%", "skipped: speed (no CUDA device)", ...
std::string overall_reason(const Report& report);

// Whether a penalty criterion's penalty was taken: "deducted", "not deducted", or, for a FAIL that
// decided nothing against the submission (not evaluated, its data unreadable), why it was not.
std::string penalty_state(const CriterionResult& c);

// "score 72.5% (pass mark 70%)", or "no score: nothing was decided (pass mark 70%)".
std::string describe_score(const Report& report);

}  // namespace rubric::report
