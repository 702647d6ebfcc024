#include "grading/review_agreement.hpp"

#include <cmath>

namespace rubric::grading {

std::optional<double> CriterionAgreement::agreement_rate() const {
  if (reviewed == 0) return std::nullopt;
  return static_cast<double>(agreed) / static_cast<double>(reviewed);
}

std::optional<double> CriterionAgreement::kappa() const {
  if (reviewed == 0) return std::nullopt;
  std::map<std::string, double> tool, grader;
  for (const auto& [pair, count] : confusion) {
    tool[pair.first] += static_cast<double>(count);
    grader[pair.second] += static_cast<double>(count);
  }
  const double n = static_cast<double>(reviewed);
  double chance = 0;
  for (const auto& [verdict, count] : tool) {
    const auto other = grader.find(verdict);
    if (other != grader.end()) chance += (count / n) * (other->second / n);
  }
  if (std::fabs(1 - chance) < 1e-12) return std::nullopt;
  const double observed = static_cast<double>(agreed) / n;
  return (observed - chance) / (1 - chance);
}

}  // namespace rubric::grading
