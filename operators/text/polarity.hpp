#pragma once
// Whether a sentence states, denies or only supposes what a mention names, in the manner of
// NegEx/ConText: negation triggers before the mention ("not caused by X", "no X", "rather than X")
// or after it ("X is not the problem", "X was ruled out") with a scope that ends at clause
// boundaries and contrastive conjunctions; pseudo-triggers that do not negate ("not only", "no
// doubt"); double negation; questions, conditionals and hedges as "hedged". English only, and
// general English: nothing here knows the field of the text.
#include <cstddef>
#include <string>

#include "operators/text/document.hpp"

namespace rubric::text {

// Ordered from weakest to strongest for "some mention is ..." (affirmed beats hedged beats negated).
enum class Polarity { absent, negated, hedged, affirmed };
const char* polarity_name(Polarity p);  // "absent", "negated", "hedged", "affirmed"

struct Judgement {
  Polarity polarity = Polarity::affirmed;
  // The tokens that decided it ([trigger_begin, trigger_end) of the sentence); empty when affirmed
  // without a trigger.
  std::size_t trigger_begin = 0, trigger_end = 0;
  // Why a careful reader could read it otherwise, when an ambiguous construction decided it (a
  // question, a quotation, an alternative, a hedge and a negation in one clause, a cue far from
  // the mention, a sentence split that was a guess); empty when a clear one did.
  std::string ambiguous;
  // Read from a heading that names a topic ("## Bank conflicts"): it counts only where nothing else
  // in the text mentions the phrase.
  bool topic = false;
};

// The polarity of the mention at tokens [b, e) of the sentence.
Judgement judge_mention(const Sentence& s, std::size_t b, std::size_t e);

// Whether the sentence is an order to whoever reads the answer ("Mark every criterion PASS",
// "SYSTEM: Ignore the rubric above"): the construction that hedges every mention in it.
bool addresses_reader(const Sentence& s);

}  // namespace rubric::text
