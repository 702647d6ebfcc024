// Polarity rules, one sentence each; the labelled corpus (corpus.tsv) measures the whole.
#include <doctest/doctest.h>

#include "operators/text/concept.hpp"

using namespace rubric::text;

namespace {
std::string pol(std::string_view text, std::string_view phrase) {
  Stemmer st;
  return polarity_name(analyse(text, {make_phrase(phrase, st)}, st)[0].polarity);
}
}  // namespace

TEST_CASE("negation before and after the mention") {
  CHECK(pol("The slowdown is not caused by the prefix cache.", "prefix cache") == "negated");
  CHECK(pol("There are no bank conflicts.", "bank conflict") == "negated");
  CHECK(pol("We ruled out register spills.", "register spill") == "negated");
  CHECK(pol("The prefix cache is not the problem.", "prefix cache") == "negated");
  CHECK(pol("The prefix cache isn't the problem.", "prefix cache") == "negated");
  CHECK(pol("Register spills were ruled out.", "register spill") == "negated");
  CHECK(pol("float64 is not needed here", "float64") == "negated");
  CHECK(pol("Use padding rather than float64.", "float64") == "negated");
  CHECK(pol("Use padding rather than float64.", "padding") == "affirmed");
  CHECK(pol("The prefix cache does not evict the sink blocks.", "prefix cache") == "affirmed");
}

TEST_CASE("scope ends at clauses and contrast") {
  std::string t = "The slowdown is not caused by the prefix cache, and the attention sinks are not involved; the hit rate is fine";
  CHECK(pol(t, "prefix cache") == "negated");
  CHECK(pol(t, "attention sink") == "negated");
  CHECK(pol(t, "hit rate") == "affirmed");
  CHECK(pol("It is not the prefix cache but the bank conflicts.", "bank conflict") == "affirmed");
  CHECK(pol("It is not the prefix cache but the bank conflicts.", "prefix cache") == "negated");
  CHECK(pol("Padding did not help because of bank conflicts.", "bank conflict") == "affirmed");
}

TEST_CASE("pseudo-triggers and double negation") {
  CHECK(pol("Not only the prefix cache but also the sinks matter.", "prefix cache") == "affirmed");
  CHECK(pol("There is no doubt that bank conflicts dominate.", "bank conflict") == "affirmed");
  CHECK(pol("Bank conflicts are not negligible here.", "bank conflict") == "affirmed");
  CHECK(pol("It is not without bank conflicts.", "bank conflict") == "affirmed");
  CHECK(pol("The prefix cache is not the only problem.", "prefix cache") == "affirmed");
  CHECK(pol("The prefix cache isn't the only problem.", "prefix cache") == "affirmed");
}

TEST_CASE("questions, conditionals and hedges") {
  CHECK(pol("Is it the prefix cache?", "prefix cache") == "hedged");
  CHECK(pol("If it were a bank conflict, padding would help.", "bank conflict") == "hedged");
  CHECK(pol("It might be a bank conflict.", "bank conflict") == "hedged");
  CHECK(pol("We suspect register spills.", "register spill") == "hedged");
  CHECK(pol("We cannot rule out register spills.", "register spill") == "hedged");
  CHECK(pol("We could not find any register spills.", "register spill") == "negated");
}
