#pragma once
// The small case helpers of the polarity unit tests: one sentence, one phrase, one reading.
#include <string>
#include <string_view>
#include <vector>

#include "operators/text/concept.hpp"

namespace rubric::text::cases {

// The polarity of `phrase` in `text`, by name ("affirmed", "negated", "hedged", "absent").
inline std::string pol(std::string_view text, std::string_view phrase) {
  Stemmer st;
  return polarity_name(analyse(text, {make_phrase(phrase, st)}, st)[0].polarity);
}

// The sentences `text` is cut into, each as the evidence quotes it.
inline std::vector<std::string> sentences(std::string_view text) {
  Stemmer st;
  SentenceStream s(text, st);
  Sentence x;
  std::vector<std::string> out;
  while (s.next(x)) out.push_back(quote(text, x.begin, x.end));
  return out;
}

}  // namespace rubric::text::cases
