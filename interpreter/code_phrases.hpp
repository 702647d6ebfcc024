#pragma once
// Lint of the phrases given to `affirms`, `denies`, `polarity` and `concept`: a phrase written as
// an identifier (`dA_cumsum`, `--page-size`) that prose matching does not find where an answer
// writes it as code, in backticks, as answers write identifiers (docs/text.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rubric {

struct PhraseWarning {
  std::string message;
  std::vector<std::string> notes;  // what to write instead
};

// The warning for `phrase`, or nullopt when it is prose or is found in backticks as written, or
// when one of `alternatives` (the other phrases of its list) finds it there.
std::optional<PhraseWarning> code_phrase_warning(std::string_view phrase, const std::vector<std::string>& alternatives = {});

// Whether `phrase` has no words to match ("/", "->", "—"), as the run decides it (make_phrase):
// every check that uses it is the rubric's ERROR.
bool phrase_without_words(std::string_view phrase);

}  // namespace rubric
