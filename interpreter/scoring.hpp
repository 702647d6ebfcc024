#pragma once
// Scores and the rubric's verdict (language.md §10), over the report model alone.
#include <optional>
#include <vector>

#include "interpreter/report_model.hpp"

namespace rubric {

// Σ wᵢ·sᵢ / Σ wᵢ over the decided (scored) non-penalty children, minus the penalties of penalty
// children whose checks decided against the submission (CriterionResult::deducted) over the same Σ wᵢ, clamped to [0, 1]. nullopt when no weighted child was decided.
std::optional<double> combined_score(const std::vector<CriterionResult>& children);

// ERROR if anything errored; FAIL if a required criterion failed or the score is below the pass
// mark; INCOMPLETE if something was skipped or inconclusive, or nothing was decided; else PASS.
OverallVerdict overall_verdict(const std::vector<CriterionResult>& criteria, std::optional<double> score, double pass_mark);

}  // namespace rubric
