// Polarity rule families of scope and vocabulary: what a negation or a hedge reaches, and the
// words that only look like one. Each family is tested with cases that must and must not change.
#include <doctest/doctest.h>

#include "operators/text/claims.hpp"
#include "operators/text/concept.hpp"
#include "tests/text/polarity_cases.hpp"

using namespace rubric::text;
using rubric::text::cases::pol;
using rubric::text::cases::sentences;

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
  // A proposition replaced by another: "not that X but that Y".
  std::string p = "The problem is not that the cache is small but that it is cold.";
  CHECK(pol(p, "problem") == "affirmed");
  CHECK(pol(p, "small") == "negated");  // the denial stays with what it denied
  CHECK(pol(p, "cold") == "affirmed");
  CHECK(pol("The kernel is not compute bound but memory bound.", "kernel") == "affirmed");
  CHECK(pol("The kernel is not compute bound but memory bound.", "compute bound") == "negated");
  CHECK(pol("The loss spike wasn't caused by the learning rate but by a bad batch.", "loss spike") == "affirmed");
}

TEST_CASE("an inline code span is part of its sentence; a fenced block is not prose") {
  CHECK(pol("The cause is `--page-size 32`.", "page size") == "affirmed");
  CHECK(pol("The cause is not `--page-size 32`.", "page size") == "negated");
  CHECK(pol("Root cause: bank conflicts (not `--page-size 32`).", "page size") == "negated");
  CHECK(pol("Root cause: bank conflicts (not `--page-size 32`).", "bank conflict") == "affirmed");
  CHECK(pol("It might be `max_num_seqs`.", "max num seqs") == "hedged");
  CHECK(pol("`bank_conflicts = 0` in the counter.", "bank conflict") == "negated");
  CHECK(pol("Done.\n```\npage_size = 32\n```\n", "page size") == "absent");
  // A cue inside an identifier speaks of the identifier's own words, not of the prose around it.
  CHECK(pol("We wrap inference in `torch.no_grad()` to save memory.", "memory") == "affirmed");
  CHECK(pol("The `NO_BANK_CONFLICT` macro pads the kernel's tile.", "kernel") == "affirmed");
  CHECK(pol("The `may_alias` attribute hides the aliasing from the compiler.", "compiler") == "affirmed");
  CHECK(pol("We launched with `--no-enable-prefix-caching`.", "prefix caching") == "negated");
  CHECK(pol("We did not pass `--enable-prefix-caching`.", "prefix caching") == "negated");
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
  CHECK(pol("My hunch is that bank conflicts cause the stall.", "bank conflict") == "hedged");
  CHECK(pol("I have a gut feeling the allocator is involved.", "allocator") == "hedged");
  // An extent is no doubt: a superlative or "every" before "possible", "as ... as possible".
  CHECK(pol("The kernel reaches the maximum possible occupancy.", "occupancy") == "affirmed");
  CHECK(pol("The kernel gets the highest possible occupancy at 128 threads.", "occupancy") == "affirmed");
  CHECK(pol("Every possible tile size from 16 to 128 was benchmarked.", "tile size") == "affirmed");
  CHECK(pol("The kernel runs as fast as possible on the H100.", "kernel") == "affirmed");
  CHECK(pol("Keep the tile in shared memory where possible.", "shared memory") == "affirmed");
  CHECK(pol("A larger tile is possible.", "larger tile") == "hedged");
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
  // "indicate" with a clause of its own infers; with a noun phrase alone it reports.
  CHECK(pol("The replay counter indicates bank conflicts are the limiter.", "bank conflict") == "hedged");
  CHECK(pol("The replay counter indicates bank conflicts are the limiter.", "replay counter") == "affirmed");
  CHECK(pol("The counters indicate the kernel is memory bound.", "memory bound") == "hedged");
  CHECK(pol("The symptoms indicate a concussion.", "concussion") == "affirmed");
  CHECK(pol("As indicated in the profile, the kernel is memory bound.", "memory bound") == "affirmed");
  // One account among others is a candidate, its second "that" too.
  std::string one = "One explanation is that the stride is 32 and that every lane hits bank 0.";
  CHECK(pol(one, "stride") == "hedged");
  CHECK(pol(one, "lane") == "hedged");
  CHECK(pol("Another interpretation is that the driver downclocks.", "driver") == "hedged");
  CHECK(pol("The explanation is that the driver downclocks.", "driver") == "affirmed");
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
  // A modal of ability denied by "never" is a denial, as "could not" is; "might never" stays a doubt.
  CHECK(pol("A second CTA could never fit alongside the first.", "second CTA") == "negated");
  CHECK(pol("This deadlock can never happen.", "deadlock") == "negated");
  CHECK(pol("This deadlock might never happen.", "deadlock") == "hedged");
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
  // A preposition repeated after "or" keeps the alternatives.
  CHECK(pol("The stall is in the scheduler or in the allocator.", "allocator") == "hedged");
  CHECK(pol("The stall is in the scheduler or in the allocator.", "scheduler") == "hedged");
  CHECK(pol("The delay comes from the disk or from the network.", "network") == "hedged");
  CHECK(pol("The stall is in the scheduler and in the allocator.", "allocator") == "affirmed");
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
  // A verb in -s or -ed with its object's article after it marks the new clause too.
  std::string f = "The cache has no free blocks and the fallback path evicts the oldest prefix.";
  CHECK(pol(f, "free blocks") == "negated");
  CHECK(pol(f, "fallback path") == "affirmed");
  CHECK(pol(f, "evicts") == "affirmed");
  CHECK(pol("We found no spills and the profiler reported the same count twice.", "profiler") == "affirmed");
  CHECK(pol("There are no stalls and no replays in the profile.", "replays") == "negated");
  // A singular noun and a word in -s after it: a subject and its verb.
  std::string g = "The loader does no prefetching and the GPU waits on every batch.";
  CHECK(pol(g, "prefetching") == "negated");
  CHECK(pol(g, "GPU") == "affirmed");
  CHECK(pol("The loop has no host sync and the kernel launches back to back.", "launches") == "affirmed");
  CHECK(pol("There are no spills and the kernel logs.", "kernel") == "negated");
  CHECK(pol("No fever or chills were reported.", "chills") == "negated");
  CHECK(pol("The report lists the mean excluding warm-up iterations.", "warm-up iteration") == "affirmed");
  // A purpose ("to rule out X") hedges what follows it, not the clause before it.
  std::string rule = "I set `--enforce-eager` to rule out CUDA graphs.";
  CHECK(pol(rule, "enforce eager") == "affirmed");
  CHECK(pol(rule, "CUDA graphs") == "hedged");
  CHECK(pol("We profiled the kernel to rule out bank conflicts.", "profiled") == "affirmed");
  CHECK(pol("We ruled out bank conflicts.", "bank conflicts") == "negated");
}

TEST_CASE("hedge scope: a hedge after a comma speaks forward; after a modal an adverb does not end it") {
  std::string t = "Throughput fell, presumably after the restart.";
  CHECK(pol(t, "throughput") == "affirmed");
  CHECK(pol("Bank conflicts, probably.", "bank conflict") == "hedged");
  CHECK(pol("The stall is in the epilogue, probably.", "epilogue") == "hedged");
  CHECK(pol("Padding might therefore remove the bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("The change may, however, lower occupancy.", "occupancy") == "hedged");
  CHECK(pol("Padding could, though, raise register pressure.", "register pressure") == "hedged");
  CHECK(pol("The change may help; however, occupancy stays at 50%.", "occupancy") == "affirmed");
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

TEST_CASE("a bare number after the name of a measure is its value, not a version") {
  Stemmer st;
  for (std::string_view line : {"RMSE 0.02 on the holdout set.", "BLEU 27.4 after distillation.", "Perplexity 5.8 after the fix.",
                                "The KL 0.004 between the samplers is small.", "MMLU 68.2 for the quantized model."}) {
    auto claims = find_claims(line, st, 10, nullptr);
    CHECK_MESSAGE(claims.size() == 1, line);
  }
  // Names of software and hardware keep their versions.
  CHECK(find_claims("CUDA 12.4 and Python 3.11 are installed; ROCm 6.1 is not.", st, 10, nullptr).empty());
}

TEST_CASE("a number times a power of ten is one number, not a speedup") {
  Stemmer st;
  auto claims = find_claims("The max abs error is 2.4 × 10^-3; with fp32 it is 3.1 x 10^-5 and the kernel is 1.3x faster.", st, 10, nullptr);
  REQUIRE(claims.size() == 3);
  CHECK(claims[0].value == doctest::Approx(2.4e-3));
  CHECK(claims[0].unit.empty());
  CHECK(claims[1].value == doctest::Approx(3.1e-5));
  CHECK(claims[2].unit == "x");
}

TEST_CASE("per cent is percent") {
  Stemmer st;
  auto claims = find_claims("Utilisation never exceeded 40 per cent; the hit rate is 87 percent.", st, 10, nullptr);
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].unit == "%");
  CHECK(claims[0].text == "40 per cent");
  CHECK(claims[1].unit == "%");
}

TEST_CASE("a count of devices written with x is no speedup") {
  Stemmer st;
  auto claims = find_claims("The baseline ran on an 8x H100 node; 4x GPUs were idle; the kernel is 3x faster.", st, 10, nullptr);
  REQUIRE(claims.size() == 3);
  CHECK(claims[0].unit.empty());
  CHECK(claims[1].unit.empty());
  CHECK(claims[2].unit == "x");
}

TEST_CASE("the dot of an abbreviation or an initial ends no clause") {
  // A negation or a hedge reaches past "Fig. 3", "et al.", "Dr. Lee", "i.e." as past any word.
  CHECK(pol("The allocator in Fig. 3 is not the cause.", "allocator") == "negated");
  CHECK(pol("The patch from Dr. Okafor is not needed on Hopper.", "patch") == "negated");
  CHECK(pol("Perhaps the kernel in Fig. 2 spills registers.", "register") == "hedged");
  CHECK(pol("Maybe the method of Chen et al. explains the speedup.", "speedup") == "hedged");
  CHECK(pol("Possibly the fp16 vs. bf16 gap comes from the accumulator.", "accumulator") == "hedged");
  CHECK(pol("Perhaps the kernels, i.e. the GEMMs, stall on loads.", "load") == "hedged");
  CHECK(pol("Maybe the layout of Tab. 2 causes the bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("Perhaps the method of T. J. Dettmers handles the outliers.", "outlier") == "hedged");
  CHECK(sentences("The library of Tab. 2 does not matter. It is fine.") ==
        std::vector<std::string>{"The library of Tab. 2 does not matter.", "It is fine."});
  // A sentence that ends is still a sentence: the next one is not in its scope.
  CHECK(pol("We did not profile the kernel. The allocator is slow.", "allocator") == "affirmed");
}

TEST_CASE("punctuation inside a name or a number ends no clause") {
  // Parentheses glued to the word before them are part of a name ("NF(P)", "f(x)"); a spaced one is an aside.
  CHECK(pol("The counters rose, indicating that the NF(P) interaction is sequence-specific.", "interaction") == "hedged");
  CHECK(pol("The stalls rose, indicating that softmax(x) overflows.", "overflow") == "hedged");
  CHECK(pol("The disk (not the controller) failed.", "disk") == "affirmed");
  // A minus sign glued to its number is no dash: "at -150 bp" stays in the clause.
  CHECK(pol("The results indicate that the site at -150 bp represents the main site.", "main site") == "hedged");
  CHECK(pol("Rain - not a factor.", "rain") == "negated");
  // A parenthesis right after the mention is skipped: the clause resumes after it.
  CHECK(pol("The stall (Fig. 3) is not the problem.", "stall") == "negated");
  CHECK(pol("The GATA site (AGATAA) does not bind TFIID.", "GATA site") == "affirmed");
  CHECK(pol("The prefix cache (see the trace) is not the cause.", "prefix cache") == "negated");
  CHECK(pol("The disk (not the controller) failed.", "controller") == "negated");
}

TEST_CASE("evidence, then inference: the subject of suggest, indicate, imply is stated") {
  CHECK(pol("These results suggest that bank conflicts dominate.", "result") == "affirmed");
  CHECK(pol("These results suggest that bank conflicts dominate.", "bank conflict") == "hedged");
  CHECK(pol("Low occupancy indicates that the kernel might spill registers.", "occupancy") == "affirmed");
  CHECK(pol("Low occupancy indicates that the kernel might spill registers.", "register") == "hedged");
  CHECK(pol("The finding that the cache has no effect on latency suggests a scheduler problem.", "effect") == "negated");
  // A hedge before the verb still reaches its subject; a passive hedges its subject.
  CHECK(pol("These results may suggest a scheduler problem.", "result") == "hedged");
  CHECK(pol("Bank conflicts are suggested to be the cause.", "bank conflict") == "hedged");
}

TEST_CASE("a hedge that holds the mention is none of it; a negated hedge noun denies") {
  CHECK(pol("The cause of the stall is not known.", "known") == "negated");
  CHECK(pol("The cause of the stall is not known.", "stall") == "hedged");
  CHECK(pol("No unifying hypothesis has yet emerged.", "unifying") == "negated");
  CHECK(pol("No plausible hypothesis explains the stall.", "plausible") == "negated");
}

TEST_CASE("attributive hedges and hedge nouns speak of what they qualify") {
  CHECK(pol("A putative bank conflict in the epilogue.", "bank conflict") == "hedged");
  CHECK(pol("The putative bank conflict is not required for the stall.", "required") == "negated");
  CHECK(pol("The kernel has a potential bank conflict.", "kernel") == "affirmed");
  CHECK(pol("The kernel has a potential bank conflict.", "bank conflict") == "hedged");
  CHECK(pol("The synthesis gave a protein with an apparent size of 65 kD.", "synthesis") == "affirmed");
  CHECK(pol("The apparent dual role of the cache is discussed.", "dual role") == "hedged");
  // Not hedges: a noun compound, an evident fact.
  CHECK(pol("Membrane potential changes are not involved in the activation.", "involved") == "negated");
  CHECK(pol("It became apparent that bank conflicts dominate.", "bank conflict") == "affirmed");
  // A hedge noun with its content: the words before it are stated.
  CHECK(pol("The team will investigate the possibility that the cache is cold.", "investigate") == "affirmed");
  CHECK(pol("The team will investigate the possibility that the cache is cold.", "cache") == "hedged");
  CHECK(pol("Bank conflicts are a possibility.", "bank conflict") == "hedged");
}

TEST_CASE("consistent with, suggestive of, indicative of hedge what they point to") {
  CHECK(pol("The opacity is consistent with pneumonia.", "opacity") == "affirmed");
  CHECK(pol("The opacity is consistent with pneumonia.", "pneumonia") == "hedged");
  CHECK(pol("Consistent with this short half-life, the RNA increased.", "RNA") == "affirmed");
  CHECK(pol("The replay counter is indicative of bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("The opacity is not consistent with pneumonia.", "pneumonia") == "negated");
}

TEST_CASE("a clause of its own keeps its hedges and negations") {
  // After "that": relative and complement clauses.
  CHECK(pol("They bind to the motifs with affinities that may reflect their role.", "motif") == "affirmed");
  CHECK(pol("The profile shows that the cache might be cold.", "profile") == "affirmed");
  CHECK(pol("Two variants were identified that were not observed before.", "variant") == "affirmed");
  CHECK(pol("The cache that we used is not the cause.", "cache") == "negated");
  CHECK(pol("It is the prefix cache that might be the issue.", "prefix cache") == "hedged");
  // After "and" with a subject and a verb of its own.
  CHECK(pol("The fix does not change the occupancy and a second bug might be involved.", "occupancy") == "negated");
  CHECK(pol("The fix does not change the occupancy and a second bug might be involved.", "second bug") == "hedged");
}

TEST_CASE("inquiries and held propositions hedge what they name") {
  CHECK(pol("The kernels were examined for their capacity to overlap.", "capacity") == "hedged");
  CHECK(pol("We tested for bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("We ran the soak test for 48 hours and found no memory leak.", "memory leak") == "negated");
  CHECK(pol("The trace raises questions concerning the scheduler.", "scheduler") == "hedged");
  CHECK(pol("The data support the view that the cache is cold.", "cache") == "hedged");
  CHECK(pol("We postulated that the stall is caused by the allocator.", "allocator") == "hedged");
  CHECK(pol("The region, thought to mediate dimerization, is conserved.", "dimerization") == "hedged");
  CHECK(pol("It therefore appears that the allocator is the cause.", "allocator") == "hedged");
  CHECK(pol("The stall appears not to be directly correlated with the load.", "correlated") == "hedged");
  CHECK(pol("It can be deduced that the kernel is memory bound.", "memory bound") == "hedged");
  CHECK(pol("A second allocator should be considered.", "allocator") == "hedged");
}

TEST_CASE("names with dots, signs and hyphens") {
  CHECK(pol("These results suggest that PU.1 plays a major role.", "play") == "hedged");
  CHECK(pol("The data indicate that 10(-6) M dexamethasone increased the levels.", "increased") == "hedged");
  // A "no" joined by a hyphen is part of a name ("SMX-NO", nitric oxide), not a negation.
  CHECK(pol("Haptenation by SMX-NO was reduced by glutathione.", "reduced") == "affirmed");
  CHECK(pol("There was no haptenation.", "haptenation") == "negated");
}

TEST_CASE("a hedge or a negation in another phrase of the clause") {
  // A forward hedge's noun phrase ends at a comma.
  CHECK(pol("PILOT, a putative transcription factor, requires two signals.", "signal") == "affirmed");
  CHECK(pol("PILOT, a putative transcription factor, requires two signals.", "transcription factor") == "hedged");
  // A second verb phrase's hedge: the subject's, not the first phrase's object.
  CHECK(pol("Activation results in high levels of replication and is thought to be one mechanism.", "high level") == "affirmed");
  CHECK(pol("Activation results in high levels of replication and is thought to be one mechanism.", "activation") == "hedged");
  CHECK(pol("Investigators have hypothesized that the kinase is involved.", "investigator") == "affirmed");
  CHECK(pol("Investigators have hypothesized that the kinase is involved.", "kinase") == "hedged");
  CHECK(pol("These results imply that the kinase is not required.", "result") == "affirmed");
  CHECK(pol("These results imply that the kinase is not required.", "required") == "hedged");  // an inferred denial
  // "but not B," names B alone; a prepositional cue governs its noun phrase, not the predicate.
  CHECK(pol("Degradation of c-Fos, but not v-Fos, by a phosphorylation signal.", "phosphorylation signal") == "affirmed");
  CHECK(pol("Degradation of c-Fos, but not v-Fos, by a phosphorylation signal.", "v-Fos") == "negated");
  CHECK(pol("A binding site instead of a TATA box is located in the promoter region.", "promoter region") == "affirmed");
  CHECK(pol("A binding site instead of a TATA box is located in the promoter region.", "TATA box") == "negated");
  CHECK(pol("The regression is unrelated to last week's config change.", "config change") == "negated");
  CHECK(pol("The gene was not expressed, thereby suggesting a latent form.", "latent form") == "hedged");
}

TEST_CASE("a count of zero after its verb is none; a value of zero is a value") {
  CHECK(pol("Bank conflicts are 0 after the fix.", "bank conflict") == "negated");
  CHECK(pol("Bank conflicts stay at 0.", "bank conflict") == "negated");
  CHECK(pol("Register spills remain at zero in every run.", "spill") == "negated");
  CHECK(pol("The container is not throttled: nr_throttled stays at 0 in cpu.stat.", "nr_throttled") == "negated");
  CHECK(pol("Preemptions were 0 after the fix, 12 before.", "preemption") == "affirmed");  // one count of several
  CHECK(pol("Bank conflicts were 0 before and 1.5M after.", "bank conflict") == "affirmed");
  CHECK(pol("The stride is 0.", "stride") == "affirmed");                         // a setting
  CHECK(pol("Latency is 0 ms.", "latency") == "affirmed");                        // a value with its unit
  CHECK(pol("The gradients are zero after step 100.", "gradient") == "affirmed");  // values, not a count
  CHECK(pol("The values are 0 and 1.", "value") == "affirmed");
  // Only events counted: a quantity, a setting or values at 0 are stated.
  CHECK(pol("GPU utilization stays at 0% during the stall.", "utilization") == "affirmed");
  CHECK(pol("The queue depth is at 0.", "queue depth") == "affirmed");
  CHECK(pol("The exit codes are 0.", "exit code") == "affirmed");
  CHECK(pol("The timeout stays at 0, meaning no timeout.", "timeout") == "affirmed");
  CHECK(pol("Retries are now 0.", "retry") == "negated");
  CHECK(pol("Page faults remained at zero on node 3.", "page fault") == "negated");
}

TEST_CASE("a parenthesis names the noun before it again, or is an aside before the verb") {
  CHECK(pol("The prefix cache (radix cache) is not the cause.", "radix cache") == "negated");
  CHECK(pol("The prefix cache (radix cache) is not the cause.", "prefix cache") == "negated");
  CHECK(pol("Ruled out: NCCL falling back to TCP sockets (NET/Socket).", "NET/Socket") == "negated");
  CHECK(pol("The cause is the prefix cache (radix cache).", "radix cache") == "affirmed");
  CHECK(pol("The disk (not the controller) failed.", "controller") == "negated");  // a negation: no second name
  CHECK(pol("The disk (not the controller) failed.", "disk") == "affirmed");
  CHECK(pol("The cause (probably the cache) is cold data.", "cache") == "hedged");
  // The rest of the subject's noun, then an aside in parentheses, then the verb.
  CHECK(pol("The throttling counter (38% of periods) is unrelated.", "throttling") == "negated");
  CHECK(pol("The throttling counter (38% of periods) is the cause.", "throttling") == "affirmed");
}

TEST_CASE("a capital letter that labels a thing ends its sentence; an initial does not") {
  CHECK(sentences("We did not use plan A. Plan B worked.").size() == 2);
  CHECK(pol("We did not use plan A. Plan B worked well.", "plan B") == "affirmed");
  CHECK(pol("Patients lacked vitamin D. The vitamin levels rose later.", "vitamin level") == "affirmed");
  CHECK(sentences("The table is in Appendix C. The results hold.").size() == 2);
  CHECK(sentences("The worm C. elegans has no spills.").size() == 1);
  CHECK(sentences("The paper by E. C. Lai says so.").size() == 1);
  CHECK(sentences("John F. Kennedy signed it.").size() == 1);
  CHECK(sentences("No spills in kernel A. Bank conflicts dominate.").size() == 2);
  CHECK(sentences("We did not write it in C. Python was used.").size() == 2);
  CHECK(sentences("We ruled out scenario A. the spills are the cause.").size() == 2);
  CHECK(sentences("There is no U.S. Navy base on the island.").size() == 1);
  CHECK(sentences("The flight left at 9 p.m. Rain delayed it.").size() == 2);
  CHECK(sentences("There was no 9 a.m. meeting.").size() == 1);
  CHECK(sentences("It isn't in Appendix C. Section 4 has the full derivation.").size() == 2);
  CHECK(sentences("The rack has no sensor on Node B. Fans there run at full speed.").size() == 2);
}

TEST_CASE("a phrase with an abbreviation's dot names it, written with the dot or without") {
  CHECK(pol("The worm C. elegans has 302 neurons.", "C. elegans") == "affirmed");
  CHECK(pol("The worm C. elegans has 302 neurons.", "C elegans") == "affirmed");
  CHECK(pol("No E. coli was found in the sample.", "E. coli") == "negated");
  CHECK(pol("Dr. Jones signed the report.", "Dr. Jones") == "affirmed");
  CHECK(pol("The U.S. office handles billing.", "U.S. office") == "affirmed");
  CHECK(sentences("The U.S. office handles billing.").size() == 1);
  CHECK(pol("The St. Louis site went down.", "St. Louis") == "affirmed");
}

TEST_CASE("rule families from a round of fresh sentences: terms, asides, confirmations, code labels") {
  CHECK(pol("This root cause is speculative at best.", "root cause") == "hedged");
  CHECK(pol("Speculative decoding raised the acceptance rate.", "acceptance rate") == "affirmed");
  CHECK(pol("The crash was not because of alcohol, as first assumed, but because of fatigue.", "alcohol") == "negated");
  CHECK(pol("Zero bank conflicts, 3.1x faster.", "3.1x") == "affirmed");
  CHECK(pol("The hypothesis that the NIC drops packets was confirmed by the counters.", "NIC") == "affirmed");
  CHECK(pol("The hypothesis that the NIC drops packets was never confirmed.", "NIC") == "hedged");
  CHECK(pol("The vulnerability was not known to the vendor.", "vulnerability") == "affirmed");
  CHECK(pol("The mechanism is not known.", "mechanism") == "hedged");
  CHECK(pol("The stall could not possibly come from the cache.", "cache") == "negated");
  CHECK(pol("The build log shows `spills = 0` for the kernel.", "spill") == "negated");
  // (An identifier's phrase matches it in prose; in a code span its words are read: "bank conflicts".)
  CHECK(pol("The Nsight counter reads `bank_conflicts = 0` after padding.", "bank conflicts") == "negated");
  CHECK(pol("The Nsight counter reads `bank_conflicts = 4096` before padding.", "bank conflicts") == "affirmed");
}

TEST_CASE("what was searched for and not found is denied; a theory debunked denies; a degree after 'or' is an alternative's") {
  CHECK(pol("We looked for bank conflicts; there were none.", "bank conflict") == "negated");
  CHECK(pol("We checked for bank conflicts and found none.", "bank conflict") == "negated");
  CHECK(pol("We searched the SASS for spills: nothing.", "spill") == "negated");
  CHECK(pol("We looked for bank conflicts and found 4096 of them.", "bank conflict") == "affirmed");
  CHECK(pol("We checked for bank conflicts and found 1.5 million.", "bank conflict") == "affirmed");
  CHECK(pol("I looked for the bug for hours; nothing helped.", "bug") == "affirmed");  // no finding
  CHECK(pol("We searched for spills but found nothing.", "spill") == "negated");
  CHECK(pol("I looked for spills in the SASS, but there weren't any.", "spill") == "negated");
  CHECK(pol("We looked for errors but could not find any.", "error") == "negated");
  CHECK(pol("The inspector examined the beam for cracks and found none.", "crack") == "negated");
  CHECK(pol("We looked for ECC errors on all eight GPUs; there were none.", "ECC error") == "negated");
  CHECK(pol("We looked for bank conflicts and found none in the prologue, but 1.5 million in the epilogue.",
            "bank conflict") == "affirmed");
  CHECK(pol("The bank conflict theory was debunked.", "bank conflict") == "negated");
  CHECK(pol("The stall comes from a bank conflict or low occupancy.", "occupancy") == "hedged");
  CHECK(pol("The stall comes from a bank conflict or low occupancy.", "bank conflict") == "hedged");
  CHECK(pol("Stimulation by phorbol esters or TNF alpha induces differentiation.", "alpha") == "affirmed");
}

TEST_CASE("a verb denied with only a time after it denies its subject") {
  CHECK(pol("The crash did not recur after the rollback.", "crash") == "negated");
  CHECK(pol("The crash has not recurred since.", "crash") == "negated");
  CHECK(pol("The crash did not recur in the next 48 hours.", "crash") == "negated");
  CHECK(pol("The crash never recurred after the rollback.", "crash") == "negated");
  CHECK(pol("The errors did not recur on the new nodes.", "error") == "negated");
  CHECK(pol("Throughput does not change.", "throughput") == "negated");  // the project corpus's reading
  CHECK(pol("The pain did not stop after the dose.", "pain") == "affirmed");  // a verb of ending
  CHECK(pol("The prefix cache does not evict the sink blocks.", "prefix cache") == "affirmed");
}

TEST_CASE("a table row's verdict judges what the row names, not the figures measured beside it") {
  const std::string table = "| Cause | Evidence | Verdict |\n|---|---|---|\n| GC pauses | p99 pause 1.2 ms | ruled out |\n";
  CHECK(pol(table, "GC pauses") == "negated");
  CHECK(pol(table, "1.2 ms") == "affirmed");
  CHECK(pol("| Counter | Value |\n|---|---|\n| Bank conflicts | 0 |\n", "bank conflicts") == "negated");
  // Words of evidence too; a header that names the judged column decides which it is.
  CHECK(pol(table, "p99 pause") == "affirmed");
  const std::string dx = "| Test | Diagnosis | Result |\n|---|---|---|\n| CT angiogram | pulmonary embolism | ruled out |\n";
  CHECK(pol(dx, "pulmonary embolism") == "negated");
  CHECK(pol(dx, "CT angiogram") == "affirmed");
}

TEST_CASE("boundaries: 'has no' denies what is had; a role's filler in parentheses is no second name") {
  CHECK(pol("The patient has no fever.", "patient") == "affirmed");
  CHECK(pol("The patient has no fever.", "fever") == "negated");
  CHECK(pol("The kernel has no spills.", "kernel") == "affirmed");
  CHECK(pol("The allocator is no bottleneck.", "allocator") == "negated");
  CHECK(pol("The cause (bank conflicts) is not the scheduler.", "bank conflicts") == "affirmed");
  CHECK(pol("The prefix cache (or radix cache) is not the cause.", "radix cache") == "negated");
  CHECK(pol("The fork is far too quick to explain the spikes.", "fork") == "negated");
  CHECK(pol("The fork is fast enough not to matter.", "fork") == "negated");
  CHECK(pol("The fork is quick enough that it does not matter.", "fork") == "negated");
  CHECK(pol("The tile is too small to fit the fragment.", "tile") == "affirmed");
  CHECK(pol("num_stages=1 is fine for a kernel this large.", "num_stages") == "negated");
  CHECK(pol("The PR is OK to merge once CI passes.", "PR") == "affirmed");
}

TEST_CASE("refuting in the active and the passive, a proposition disproven, an emphatic 'possibly'") {
  CHECK(pol("We refuted the bank conflicts hypothesis with ncu.", "bank conflicts") == "negated");
  CHECK(pol("Rumours of a merger were refuted by the CEO.", "CEO") == "affirmed");
  CHECK(pol("The hypothesis that bank conflicts cause the stall was disproven by the counters.", "bank conflicts") == "negated");
  CHECK(pol("The claim that vaccines cause autism has been thoroughly discredited.", "vaccines") == "negated");
  CHECK(pol("The suspicion that the NIC drops packets was later confirmed.", "NIC") == "affirmed");
  CHECK(pol("The hypothesis that the NIC drops packets is being confirmed.", "NIC") == "hedged");
  CHECK(pol("The prefix cache cannot possibly cause this.", "prefix cache") == "negated");
  CHECK(pol("The prefix cache couldn't possibly be the cause.", "prefix cache") == "negated");
}

TEST_CASE("a cell under a header that names candidates is a candidate unless its row's verdict decides") {
  const std::string t = "| Hypothesis | Test | Outcome |\n|---|---|---|\n| missing no_sync | added it | same divergence |\n"
                        "| loss not scaled | divided by accum_steps | confirmed |\n| bad learning rate | halved it | ruled out |\n";
  CHECK(pol(t, "no_sync") == "hedged");
  CHECK(pol(t, "loss") == "affirmed");
  CHECK(pol(t, "learning rate") == "negated");
  CHECK(pol(t, "accum_steps") == "affirmed");  // evidence beside it
}

TEST_CASE("what did nothing had no part") {
  CHECK(pol("Eliminating the bank conflict did nothing; occupancy is the cause.", "bank conflict") == "negated");
  CHECK(pol("Padding made no difference.", "padding") == "negated");
  CHECK(pol("The kernel did nothing wrong with the padding.", "kernel") == "affirmed");
}

TEST_CASE("a correction spliced on, a recommendation, a design proposed") {
  CHECK(pol("The culprit was not the cache, it was the scheduler.", "culprit") == "affirmed");
  CHECK(pol("The culprit was not the cache, it was the scheduler.", "cache") == "negated");
  CHECK(pol("The README suggests using the flag for multi-node runs.", "flag") == "affirmed");
  CHECK(pol("We propose a new adapter that halves the memory.", "adapter") == "affirmed");
  CHECK(pol("We propose a model in which the adapter halves the memory.", "model") == "hedged");
  CHECK(pol("We propose that the adapter halves the memory.", "adapter") == "hedged");
}

TEST_CASE("what a model assumes is hedged, the model stated") {
  CHECK(pol("The model assumes that arrivals are uniform across the day.", "uniform") == "hedged");
  CHECK(pol("The model assumes that arrivals are uniform across the day.", "model") == "affirmed");
  CHECK(pol("The cache is assumed to be cold.", "cache") == "hedged");
}

TEST_CASE("false positives of the rules above, kept away") {
  CHECK(pol("GC pauses are too short to explain the stall.", "stall") == "affirmed");
  CHECK(pol("GC pauses are too short to explain the stall.", "GC pause") == "negated");
  CHECK(pol("The aircraft were too far apart to trigger a TCAS alert.", "TCAS alert") == "negated");
  CHECK(pol("The leak is too slow to notice in a short run.", "leak") == "affirmed");
  CHECK(pol("The retry logic did nothing about the thundering herd.", "thundering herd") == "affirmed");
  CHECK(pol("I know nothing about the fate of this man.", "fate") == "negated");
  CHECK(pol("The GPU did nothing for 40% of the step.", "GPU") == "affirmed");
  CHECK(pol("The kernel (per Nsight Compute) does not spill.", "Nsight Compute") == "affirmed");
  CHECK(pol("We found bank conflicts in layer 12; nothing in earlier layers.", "bank conflict") == "affirmed");
  CHECK(pol("We checked for packet loss and found plenty.", "packet loss") == "affirmed");
}

TEST_CASE("a table cell that answers another question is no verdict on what the row names") {
  CHECK(pol("| Issue | Fix |\n|---|---|\n| bank conflicts | none |\n", "bank conflicts") == "affirmed");
  CHECK(pol("| Metric | Before | After |\n|---|---|---|\n| bank conflicts | 1.5M | 0 |\n", "bank conflicts") == "affirmed");
  CHECK(pol("| Flag | Default | Used |\n|---|---|---|\n| chunked prefill | off | on |\n", "chunked prefill") == "affirmed");
  CHECK(pol("| Bug | Owner | Fixed? |\n|---|---|---|\n| leak in the allocator | Bob | no |\n", "leak") == "affirmed");
  CHECK(pol("| Cause | Fix | Verdict |\n|---|---|---|\n| bank conflicts | padding | ruled out |\n", "bank conflicts") == "negated");
}

TEST_CASE("an aside right after an auxiliary does not end its clause") {
  CHECK(pol("The kernel may (on the H100 only) spill registers to local memory.", "registers") == "hedged");
  CHECK(pol("The step time might (as the trace hints) depend on stragglers.", "stragglers") == "hedged");
  CHECK(pol("The larger tile might — at 256 threads — reduce occupancy.", "occupancy") == "hedged");
  CHECK(pol("The larger tile might - at 256 threads - reduce occupancy.", "occupancy") == "hedged");
  CHECK(pol("The kernel may, e.g., spill registers under high unroll.", "registers") == "hedged");
  CHECK(pol("The larger tile may, for example, reduce occupancy.", "occupancy") == "hedged");
  CHECK(pol("The kernel does not (in our runs) spill registers.", "registers") == "negated");
  CHECK(pol("The larger tile would probably therefore reduce occupancy.", "occupancy") == "hedged");
  CHECK(pol("The larger tile might also therefore reduce occupancy.", "occupancy") == "hedged");
  // Not after an auxiliary, or not closed before a word: the clause ends as before.
  CHECK(pol("The tile is large (256 threads) and occupancy drops.", "occupancy") == "affirmed");
  CHECK(pol("The kernel may (see the appendix). The spill is real.", "spill") == "affirmed");
  CHECK(pol("The scheduler might stall - the allocator leaks.", "allocator") == "affirmed");
}

TEST_CASE("after a negation, 'and' opens a clause of its own: a subject of several words, a second predicate") {
  CHECK(pol("The prefill does not fit in one step and the decode batch waits for it.", "decode batch") == "affirmed");
  CHECK(pol("No tensor cores are used and the fallback kernel runs in fp32.", "fallback kernel") == "affirmed");
  CHECK(pol("We did not change the optimizer and the loss still diverges at step 900.", "loss") == "affirmed");
  CHECK(pol("The shop refused to give a refund and offered store credit.", "store credit") == "affirmed");
  CHECK(pol("The team did not rerun the job and reported the old numbers.", "old numbers") == "affirmed");
  // A list of what was not seen, and plurals after the coordinator, stay denied.
  CHECK(pol("We did not see bank conflicts and related stalls.", "stalls") == "negated");
  CHECK(pol("There were no spills and no bank conflicts.", "bank conflicts") == "negated");
  CHECK(pol("The trace shows no stalls and the dirty pages.", "stalls") == "negated");
}

TEST_CASE("two alternative clauses hedge the first whatever its verb") {
  CHECK(pol("Root cause: the prefix cache was flushed or the router sent the turn to another replica.", "prefix cache") == "hedged");
  CHECK(pol("Root cause: the sink blocks are evicted or the scheduler recomputes the prefix.", "sink blocks") == "hedged");
  CHECK(pol("The job was killed or the node rebooted.", "job") == "hedged");
  CHECK(pol("The draft head degraded or num_speculative_tokens was raised to 7.", "draft head") == "hedged");
  // Two verbs of one subject, or a noun after "or", are no second clause.
  CHECK(pol("The prefix cache was flushed or evicted.", "prefix cache") == "affirmed");
  CHECK(pol("The test was run with batch 8 or the default batch size.", "test") == "affirmed");
}

TEST_CASE("a role doubted by its adjective, an expectation, a candidate and a possibility denied") {
  CHECK(pol("The copy is the presumed bottleneck.", "copy") == "hedged");
  CHECK(pol("Contention on the lock is the assumed cause.", "contention") == "hedged");
  CHECK(pol("Contention on the lock is the hypothesized cause.", "contention") == "hedged");
  CHECK(pol("Contention on the lock is the confirmed cause.", "contention") == "affirmed");
  CHECK(pol("It is expected that one hot expert dominates the routing.", "hot expert") == "hedged");
  CHECK(pol("The stall was longer than expected.", "stall") == "affirmed");
  CHECK(pol("The Medusa heads propose three candidate continuations per step.", "Medusa heads") == "affirmed");
  CHECK(pol("The Medusa heads propose three candidate continuations per step.", "continuations") == "hedged");
  CHECK(pol("The copy is a candidate cause.", "copy") == "hedged");
  CHECK(pol("It is not possible that the kernel could spill.", "spill") == "negated");
  CHECK(pol("It is possible that the kernel could spill.", "spill") == "hedged");
}

TEST_CASE("a determiner negation's noun phrase ends at a comma a preposition follows") {
  CHECK(pol("The drinks are served without ice, at room temperature.", "room temperature") == "affirmed");
  CHECK(pol("The drinks are served without ice, lemon or sugar.", "lemon") == "negated");
  CHECK(pol("The kernel runs without bank conflicts, cache misses or spills.", "cache misses") == "negated");
  CHECK(pol("There were no spills, in any run.", "run") == "affirmed");
}

TEST_CASE("a phrase written as code finds it in a code span, with its sentence's polarity") {
  CHECK(pol("The fix does not need `NCCL_P2P_DISABLE=1`.", "NCCL_P2P_DISABLE=1") == "negated");
  CHECK(pol("The fix does not need `NCCL_P2P_DISABLE=1`.", "NCCL_P2P_DISABLE") == "negated");
  CHECK(pol("Perhaps `max_num_seqs=256` is too high for this card.", "max_num_seqs") == "hedged");
  CHECK(pol("Do not pass `--num-gpu-blocks-override`; it hides the real pool size.", "--num-gpu-blocks-override") == "negated");
  CHECK(pol("The kernel has no `__launch_bounds__`, so ptxas picks 128 registers.", "__launch_bounds__") == "negated");
  CHECK(pol("We keep `--gpu-memory-utilization 0.9` and lower the context.", "gpu-memory-utilization 0.9") == "affirmed");
  CHECK(pol("We keep `--gpu-memory-utilization 0.9` and lower the context.", "gpu-memory-utilization 9") == "absent");
  CHECK(pol("Use `std::vector` for the pool.", "std::vector") == "affirmed");
  CHECK(pol("We set dA_cumsum to fp32.", "dA_cumsum") == "affirmed");  // written bare: one word
  // The identifier's words in plain prose are no identifier.
  CHECK(pol("The dA cumsum overflows in bf16.", "dA_cumsum") == "absent");
  CHECK(pol("Bank conflicts show up in the profile.", "bank_conflicts") == "absent");
}

TEST_CASE("asides with flags, clauses and adverbs; clauses whose verb ends them; possibilities denied") {
  CHECK(pol("The compiler may (with -O3) introduce register spills.", "register spills") == "hedged");
  CHECK(pol("The compiler may — with -O3 — introduce register spills.", "register spills") == "hedged");
  CHECK(pol("The patch should — in theory — lower the tail latency.", "tail latency") == "hedged");
  CHECK(pol("The router could also (on a cache miss) skip the prefix cache.", "prefix cache") == "hedged");
  CHECK(pol("The fix may (see the ncu report in appendix B, which shows 48 registers per thread) lower occupancy.",
            "occupancy") == "hedged");
  CHECK(pol("The larger tile would most likely therefore reduce occupancy.", "occupancy") == "hedged");
  CHECK(pol("The router does not split long prompts and the decode batch waits.", "decode batch") == "affirmed");
  CHECK(pol("We did not clip gradients and the loss diverges.", "loss") == "affirmed");
  CHECK(pol("The loop is not unrolled and the warps stall on the barrier.", "warps") == "affirmed");
  CHECK(pol("Nothing is evicted and the scheduler simply waits.", "scheduler") == "affirmed");
  CHECK(pol("The trace shows no evictions and the dirty pages.", "dirty pages") == "negated");
  CHECK(pol("It is not possible that the prefix cache could hold 32k tokens.", "prefix cache") == "negated");
  CHECK(pol("It's impossible that the prefix cache holds 32k tokens.", "prefix cache") == "negated");
  CHECK(pol("The prefix cache could hold 32k tokens.", "prefix cache") == "hedged");
}

TEST_CASE("a without-phrase ends before 'into', alternatives after ', or', a doubted role after 'our', an irregular second predicate") {
  CHECK(pol("The tile was written without padding, into shared memory.", "shared memory") == "affirmed");
  CHECK(pol("The tile was written without padding, into shared memory.", "padding") == "negated");
  CHECK(pol("Root cause: the cache was cold, or the router misrouted the request.", "cache") == "hedged");
  CHECK(pol("The allocator is our assumed bottleneck.", "allocator") == "hedged");
  CHECK(pol("We did not upgrade CUDA and kept the old driver.", "old driver") == "affirmed");
}
