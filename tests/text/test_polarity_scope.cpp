// Polarity rule families of scope and vocabulary: what a negation or a hedge reaches, and the
// words that only look like one. Each family is tested with cases that must and must not change.
#include <doctest/doctest.h>

#include "operators/text/claims.hpp"
#include "operators/text/concept.hpp"

using namespace rubric::text;

namespace {
std::string pol(std::string_view text, std::string_view phrase) {
  Stemmer st;
  return polarity_name(analyse(text, {make_phrase(phrase, st)}, st)[0].polarity);
}
std::vector<std::string> sentences(std::string_view t) {
  Stemmer st;
  SentenceStream s(t, st);
  Sentence x;
  std::vector<std::string> out;
  while (s.next(x)) out.push_back(quote(t, x.begin, x.end));
  return out;
}
}  // namespace

TEST_CASE("a corrected predicate: 'not X but Y' denies the predicate, not the subject") {
  std::string t = "The delay is not caused by the network but by the disk.";
  CHECK(pol(t, "delay") == "affirmed");
  CHECK(pol(t, "network") == "negated");
  CHECK(pol(t, "disk") == "affirmed");
  CHECK(pol("The cumulative sum of dt·A is no longer kept in fp32 but rounded to bf16.", "cumulative sum") == "affirmed");
  CHECK(pol("The bottleneck is not the prefix cache but the scheduler.", "bottleneck") == "affirmed");
  CHECK(pol("The bottleneck is not the prefix cache but the scheduler.", "prefix cache") == "negated");
  // "but" opening a clause of its own leaves the denial standing.
  CHECK(pol("The prefix cache is not involved, but we checked it twice.", "prefix cache") == "negated");
  CHECK(pol("The prefix cache is not the problem, but the scheduler is.", "prefix cache") == "negated");
  CHECK(pol("The prefix cache is not the problem.", "prefix cache") == "negated");
}

TEST_CASE("an inline code span is part of its sentence; a fenced block is not prose") {
  CHECK(pol("The cause is `--page-size 32`.", "page size") == "affirmed");
  CHECK(pol("The cause is not `--page-size 32`.", "page size") == "negated");
  CHECK(pol("Root cause: bank conflicts (not `--page-size 32`).", "page size") == "negated");
  CHECK(pol("Root cause: bank conflicts (not `--page-size 32`).", "bank conflict") == "affirmed");
  CHECK(pol("It might be `max_num_seqs`.", "max num seqs") == "hedged");
  CHECK(pol("`bank_conflicts = 0` in the counter.", "bank conflict") == "negated");
  CHECK(pol("Done.\n```\npage_size = 32\n```\n", "page size") == "absent");
  Stemmer st;
  CHECK(find_claims("The latency is `1.2 ms` here.", st, 10, nullptr).empty());
}

TEST_CASE("words of a field that only look like hedges") {
  CHECK(pol("The speculative decoding config raised k from 3 to 7.", "config") == "affirmed");
  CHECK(pol("We enabled speculative execution of the loads.", "load") == "affirmed");
  CHECK(pol("This explanation of the bank conflicts is speculative.", "bank conflict") == "hedged");
  CHECK(pol("The maximum likelihood estimate of the rate is biased.", "rate") == "affirmed");
  CHECK(pol("The null hypothesis of equal latency was rejected.", "latency") == "affirmed");
  CHECK(pol("Our hypothesis is that bank conflicts dominate.", "bank conflict") == "hedged");
}

TEST_CASE("hedge words of scientific and engineering prose") {
  CHECK(pol("The profile indicates that bank conflicts dominate.", "bank conflict") == "hedged");
  CHECK(pol("A putative bank conflict in the epilogue.", "bank conflict") == "hedged");
  CHECK(pol("The bandwidth is estimated at 45 GB/s.", "bandwidth") == "hedged");
  CHECK(pol("The patch is expected to remove the bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("The cause of the stall is not known.", "stall") == "hedged");
  CHECK(pol("The assumed cause is register pressure.", "register pressure") == "hedged");
  CHECK(pol("One possibility is that the cache is cold, and that the prefetcher stalls.", "prefetcher") == "hedged");
  CHECK(pol("These results imply a role for the prefix cache.", "prefix cache") == "hedged");
  CHECK(pol("The counters rose, indicating bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("We propose that bank conflicts dominate.", "bank conflict") == "hedged");
  CHECK(pol("Two potential bank conflicts remain.", "bank conflict") == "hedged");
  // A negation opening the clause makes "could" one of ability: nothing was found.
  CHECK(pol("No bank conflicts could be detected.", "bank conflict") == "negated");
  CHECK(pol("No relationship could be established between the cache and the stall.", "relationship") == "negated");
  CHECK(pol("Bank conflicts could be the cause.", "bank conflict") == "hedged");
  // Not hedges: a forecast without "to", a profile that shows.
  CHECK(pol("A patch is expected in the next release.", "patch") == "affirmed");
  CHECK(pol("The profile shows bank conflicts.", "bank conflict") == "affirmed");
}

TEST_CASE("denials: 'never possible', 'not because', a 0 before a noun") {
  CHECK(pol("A second CTA per SM was never possible.", "second CTA") == "negated");
  CHECK(pol("It was not possible to fit a second CTA.", "second CTA") == "negated");
  std::string t = "The acceptance rate fell because the denominator grew, not because the draft got worse.";
  CHECK(pol(t, "draft") == "negated");
  CHECK(pol(t, "denominator") == "affirmed");
  CHECK(pol("It stalls because the queue is full.", "queue") == "affirmed");
  CHECK(pol("We saw 0 preemptions.", "preemption") == "negated");
  CHECK(pol("We saw zero preemptions.", "preemption") == "negated");
  CHECK(pol("We saw 2 preemptions.", "preemption") == "affirmed");
  CHECK(pol("The error dropped to 0 and the preemptions stopped.", "preemption") == "affirmed");
}

TEST_CASE("alternatives: clauses joined by 'or' are candidates; an appositive 'or' is another name") {
  std::string t = "Root cause: the draft head degraded or num_speculative_tokens was raised to 7.";
  CHECK(pol(t, "draft head") == "hedged");
  CHECK(pol(t, "num_speculative_tokens") == "hedged");
  CHECK(pol("Root cause: the draft head degraded after the update.", "draft head") == "affirmed");
  CHECK(pol("The kernel stalls or spills under load.", "kernel") == "affirmed");
  CHECK(pol("The next PC, or nPC, is updated by the branch.", "next PC") == "affirmed");
  CHECK(pol("The next PC, or nPC, is updated by the branch.", "nPC") == "affirmed");
  CHECK(pol("The cause is the prefix cache or a bank conflict.", "prefix cache") == "hedged");
}

TEST_CASE("negation scope: backwards over 'and', across a closing quote, into a clause with its own subject") {
  std::string t = "The kernel sweeps the row in tiles and never needs a second reduction.";
  CHECK(pol(t, "tile") == "affirmed");
  CHECK(pol(t, "second reduction") == "negated");
  CHECK(pol("The kernel sweeps the row in tiles, and never needs a second reduction.", "tile") == "affirmed");
  CHECK(pol("The fever has cleared and is not expected to return.", "fever") == "negated");
  CHECK(pol("\"We fear nothing,\" said the lady.", "lady") == "affirmed");
  CHECK(pol("\xe2\x80\x9cWe fear nothing,\xe2\x80\x9d said the lady.", "lady") == "affirmed");
  std::string r = "The lookup finds nothing to reuse and the scheduler has to recompute the prefix.";
  CHECK(pol(r, "recompute") == "affirmed");
  CHECK(pol(r, "reuse") == "negated");
  CHECK(pol("No fever or chills were reported.", "chills") == "negated");
  CHECK(pol("The report lists the mean excluding warm-up iterations.", "warm-up iteration") == "affirmed");
}

TEST_CASE("hedge scope: a hedge after a comma speaks forward; after a modal an adverb does not end it") {
  std::string t = "Throughput fell, presumably after the restart.";
  CHECK(pol(t, "throughput") == "affirmed");
  CHECK(pol("Bank conflicts, probably.", "bank conflict") == "hedged");
  CHECK(pol("The stall is in the epilogue, probably.", "epilogue") == "hedged");
  CHECK(pol("Padding might therefore remove the bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("The cause is most likely a raised k (7 instead of 3).", "raised k") == "hedged");
  CHECK(pol("Padding removed them; therefore the bank conflicts are gone.", "padding") == "affirmed");
}

TEST_CASE("sentences do not end at initials") {
  CHECK(sentences("C. elegans has 302 neurons. The paper by E. C. Lai says so.") ==
        std::vector<std::string>{"C. elegans has 302 neurons.", "The paper by E. C. Lai says so."});
  CHECK(sentences("It is fine. I checked.") == std::vector<std::string>{"It is fine.", "I checked."});
}

TEST_CASE("a number in scientific notation after a name is a claim") {
  Stemmer st;
  auto claims = find_claims("The relative L2 6.5e-8 is within tolerance; CUDA 12.4 is installed.", st, 10, nullptr);
  REQUIRE(claims.size() == 1);
  CHECK(claims[0].value == doctest::Approx(6.5e-8));
}
