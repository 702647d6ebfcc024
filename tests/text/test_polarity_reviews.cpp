// Polarity rule families of opinion and review prose (found on the development part of the SFU
// Review corpus, docs/text.md "Public corpora") and of the causes an answer gives: what a hedge
// before "because" doubts, counterfactual and inferential modals, and where a modal's clause ends.
// Each family has cases that must and must not change.
#include <doctest/doctest.h>

#include "operators/text/concept.hpp"
#include "tests/text/polarity_cases.hpp"

using namespace rubric::text;
using rubric::text::cases::pol;

TEST_CASE("a hedge adverb before 'because' or 'after' doubts the cause or the time, not the clause before it") {
  CHECK(pol("Throughput fell, presumably after the restart.", "restart") == "hedged");
  CHECK(pol("Throughput fell, presumably after the restart.", "fell") == "affirmed");
  CHECK(pol("The kernel stalls, probably because of bank conflicts.", "bank conflicts") == "hedged");
  CHECK(pol("The kernel stalls probably because of bank conflicts.", "bank conflicts") == "hedged");
  CHECK(pol("The kernel stalls probably because of bank conflicts.", "kernel") == "affirmed");
  CHECK(pol("That is probably because the prefix cache is cold.", "prefix cache") == "hedged");
  CHECK(pol("The regression appeared, most likely since the driver upgrade.", "driver upgrade") == "hedged");
  // Without the adverb the cause is stated; an adverb elsewhere still hedges its own clause.
  CHECK(pol("The kernel stalls because of bank conflicts.", "bank conflicts") == "affirmed");
  CHECK(pol("The kernel stalls because of bank conflicts, probably.", "bank conflicts") == "hedged");
  CHECK(pol("The hit rate dropped after the restart, which probably cleared the cache.", "restart") == "affirmed");
}

TEST_CASE("the second of two alternative clauses is a candidate too") {
  const char* t = "Root cause: the draft head degraded or num_speculative_tokens was raised to 7.";
  CHECK(pol(t, "draft head") == "hedged");
  CHECK(pol(t, "degraded") == "hedged");
  CHECK(pol(t, "raised") == "hedged");
  // Two names of one subject are no alternative clauses.
  CHECK(pol("The Embassy Suites or Amerisuites both have comparable prices.", "comparable") == "affirmed");
  CHECK(pol("Bronchitis or asthma are mediated by inflammatory mechanisms.", "mediated") == "affirmed");
  CHECK(pol("The cache was cold or the scheduler was slow.", "slow") == "hedged");
  CHECK(pol("The draft head was retrained.", "retrained") == "affirmed");
}

TEST_CASE("a modal perfect is a counterfactual or an inference, not a fact") {
  CHECK(pol("I should have listened to my husband.", "listened") == "hedged");
  CHECK(pol("The car should have been tested further in the wind tunnel.", "tested") == "hedged");
  CHECK(pol("I would have preferred real wood.", "wood") == "hedged");
  // The negation decides "should not have"; advice and the writer's "I would" stay stated.
  CHECK(pol("The kernel should not have used shared memory.", "shared memory") == "negated");
  CHECK(pol("We should increase the batch size.", "increase") == "affirmed");
  CHECK(pol("I would definitely recommend it.", "recommend") == "affirmed");
}

TEST_CASE("'must' states: an obligation or the writer's own conclusion") {
  CHECK(pol("It must have been the prefix cache.", "prefix cache") == "affirmed");
  CHECK(pol("The tensor must be contiguous.", "contiguous") == "affirmed");
  CHECK(pol("There must be changes in the transcription of genes.", "transcription") == "affirmed");
}

TEST_CASE("'appears' before a degree or a comparison seems") {
  CHECK(pol("The trunk appears fairly large.", "large") == "hedged");
  CHECK(pol("The new car appears much larger.", "larger") == "hedged");
  CHECK(pol("The error appeared in the log.", "error") == "affirmed");
}

TEST_CASE("an attributive 'optional' names a part; a predicate 'optional' hedges") {
  CHECK(pol("The car had the optional 3.0 DOHC engine.", "engine") == "affirmed");
  CHECK(pol("Pass the optional flag to the server.", "flag") == "affirmed");
  CHECK(pol("Garnish is optional.", "garnish") == "hedged");
  CHECK(pol("A pinch of cinnamon (optional).", "cinnamon") == "hedged");
}

TEST_CASE("a modal in a comparison or a wh-clause after the mention speaks of that clause") {
  CHECK(pol("The back seat has more legroom than you would anticipate.", "seat") == "affirmed");
  CHECK(pol("The back seat would have more legroom.", "seat") == "hedged");
  CHECK(pol("I don't know what I would have done without it.", "know") == "negated");
  CHECK(pol("The profile shows what might be a bank conflict.", "profile") == "affirmed");
  CHECK(pol("It is unclear what might cause the stall.", "stall") == "hedged");
}

TEST_CASE("Windows-1252 quotes decoded as Latin-1 read as the quotes they stand for") {
  // U+0092 is the right single quotation mark of Windows-1252 read as Latin-1: "don’t".
  CHECK(pol("I don\xc2\x92t like the keyboard.", "keyboard") == "negated");
  CHECK(pol("The fan doesn\xc2\x92t work.", "fan") == "negated");
  CHECK(pol("The story doesn\xc2\x92t end there.", "story") == pol("The story doesn't end there.", "story"));
  CHECK(pol("It\xc2\x92s the prefix cache.", "prefix cache") == "affirmed");
  CHECK(pol("The \xc2\x93" "fast path\xc2\x94 is not taken.", "fast path") == "negated");
}

TEST_CASE("what something is 'nothing short of' or 'nothing more than' is stated") {
  CHECK(pol("It's nothing short of genius.", "genius") == "affirmed");
  CHECK(pol("This movie is nothing more than hidden rip-offs.", "rip-offs") == "affirmed");
  CHECK(pol("The patch is little more than a workaround.", "workaround") == "affirmed");
  CHECK(pol("There is nothing to reuse.", "reuse") == "negated");
}

TEST_CASE("'never before' keeps its verb; 'regardless of' ends at a comma; 'either' needs an 'or'") {
  CHECK(pol("I have never before owned a cutting edge computer.", "owned") == "negated");
  CHECK(pol("The stall never occurs before the restart.", "restart") == "affirmed");
  CHECK(pol("Regardless of whether they like him or not, Luke is forced to keep many secrets.", "secrets") == "affirmed");
  CHECK(pol("The cache is flushed regardless of the hit rate.", "hit rate") == "negated");
  CHECK(pol("Lift the handle on the side of either seat, and it glides forward.", "seat") == "affirmed");
  CHECK(pol("The cause is either the prefix cache or a bank conflict.", "prefix cache") == "hedged");
}

TEST_CASE("another's belief, past or present, and a name opening its clause") {
  CHECK(pol("My wife thought I was nuts.", "nuts") == "hedged");
  CHECK(pol("She thought it was strange.", "strange") == "hedged");
  CHECK(pol("Giselle thinks Watson is great.", "great") == "hedged");
  CHECK(pol("On the web site they claim they have three pools.", "pools") == "hedged");
  // The writer's "I think" states; the noun "claim" reports nothing.
  CHECK(pol("I think the prefix cache is cold.", "prefix cache") == "affirmed");
  CHECK(pol("I take issue with the manufacturer's claim that it is non-stick.", "issue") == "affirmed");
}
