#include "interpreter/review_marks.hpp"

#include <algorithm>

namespace rubric {

std::vector<std::string> deciding_reasons(const std::vector<ReviewedPart>& parts, bool settling) {
  const bool settled = std::any_of(parts.begin(), parts.end(), [&](const ReviewedPart& p) { return p.holds == settling; });
  std::vector<std::string> kept;
  for (const auto& p : parts) {
    if (settled && p.holds != settling) continue;
    if (settled && p.reasons.empty()) return {};  // a clear part settles the whole
    for (const auto& r : p.reasons)
      if (std::find(kept.begin(), kept.end(), r) == kept.end()) kept.push_back(r);
  }
  return kept;
}

}  // namespace rubric
