#include "interpreter/scoring.hpp"

#include <algorithm>

namespace rubric {

std::optional<double> combined_score(const std::vector<CriterionResult>& children) {
  double sum_w = 0, sum_ws = 0, penalties = 0;
  bool decided = false;
  for (const auto& c : children) {
    if (c.penalty) {
      if (c.deducted) penalties += *c.penalty;
      continue;
    }
    if (!c.score) continue;
    decided = true;
    sum_w += c.weight;
    sum_ws += c.weight * *c.score;
  }
  if (!decided || sum_w <= 0) return std::nullopt;
  return std::clamp((sum_ws - penalties) / sum_w, 0.0, 1.0);
}

namespace {

struct Tally {
  bool error = false, required_failed = false, undecided = false;
};

void tally(const std::vector<CriterionResult>& cs, Tally& t) {
  for (const auto& c : cs) {
    if (c.is_group) {
      tally(c.children, t);
      if (c.required && c.verdict == Verdict::fail) t.required_failed = true;
      continue;
    }
    if (c.verdict == Verdict::error) t.error = true;
    if (c.verdict == Verdict::fail && c.required) t.required_failed = true;
    if (c.verdict == Verdict::skip || c.verdict == Verdict::inconclusive) t.undecided = true;
  }
}

}  // namespace

OverallVerdict overall_verdict(const std::vector<CriterionResult>& criteria, std::optional<double> score, double pass_mark) {
  Tally t;
  tally(criteria, t);
  if (t.error) return OverallVerdict::error;
  if (t.required_failed) return OverallVerdict::fail;
  if (score && *score < pass_mark - 1e-12) return OverallVerdict::fail;
  if (t.undecided || !score) return OverallVerdict::incomplete;
  return OverallVerdict::pass;
}

}  // namespace rubric
