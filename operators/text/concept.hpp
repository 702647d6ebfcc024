#pragma once
// Concepts: what an answer must say, as phrases matched insensitive to case, hyphens, white space,
// Markdown and inflection, combined with `any`, `all` and `near`. One pass over the text finds
// every concept's mentions and judges each mention's polarity; code is never prose.
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "operators/text/analysed_text.hpp"
#include "operators/text/polarity.hpp"
#include "operators/text/stemmer.hpp"

namespace rubric::text {

struct Concept {
  enum class Kind { phrase, any, all, near };
  Kind kind = Kind::phrase;
  std::string label;  // the phrase as written, or "a near b", or the concept's name
  std::vector<std::vector<std::string>> alternatives;  // phrase: stem sequences ("pre-fill": [pre, fill], [prefil])
  // Alternatives from this index on match only words of a code span: an identifier's words as the
  // span reads them ("expandable_segments" in backticks reads "expandable segments").
  std::size_t code_only_from = static_cast<std::size_t>(-1);
  std::vector<std::shared_ptr<const Concept>> parts;   // any/all: the members; near: the two sides
  std::size_t window = 0;                              // near: at most this many words apart; 0: same sentence
};
using ConceptPtr = std::shared_ptr<const Concept>;

// A phrase; throws OperatorError when it has no words.
ConceptPtr make_phrase(std::string_view text, Stemmer& stemmer);
ConceptPtr make_any(std::vector<ConceptPtr> parts, std::string label);
ConceptPtr make_all(std::vector<ConceptPtr> parts, std::string label);
ConceptPtr make_near(ConceptPtr a, ConceptPtr b, std::size_t window);
// The label a concept shows in evidence: `"bank conflict"`, `any ["a", "b"]`, `"collide" near "bank"`.
std::string describe(const Concept& c);

struct Mention {
  Polarity polarity = Polarity::affirmed;
  std::string phrase;                     // the member that matched, described: `"evicted"`, `"requests" near(6) "evicted"`
  std::size_t sentence_begin = 0, sentence_end = 0;  // bytes of the text
  std::size_t match_begin = 0, match_end = 0;
  std::size_t trigger_begin = 0, trigger_end = 0;  // equal when no trigger decided it
  std::string ambiguous;  // the ambiguous construction that decided it (Judgement::ambiguous), or ""
};

struct Finding {
  Polarity polarity = Polarity::absent;
  std::size_t mentions = 0;                       // every mention found (of leaves below, for any/all)
  std::optional<Mention> deciding;                // the first mention with the finding's polarity
  std::vector<std::pair<std::string, Polarity>> parts;  // all/any: each member's label and polarity
  std::vector<std::optional<Mention>> part_deciding;    // all: each member's first mention with its polarity
  // The finding rests on an ambiguous reading: the deciding mention was read from an ambiguous
  // construction, or, when nothing is stated, some mention was (read otherwise, it could have
  // been stated). That mention; unset when every reading it rests on was clear.
  std::optional<Mention> ambiguous;
  bool composite = false;  // an any/all concept: its evidence names the member that matched
};

// Finds all the concepts in one pass over the text. Linear in the text (times the phrases that
// start at a word); memory bounded by the longest sentence.
std::vector<Finding> analyse(std::string_view text, const std::vector<ConceptPtr>& concepts, Stemmer& stemmer);
// The same over the sentences of an analysed text (cut once for every operator reading it).
std::vector<Finding> analyse(AnalysedText& text, const std::vector<ConceptPtr>& concepts);

// Evidence: `negated in "The prefix cache is [not] the problem" (trigger: not)`, and after it
// `; ambiguous: a question` when the finding rests on an ambiguous reading.
std::string explain(std::string_view text, const Finding& f);

}  // namespace rubric::text
