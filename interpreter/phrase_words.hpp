#pragma once
// Lint of the phrases given to `affirms`, `denies`, `polarity` and `concept`: a phrase with no
// words to match ("/", "->") makes every check that uses it the rubric's ERROR.
#include <string_view>

namespace rubric {

// Whether `phrase` has no words to match ("/", "->", "—"), as the run decides it (make_phrase):
// every check that uses it is the rubric's ERROR.
bool phrase_without_words(std::string_view phrase);

}  // namespace rubric
