#include "interpreter/phrase_words.hpp"

#include "operators/error.hpp"
#include "operators/text/concept.hpp"

namespace rubric {

bool phrase_without_words(std::string_view phrase) {
  text::Stemmer stemmer;
  try {
    text::make_phrase(phrase, stemmer);
    return false;
  } catch (const OperatorError&) {
    return true;
  }
}

}  // namespace rubric
