#pragma once
// Text searches shared by `mentions` and the text builtins: case-insensitive, whole-word,
// white-space-folded phrase search with a snippet of where it was found, and number scanning.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rubric {

class FoldedText {
 public:
  explicit FoldedText(std::string_view text);
  // The snippet around the first whole-word occurrence of `phrase` (case and white space folded),
  // or nullopt when it does not occur.
  std::optional<std::string> find(std::string_view phrase) const;

 private:
  std::string original_;
  std::string folded_;                // lower-cased, runs of white space as one ' '
  std::vector<std::size_t> origin_;   // folded index → original index
};

// The numbers written in a text, in order: "12", "-3.5", "1e-3", "11,234.5" (thousands
// separators), not digits glued to a preceding letter ("fp32", "H100").
std::vector<double> scan_numbers(std::string_view text);

}  // namespace rubric
