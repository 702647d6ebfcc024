#include "interpreter/code_phrases.hpp"

#include <fmt/format.h>

#include "operators/error.hpp"
#include "operators/text/concept.hpp"

namespace rubric {

namespace {

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// One token with a character that prose does not write inside a word: an underscore, a dot, a
// leading dash, a slash... A hyphen or an apostrophe between letters is prose ("conflict-free").
bool looks_like_code(std::string_view p) {
  // "e.g.", "i.e": single letters joined by dots are an abbreviation.
  bool abbreviation = p.size() >= 3;
  for (std::size_t k = 0; k < p.size(); ++k) abbreviation = abbreviation && (k % 2 == 0 ? alnum(p[k]) : p[k] == '.');
  if (abbreviation) return false;
  bool code = false;
  for (std::size_t k = 0; k < p.size(); ++k) {
    const char c = p[k];
    if (c == ' ' || c == '\t' || c == '\n') return false;
    if (alnum(c) || static_cast<unsigned char>(c) >= 0x80) continue;
    const bool between = k > 0 && k + 1 < p.size() && alnum(p[k - 1]) && alnum(p[k + 1]);
    if ((c == '-' || c == '\'') && between) continue;
    code = true;
  }
  return code;
}

// Whether the phrase is found, affirmed, in a sentence that writes `text`.
bool found_in(std::string_view phrase, const std::string& text) {
  text::Stemmer stemmer;
  try {
    auto c = text::make_phrase(phrase, stemmer);
    auto found = text::analyse(text, {c}, stemmer);
    return !found.empty() && found[0].polarity == text::Polarity::affirmed;
  } catch (const OperatorError&) {
    return true;  // not a phrase at all: the run says so
  }
}

// The words a code span reads as: its runs of letters and digits ("dA cumsum").
std::string code_words(std::string_view p) {
  std::string out;
  for (std::size_t k = 0; k < p.size();) {
    if (!alnum(p[k])) {
      ++k;
      continue;
    }
    if (!out.empty()) out += ' ';
    while (k < p.size() && alnum(p[k])) out += p[k++];
  }
  return out;
}

}  // namespace

bool phrase_without_words(std::string_view phrase) {
  text::Stemmer stemmer;
  try {
    text::make_phrase(phrase, stemmer);
    return false;
  } catch (const OperatorError&) {
    return true;
  }
}

std::optional<PhraseWarning> code_phrase_warning(std::string_view phrase, const std::vector<std::string>& alternatives) {
  if (!looks_like_code(phrase)) return std::nullopt;
  const std::string as_code = fmt::format("The cause is `{}`.", phrase);
  if (found_in(phrase, as_code)) return std::nullopt;
  for (const std::string& other : alternatives)
    if (found_in(other, as_code)) return std::nullopt;
  PhraseWarning w;
  const std::string words = code_words(phrase);
  w.message = fmt::format("the phrase \"{}\" is an identifier that prose matching does not find where an answer writes it "
                          "as code (`{}`, read as the words \"{}\")",
                          phrase, phrase, words);
  if (!words.empty() && found_in(words, as_code))
    w.notes.push_back(fmt::format("to find it written either way, list both: any [\"{}\", \"{}\"]", phrase, words));
  w.notes.push_back(fmt::format("to find it as code only: code_of(answer) mentions \"{}\"", phrase));
  return w;
}

}  // namespace rubric
