#pragma once
// Which review marks a verdict decided from several parts rests on (`or`, `and`, `affirms any`,
// `any(claims(...), ...)`): a doubtful reading of a part that did not decide the whole marks nothing.
#include <string>
#include <vector>

namespace rubric {

struct ReviewedPart {
  bool holds = false;
  std::vector<std::string> reasons;  // why this part's own verdict is doubtful; empty when clear
};

// The reasons the whole rests on. `settling` is the value one part gives the whole alone (true for
// `or`/`any`, false for `and`/`all`). A part of that value read clearly settles it firmly: no
// reason is kept. Otherwise the reasons of the parts of that value (each could be read otherwise);
// when no part has it, the whole needed every part, and every part's reasons are kept.
std::vector<std::string> deciding_reasons(const std::vector<ReviewedPart>& parts, bool settling);

}  // namespace rubric
