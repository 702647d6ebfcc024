#pragma once
// Text searches shared by `mentions` and the text builtins: case-insensitive, whole-word,
// white-space-folded phrase search with a snippet of where it was found, and number scanning.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rubric {

// Holds a view of the text: the caller keeps the text alive while the FoldedText is used. Costs
// one byte per byte of text plus 16 bytes per 256 (a 128 MiB answer: 136 MiB, not 1.2 GB).
// Folding reads no-break and other Unicode spaces as white space, drops zero-width characters
// and soft hyphens, and reads Unicode hyphens, curly apostrophes and fullwidth forms as ASCII
// (operators/text/unicode.hpp), so "bank\u00A0conflict" and "don’t" match "bank conflict" and "don't".
class FoldedText {
 public:
  struct Checkpoint {
    std::size_t original;   // the original character a folded byte came from
    std::uint32_t offset;   // its byte in that character's reading ("ﬁ" reads as two)
  };
  explicit FoldedText(std::string_view text);
  // The snippet around the first whole-word occurrence of `phrase` (case and white space folded),
  // or nullopt when it does not occur.
  std::optional<std::string> find(std::string_view phrase) const;

 private:
  // The original character [begin, end) a folded byte came from.
  std::pair<std::size_t, std::size_t> origin(std::size_t folded_index) const;

  std::string_view original_;
  std::string folded_;  // lower-cased, runs of white space as one ' '
  // Every 256th folded character's original index; the rest are found by folding forward from it.
  std::vector<Checkpoint> checkpoints_;
};

// The numbers written in a text, in order: "12", "-3.5", "1e-3", "11,234.5" (thousands
// separators), not digits glued to a preceding letter ("fp32", "H100").
std::vector<double> scan_numbers(std::string_view text);

}  // namespace rubric
