// Polarity rule families of the causes an answer gives: what a hedge before "because" doubts, the
// second of two alternative causes, and "must" as the writer's conclusion. Each family has cases
// that must and must not change.
#include <doctest/doctest.h>

#include "operators/text/claims.hpp"
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
  // So does one before "due to", "owing to", "from" or "via", comma or not.
  std::string o = "Occupancy dropped to 25% presumably due to register pressure.";
  CHECK(pol(o, "occupancy") == "affirmed");
  CHECK(pol(o, "register pressure") == "hedged");
  CHECK(pol("Latency doubled probably from lock contention.", "latency") == "affirmed");
  CHECK(pol("Latency doubled probably from lock contention.", "lock contention") == "hedged");
  CHECK(pol("Latency probably doubled from the contention.", "latency") == "hedged");
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

TEST_CASE("'must' states: an obligation or the writer's own conclusion") {
  CHECK(pol("It must have been the prefix cache.", "prefix cache") == "affirmed");
  CHECK(pol("The tensor must be contiguous.", "contiguous") == "affirmed");
  CHECK(pol("There must be changes in the transcription of genes.", "transcription") == "affirmed");
}

TEST_CASE("a label that names a candidate, singular or plural, hedges its items") {
  CHECK(pol("Our working hypothesis: L2 thrashing.", "L2 thrashing") == "hedged");
  CHECK(pol("Main suspect: the allocator.", "allocator") == "hedged");
  CHECK(pol("My guess: register spills.", "register spills") == "hedged");
  CHECK(pol("Hypotheses: bank conflicts, spills.", "spills") == "hedged");
  CHECK(pol("Possibility: a cold cache.", "cold cache") == "hedged");
  CHECK(pol("Hypothesis:\n- bank conflicts\n- spills\n", "spills") == "hedged");
  // An estimate is not a measurement.
  CHECK(pol("Estimated bandwidth: 1.9 TB/s from the roofline.", "roofline") == "hedged");
  CHECK(pol("Projected speedup: 2x with padding.", "padding") == "hedged");
  Stemmer st;
  auto claims = find_claims("Estimated bandwidth: 1.9 TB/s. Measured bandwidth: 610 GB/s.", st, 10, nullptr);
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].polarity == Polarity::hedged);
  CHECK(claims[1].polarity == Polarity::affirmed);
  // A finding is stated.
  CHECK(pol("Root cause: L2 thrashing.", "L2 thrashing") == "affirmed");
  CHECK(pol("Diagnosis: register spills.", "register spills") == "affirmed");
}
