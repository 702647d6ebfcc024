// Polarity rule families found on the public development corpora (*SEM 2012 training and
// development stories, BioScope abstracts): where a negation's reach ends, and the modals and
// reporting forms that hedge only in some uses. Each family has cases that must and must not change.
#include <doctest/doctest.h>

#include "operators/text/claims.hpp"
#include "operators/text/concept.hpp"
#include "tests/text/polarity_cases.hpp"

using namespace rubric::text;
using rubric::text::cases::pol;

TEST_CASE("a complement clause with a subject of its own keeps its negation") {
  CHECK(pol("He said that there were no traces upon the ground.", "said") == "affirmed");
  CHECK(pol("He said that there were no traces upon the ground.", "traces") == "negated");
  CHECK(pol("The profile shows that the kernel does not spill.", "profile") == "affirmed");
  CHECK(pol("He took particular care that Sir Henry did not make love to her.", "care") == "affirmed");
  CHECK(pol("We found that nothing was evicted.", "found") == "affirmed");
  // A relative clause with a verb before the auxiliary is not one: the main verb's negation stands.
  CHECK(pol("The cache that we used is not the cause.", "cache") == "negated");
  CHECK(pol("The prefix cache is not the cause.", "prefix cache") == "negated");
}

TEST_CASE("an existential 'there' after the mention is a subject of its own") {
  CHECK(pol("For the decode phase there is no bank conflict.", "decode phase") == "affirmed");
  CHECK(pol("For the decode phase there is no bank conflict.", "bank conflict") == "negated");
  CHECK(pol("Over the wide expanse there was no sound.", "expanse") == "affirmed");
}

TEST_CASE("a comparison or a cause denied leaves what is compared or caused stated") {
  CHECK(pol("Plasma cortisol was not different in the two groups.", "cortisol") == "affirmed");
  CHECK(pol("The binding affinity was not significantly different between patients and controls.", "binding affinity") ==
        "affirmed");
  CHECK(pol("The slowdown is not caused by the prefix cache.", "slowdown") == "affirmed");
  CHECK(pol("The slowdown is not caused by the prefix cache.", "prefix cache") == "negated");
  CHECK(pol("The inhibition was not due to toxicity.", "inhibition") == "affirmed");
  CHECK(pol("The inhibition was not due to toxicity.", "toxicity") == "negated");
  // Other predicates still deny their subject.
  CHECK(pol("Tyrosine kinases are not required for the translocation.", "tyrosine kinase") == "negated");
  CHECK(pol("The prefix cache is not involved.", "prefix cache") == "negated");
}

TEST_CASE("'until', ', for he ...', 'not yet' and 'not so' bound a negation's reach") {
  CHECK(pol("I walked on without seeing anyone, until I came to the gate.", "came") == "affirmed");
  CHECK(pol("I walked on without seeing anyone, until I came to the gate.", "seeing") == "negated");
  CHECK(pol("I had never seen the Hall, for he lived in a little cottage.", "lived") == "affirmed");
  CHECK(pol("I had never seen the Hall, for he lived in a little cottage.", "Hall") == "negated");
  CHECK(pol("We have not yet seen bank conflicts.", "bank conflicts") == "negated");
  CHECK(pol("We are not so far wrong.", "wrong") == "negated");
  // "yet" and "so" still end a scope when they contrast or conclude.
  CHECK(pol("There is no fever, yet the cough persists.", "cough") == "affirmed");
  CHECK(pol("No bank conflicts remain, so the kernel is fast.", "kernel") == "affirmed");
}

TEST_CASE("'without' and 'lacking' govern a noun phrase; a participle after a comma opens a clause") {
  CHECK(pol("Some people without possessing genius have a remarkable power of stimulating it.", "power") == "affirmed");
  CHECK(pol("Users without a GPU have to wait.", "wait") == "affirmed");
  CHECK(pol("Users without a GPU have to wait.", "GPU") == "negated");
  CHECK(pol("The virus was bound to the surface without being internalized.", "internalized") == "negated");
  CHECK(pol("Mice lacking Rel are defective in activation of lymphocytes.", "lymphocytes") == "affirmed");
  CHECK(pol("Mice lacking Rel are defective in activation of lymphocytes.", "Rel") == "negated");
  CHECK(pol("He never paused for an instant, bounding from tuft to tuft.", "bounding") == "affirmed");
  CHECK(pol("No vomiting, sweating or chills.", "sweating") == "negated");
}

TEST_CASE("'A but not B' names B; the verb after it is the sentence's predicate") {
  CHECK(pol("OTF-2 but not OTF-1 regulates the DRA gene.", "regulates") == "affirmed");
  CHECK(pol("OTF-2 but not OTF-1 regulates the DRA gene.", "OTF-1") == "negated");
  CHECK(pol("Cortisol but not tetrahydrocortisol inhibited expression of ELAM-1.", "inhibited") == "affirmed");
  // A participle that qualifies B is B's.
  CHECK(pol("Nuclear factors from unstimulated, but not from activated cells, bound a site.", "activated") == "negated");
  CHECK(pol("It binds wild-type but not mutated APC protein.", "mutated") == "negated");
}

TEST_CASE("pseudo-triggers: 'none the less', 'never anything but', 'only too'") {
  CHECK(pol("It has none the less presented surprising difficulties.", "surprising") == "affirmed");
  CHECK(pol("I was never anything but a tool in his hands.", "tool") == "affirmed");
  CHECK(pol("I was only too glad to get out of such a house.", "get") == "affirmed");
  CHECK(pol("The tile is too small to need padding.", "padding") == "negated");
}

TEST_CASE("a hypothetical 'would' hedges; the writer's own 'I would' and 'would not' do not") {
  CHECK(pol("Another defeat would leave them facing relegation.", "relegation") == "hedged");
  CHECK(pol("It would be nice to have a bigger screen.", "bigger screen") == "hedged");
  CHECK(pol("Loss of heterozygosity would be masked by normal granulocytes.", "masked") == "hedged");
  CHECK(pol("I would definitely recommend this blender.", "blender") == "affirmed");
  CHECK(pol("I would not recommend this blender to anyone.", "recommend") == "negated");
  CHECK(pol("Red wine left stains that would not wash out.", "stains") == "affirmed");
  CHECK(pol("It would be wrong to blame the prefix cache.", "prefix cache") == "negated");
  CHECK(pol("Suspecting the prefix cache would be misguided.", "prefix cache") == "negated");
}

TEST_CASE("'should' of expectation hedges; 'should' of advice states") {
  CHECK(pol("These findings should be useful for therapeutic strategies.", "therapeutic strategies") == "hedged");
  CHECK(pol("Further characterization should shed light on the mechanism.", "mechanism") == "hedged");
  CHECK(pol("The fix should reduce the stall.", "stall") == "hedged");
  CHECK(pol("We should increase the batch size.", "increase the batch size") == "affirmed");
  CHECK(pol("The kernel should use shared memory.", "shared memory") == "affirmed");
  CHECK(pol("We should not increase the batch size.", "increase the batch size") == "negated");
}

TEST_CASE("'appear' before an adjective hedges; an appearance in a place is stated") {
  CHECK(pol("These cell lines appear resistant to lysis.", "lysis") == "hedged");
  CHECK(pol("The region appeared critical for promoter activity.", "promoter activity") == "hedged");
  CHECK(pol("This pathway appears as a crucial step in activation.", "crucial step") == "hedged");
  CHECK(pol("The error appeared in the log after the restart.", "log") == "affirmed");
}

TEST_CASE("another's view in the passive, an estimate and a proposal hedge what they hold") {
  CHECK(pol("The suppression test is considered an indicator of adrenal function.", "indicator") == "hedged");
  CHECK(pol("The cytokines are considered to mediate granuloma formation.", "granuloma formation") == "hedged");
  CHECK(pol("It is generally believed that the lineage matures along a neuronal pathway.", "neuronal pathway") == "hedged");
  CHECK(pol("The NM23 gene has been proposed as a suppressor gene.", "suppressor gene") == "hedged");
  CHECK(pol("Based on these results we estimate a 5-10% difference in virus production.", "virus production") == "hedged");
  CHECK(pol("These findings highlight the potential for an interplay between the pathways.", "interplay") == "hedged");
  CHECK(pol("The data support the proposal that lipoproteins initiate activation.", "lipoproteins") == "hedged");
  // Discussed is not held; a term is no estimate.
  CHECK(pol("The implications for receptor signaling are considered.", "receptor signaling") == "affirmed");
  CHECK(pol("The maximum likelihood estimate of the rate is biased.", "rate") == "affirmed");
  CHECK(pol("The idea that the index is wrong came from the logs.", "index") == "affirmed");
}

TEST_CASE("a clause opened by 'whether' keeps its hedges; 'we could detect' is an ability exercised") {
  CHECK(pol("We wished to determine whether T3SO4 could mimic the hormone.", "determine") == "affirmed");
  CHECK(pol("We wished to determine whether T3SO4 could mimic the hormone.", "hormone") == "hedged");
  CHECK(pol("In treated cells we could detect three initiation sites.", "initiation sites") == "affirmed");
  CHECK(pol("Bank conflicts could explain the stall.", "stall") == "hedged");
  CHECK(pol("We could increase the batch size.", "increase the batch size") == "hedged");
}

TEST_CASE("'the possible X' qualifies its noun phrase; 'X is a possible Y' still hedges X") {
  CHECK(pol("In this review we evaluate the possible role of transcription factors.", "evaluate") == "affirmed");
  CHECK(pol("In this review we evaluate the possible role of transcription factors.", "role") == "hedged");
  CHECK(pol("Register pressure is a possible explanation.", "register pressure") == "hedged");
  CHECK(pol("It is possible that the cache is cold.", "cache") == "hedged");
}

TEST_CASE("another's belief, a hope or a wish with its clause hedges it; the writer's 'I think' states") {
  CHECK(pol("My wife thinks the fan is too loud.", "fan") == "hedged");
  CHECK(pol("They believe that the cache is cold.", "cache") == "hedged");
  CHECK(pol("I think the cache is cold.", "cache") == "affirmed");
  CHECK(pol("I hope that you will come also.", "come") == "hedged");
  CHECK(pol("I wish it had a remote control.", "remote control") == "hedged");
  CHECK(pol("I wish you to drive to Merripit House.", "drive") == "affirmed");  // an order
  CHECK(pol("The case is supposed to be waterproof.", "waterproof") == "hedged");
  CHECK(pol("It was not so, and he gave him a considerable part of his wardrobe.", "part") == "affirmed");
}

TEST_CASE("an infinitive after a negation cue reaches its object; a prepositional cue governs a noun phrase") {
  CHECK(pol("Her father refused to have the money.", "money") == "negated");
  CHECK(pol("The driver failed to be loaded at boot.", "loaded") == "negated");
  CHECK(pol("A binding site instead of a TATA box is located in the promoter region.", "promoter region") == "affirmed");
  CHECK(pol("The slowdown is unrelated to the cache and is caused by the scheduler.", "scheduler") == "affirmed");
}

TEST_CASE("what is not known is hedged past its wh-word; an adverb set off inside a modal's clause") {
  CHECK(pol("It is not known which protein activates the site.", "protein") == "hedged");
  CHECK(pol("It is unclear at which point the cells are arrested.", "cells") == "hedged");
  CHECK(pol("The kernel, which we profiled, is fast.", "kernel") == "affirmed");
  CHECK(pol("A hitherto unknown hormone may, thus, be responsible for the hypertension.", "responsible") == "hedged");
}

TEST_CASE("a time or a place right after 'not' is what is denied; 'not been yet' keeps the negation") {
  std::string t = "The hit rate rises after the second request, but not after the first request.";
  CHECK(pol(t, "first request") == "negated");
  CHECK(pol(t, "second request") == "affirmed");
  CHECK(pol("The stall appears when the batch is full, not when the queue is empty.", "queue") == "negated");
  CHECK(pol("Not after the warm-up, at least.", "warm-up") == "negated");
  CHECK(pol("The cause has not been yet identified.", "identified") == "negated");
  // A terminator elsewhere still ends the scope.
  CHECK(pol("The kernel did not stall after the fix was applied.", "fix") == "affirmed");
}

TEST_CASE("'absent' before its noun and 'failure to' deny; a noun phrase of its own after 'no X and'") {
  CHECK(pol("The profile shows absent tensor core activity.", "tensor core") == "negated");
  CHECK(pol("Counters show reduced or absent L2 hits.", "L2 hits") == "negated");
  CHECK(pol("Tensor core activity is absent in the fp32 path.", "fp32 path") == "affirmed");
  CHECK(pol("Tensor core activity is absent in the fp32 path.", "tensor core") == "negated");
  CHECK(pol("The failure to evict the sink blocks caused the OOM.", "evict") == "negated");
  CHECK(pol("The failure to evict the sink blocks caused the OOM.", "OOM") == "affirmed");
  // After "no", an article or a count opens a noun phrase the negation does not reach.
  CHECK(pol("We saw no spills and 12 stalls.", "stalls") == "affirmed");
  CHECK(pol("There were no spills and a long stall in the epilogue.", "stall") == "affirmed");
  CHECK(pol("We saw no spills and no stalls.", "stalls") == "negated");
  CHECK(pol("There are no spills or stalls.", "stalls") == "negated");
  CHECK(pol("A node without a GPU and a monitor.", "monitor") == "negated");
  CHECK(pol("Nodes without a GPU and 2 nodes with one.", "nodes with one") == "affirmed");
}

TEST_CASE("a concession inside an inferred clause is inferred too; enumerators and 'either' of each") {
  std::string t = "These results suggest that, while padding removes the conflicts, occupancy still limits the kernel.";
  CHECK(pol(t, "padding") == "hedged");
  CHECK(pol(t, "occupancy") == "hedged");
  CHECK(pol(t, "results") == "affirmed");
  CHECK(pol("While padding removes the conflicts, occupancy still limits the kernel.", "occupancy") == "affirmed");
  // "(i)", "(2)" list the parts of one clause.
  CHECK(pol("The patch may (i) pad the tile and (ii) unroll the loop.", "pad the tile") == "hedged");
  CHECK(pol("The fix (1) pads the tile and (2) unrolls the loop.", "unrolls") == "affirmed");
  CHECK(pol("The stall (see the profile) is real.", "profile") == "affirmed");
  // "either" of each of two is no alternative.
  CHECK(pol("Barriers sit on either side of the store.", "store") == "affirmed");
  CHECK(pol("Either the cache or the scheduler stalls.", "cache") == "hedged");
}

TEST_CASE("a fronted phrase before the writer's estimate or an agreement with a finding is stated") {
  std::string t = "Based on the nsys trace we estimate a 5% loss from launch overhead.";
  CHECK(pol(t, "nsys trace") == "affirmed");
  CHECK(pol(t, "launch overhead") == "hedged");
  std::string c = "Consistent with the replay counter, the kernel stalls on shared stores.";
  CHECK(pol(c, "replay counter") == "affirmed");
  CHECK(pol(c, "shared stores") == "affirmed");
  CHECK(pol("The drift is consistent with a race in the reduction.", "race") == "hedged");
  CHECK(pol("Consistent with a race in the reduction.", "race") == "hedged");
  // A hedge right after "and" opens a second verb phrase: the first phrase stays stated.
  std::string v = "The pool is sized at 2 GB and perhaps too small for long prompts.";
  CHECK(pol(v, "sized") == "affirmed");
  CHECK(pol(v, "long prompts") == "hedged");
  CHECK(pol("The region is termed the epilogue and appears to stall.", "termed") == "affirmed");
}

TEST_CASE("a finding's source, a contrast and an attributive adjective end or escape a negation") {
  std::string t = "The kernel has no bank conflicts as measured by ncu.";
  CHECK(pol(t, "bank conflicts") == "negated");
  CHECK(pol(t, "ncu") == "affirmed");
  CHECK(pol("The pool shows no fragmentation, in contrast to the old allocator.", "old allocator") == "affirmed");
  CHECK(pol("The pool shows no fragmentation, in contrast to the old allocator.", "fragmentation") == "negated");
  std::string a = "Fused, and not split, kernels remove the launch overhead.";
  CHECK(pol(a, "split") == "negated");
  CHECK(pol(a, "launch overhead") == "affirmed");
  CHECK(pol("Similar stalls are seen with the unrelated allocator.", "seen") == "affirmed");
  CHECK(pol("The allocator is unrelated.", "allocator") == "negated");
  // A profile that does not show X names the profile; what does not show up is denied.
  CHECK(pol("The profile does not show bank conflicts.", "profile") == "affirmed");
  CHECK(pol("The profile does not show bank conflicts.", "bank conflicts") == "negated");
  CHECK(pol("The race does not show up under the sanitizer.", "race") == "negated");
}

TEST_CASE("after 'X is not', a free relative names the role denied to X") {
  std::string t = "LRU eviction is not what causes the recomputation; the chunked prefill is.";
  CHECK(pol(t, "LRU eviction") == "negated");
  CHECK(pol(t, "recomputation") == "affirmed");
  CHECK(pol("The allocator is not who holds the lock.", "lock") == "affirmed");
  CHECK(pol("It is not what we know, but what we can prove.", "know") == "negated");
  CHECK(pol("The stall is not caused by the allocator.", "allocator") == "negated");
}

TEST_CASE("a clause after 'and' whose subject is the mention is out of an earlier negation's reach") {
  CHECK(pol("Nobody flushed the queue and the buffer was dropped.", "buffer") == "affirmed");
  CHECK(pol("No one pinned the memory and the transfer stalled on every step.", "transfer") == "affirmed");
  CHECK(pol("The log says not a regression and the rollback happened anyway.", "rollback") == "affirmed");
  // A list under one negation stays denied.
  CHECK(pol("No spills or stalls were seen.", "stall") == "negated");
  CHECK(pol("We saw no spills and no stalls.", "stall") == "negated");
}

TEST_CASE("words of extent, of taking on and the month are no hedges") {
  CHECK(pol("The kernel reaches the largest tile size possible on Hopper.", "tile size") == "affirmed");
  CHECK(pol("We profiled all possible block shapes.", "block shape") == "affirmed");
  CHECK(pol("A larger tile is possible.", "tile") == "hedged");
  CHECK(pol("The platform team assumed ownership of the scheduler.", "scheduler") == "affirmed");
  CHECK(pol("We assumed the scheduler was idle.", "scheduler") == "hedged");
  CHECK(pol("The regression appeared in May after the driver update.", "driver update") == "affirmed");
  CHECK(pol("The regression may come from the driver update.", "driver update") == "hedged");
}

TEST_CASE("phrases on a subject and an appositive keep the subject's negation") {
  CHECK(pol("The spike at step 400 of the second run is not the cause.", "spike") == "negated");
  CHECK(pol("The copy between host and device was never the bottleneck.", "copy") == "negated");
  CHECK(pol("The cache, the one the router fills, is not the problem.", "cache") == "negated");
  // A phrase that holds a verb of its own is a clause: its subject's negation is its own.
  CHECK(pol("The run that we repeated is not slower.", "run") == "negated");
  CHECK(pol("We moved the copy to the host and the device is not idle.", "copy") == "affirmed");
}

TEST_CASE("a fronted 'without' phrase, alternatives and a contrast set off by commas end at their comma") {
  CHECK(pol("Without pinned memory, each copy stalls the stream.", "stream") == "affirmed");
  CHECK(pol("Without pinned memory, each copy stalls the stream.", "pinned memory") == "negated");
  CHECK(pol("With or without tensor cores, the epilogue dominates.", "tensor core") == "affirmed");
  CHECK(pol("Whether or not the prefix is cached, prefill takes 40 ms.", "prefill") == "affirmed");
  CHECK(pol("Prefix cached or not, prefill takes 40 ms.", "prefill") == "affirmed");
  CHECK(pol("Shard by rows, not by columns, for the embedding table.", "embedding table") == "affirmed");
  CHECK(pol("Shard by rows, not by columns, for the embedding table.", "column") == "negated");
  CHECK(pol("We ran the sweep without padding or swizzling.", "swizzling") == "negated");
}

TEST_CASE("a modal's copula, a perfect and a verb of showing decide whose the negation is") {
  CHECK(pol("The PCIe link can't be the limiter here.", "PCIe link") == "negated");
  CHECK(pol("The scheduler won't be the problem after the change.", "scheduler") == "negated");
  CHECK(pol("The allocator can never be the hot spot at batch 1.", "allocator") == "negated");
  CHECK(pol("The new driver couldn't have caused the hang.", "driver") == "negated");
  CHECK(pol("The timeline shows the copy engine is not busy.", "timeline") == "affirmed");
  CHECK(pol("The timeline shows the copy engine is not busy.", "copy engine") == "negated");
  CHECK(pol("The counters confirmed the L2 wasn't thrashing.", "counter") == "affirmed");
  CHECK(pol("The trace does not show a stall.", "stall") == "negated");
}

TEST_CASE("an aside after a negation and a list the mention opens keep the negation") {
  CHECK(pol("We have not, so far, hit an OOM.", "OOM") == "negated");
  CHECK(pol("The kernel did not, after the fix, spill registers.", "register") == "negated");
  CHECK(pol("The router, the tokenizer and the sampler were ruled out.", "router") == "negated");
  CHECK(pol("The router, the tokenizer and the sampler were ruled out.", "sampler") == "negated");
}

TEST_CASE("hedges of chance, guesses and fronted adverbs; a recommended fix is stated") {
  CHECK(pol("There's a chance the stall comes from the allocator.", "allocator") == "hedged");
  CHECK(pol("Chances are the link is saturated.", "link") == "hedged");
  CHECK(pol("My bet is the tokenizer.", "tokenizer") == "hedged");
  CHECK(pol("Our working theory is that the pool fragments.", "pool") == "hedged");
  CHECK(pol("Perhaps, the pool fragments under churn.", "pool") == "hedged");
  CHECK(pol("Conceivably, the router drops requests.", "router") == "hedged");
  CHECK(pol("We tentatively blame the sampler.", "sampler") == "hedged");
  CHECK(pol("The suggested fix is to shard the embedding.", "embedding") == "affirmed");
  CHECK(pol("It was suggested that the embedding is too large.", "embedding") == "hedged");
  CHECK(pol("We had a chance to profile the decode.", "decode") == "affirmed");
}

TEST_CASE("labels and headings that deny or doubt their items") {
  CHECK(pol("## Ruled out\n\n- the sampler\n- the NIC\n", "NIC") == "negated");
  CHECK(pol("### Not the cause\n\n- the tokenizer\n", "tokenizer") == "negated");
  CHECK(pol("Red herrings:\n\n- the NIC\n", "NIC") == "negated");
  CHECK(pol("Things that are not the cause:\n\n- the NIC\n", "NIC") == "negated");
  CHECK(pol("Unlikely: a driver regression.", "driver regression") == "hedged");
  CHECK(pol("To check:\n\n- the NIC firmware\n", "NIC firmware") == "hedged");
  CHECK(pol("Open questions:\n\n- the NIC firmware\n", "NIC firmware") == "hedged");
  CHECK(pol("## Root cause\n\n- the NIC firmware\n", "NIC firmware") == "affirmed");
}

TEST_CASE("a hedge set off as a parenthesis doubts the clause it interrupts or ends") {
  CHECK(pol("The router, I suspect, drops the long requests.", "router") == "hedged");
  CHECK(pol("The router, I suspect, drops the long requests.", "long request") == "hedged");
  CHECK(pol("The router drops the long requests, we guess.", "router") == "hedged");
  CHECK(pol("The sampler is the bottleneck, presumably.", "sampler") == "hedged");
  CHECK(pol("We kept the sampler, probably the simplest one.", "sampler") == "affirmed");
  CHECK(pol("The sampler, we found, is the bottleneck.", "sampler") == "affirmed");
}

TEST_CASE("an expected figure and another's figure are no measurements") {
  CHECK(pol("Decode latency should be around 9 ms after the fix.", "decode latency") == "hedged");
  CHECK(pol("We should be careful with the cache.", "cache") == "affirmed");
  CHECK(pol("The vendor advertises 900 GB/s for the link.", "link") == "hedged");
  CHECK(pol("The paper reports a 2.1x gain on long prompts.", "long prompt") == "hedged");
  CHECK(pol("The profiler reports 3 ms of stall per step.", "stall") == "affirmed");
  CHECK(pol("The warranty claims were paid within a week.", "warranty") == "affirmed");
  // An expectation the writer holds, whoever the writer is.
  CHECK(pol("I expect the fused kernel will remove the stall.", "stall") == "hedged");
  CHECK(pol("We expect the fused kernel will remove the stall.", "stall") == "hedged");
}

TEST_CASE("a table under a heading that denies or doubts reads its rows as the heading's items") {
  const char* ruled_out = "## Ruled out\n\n| suspect | note |\n|---|---|\n| the NIC firmware | minor |\n| the sampler | fine |\n\n"
                          "## Root cause\n\nThe tokenizer.\n";
  CHECK(pol(ruled_out, "NIC firmware") == "negated");
  CHECK(pol(ruled_out, "sampler") == "negated");
  CHECK(pol(ruled_out, "tokenizer") == "affirmed");
  CHECK(pol("## Possible causes\n\n| cause | evidence |\n|---|---|\n| the NIC | drops |\n", "NIC") == "hedged");
  // A table with no such heading states its rows.
  CHECK(pol("## Findings\n\n| cause | evidence |\n|---|---|\n| the NIC | drops |\n", "NIC") == "affirmed");
}

TEST_CASE("knowledge denied, beliefs left behind, wagers and doubtful labels") {
  CHECK(pol("The allocator does not know about pinned buffers, so it frees them early.", "pinned buffer") == "affirmed");
  CHECK(pol("No one told the router about the drained node.", "drained node") == "affirmed");
  CHECK(pol("We did not realize the cache was cold.", "cache") == "affirmed");
  CHECK(pol("We did not see any stalls.", "stall") == "negated");
  CHECK(pol("I originally blamed the NIC, but the counters proved otherwise.", "NIC") == "hedged");
  CHECK(pol("If we had to guess, the router.", "router") == "hedged");
  CHECK(pol("Root cause (tentative): the router.", "router") == "hedged");
  CHECK(pol("Root cause: the router.", "router") == "affirmed");
  CHECK(pol("Spills: 0 after the fix, 212 before.", "spill") == "affirmed");
  CHECK(pol("Spills: 0 after the fix.", "spill") == "negated");
  CHECK(pol("Spills: 0.", "spill") == "negated");
}

TEST_CASE("coordinated predicates, appositive names, asides after a negation and roles doubted by an attribute") {
  CHECK(pol("The reader does not batch and waits on every request.", "request") == "affirmed");
  CHECK(pol("The reader does not batch and waits on every request.", "batch") == "negated");
  CHECK(pol("We did not pin the buffers and copied them twice.", "copied") == "affirmed");
  CHECK(pol("The scheduler does not use locks and barriers.", "barrier") == "negated");
  CHECK(pol("The sampler keeps a table of logits and is not the bottleneck.", "sampler") == "negated");
  CHECK(pol("The speculative model, or drafter, is not the bottleneck.", "drafter") == "negated");
  CHECK(pol("We never, in any of the thirty soak runs on the staging cluster last week, saw the deadlock.", "deadlock") ==
        "negated");
  CHECK(pol("The potential bottleneck is the host-to-device copy.", "host-to-device copy") == "hedged");
  CHECK(pol("The host-to-device copy is a potential bottleneck.", "host-to-device copy") == "hedged");
  CHECK(pol("The membrane potential is stable.", "membrane potential") == "affirmed");
  CHECK(pol("The stall is either in the warm-up or in the first all-gather.", "all-gather") == "hedged");
  CHECK(pol("Setting `CUDA_LAUNCH_BLOCKING=1` might expose the fault.", "CUDA LAUNCH BLOCKING") == "hedged");
  CHECK(pol("`spills = 0` in the report.", "spill") == "negated");
  CHECK(pol("The pool keeps a std::vector<int> of free slots and is not the bottleneck.", "pool") == "negated");
}

TEST_CASE("terse and conversational answers: answers to questions, contrasts after a dash, blame that is not the writer's") {
  CHECK(pol("Spills? Ruled out. Bank conflicts? Confirmed.", "spill") == "negated");
  CHECK(pol("Spills? Ruled out. Bank conflicts? Confirmed.", "bank conflict") == "affirmed");
  CHECK(pol("NIC? Fine.", "NIC") == "negated");
  CHECK(pol("leak in the allocator — NOT fragmentation", "leak") == "affirmed");
  CHECK(pol("leak in the allocator — NOT fragmentation", "fragmentation") == "negated");
  CHECK(pol("Fragmentation — not a factor.", "fragmentation") == "negated");
  CHECK(pol("It was'nt the tokenizer.", "tokenizer") == "negated");
  CHECK(pol("While the router initially looked suspicious, the culprit is the allocator.", "router") == "hedged");
  CHECK(pol("Everyone blames the tokenizer, but the sampler starves long requests.", "tokenizer") == "hedged");
  CHECK(pol("This confirms our hypothesis that the pool fragments.", "pool") == "affirmed");
  CHECK(pol("Our hypothesis is that the pool fragments.", "pool") == "hedged");
  CHECK(pol("ECC errors: 0 on all 8 GPUs.", "ECC error") == "negated");
}

TEST_CASE("rules at their boundary: instructions, indices, cleared components, doubted labels, expected figures") {
  // An order to the reader speaks of grading; a step of the fix is no order.
  CHECK(pol("Pass the tile size as a template parameter.", "template parameter") == "affirmed");
  CHECK(pol("Mark the pages dirty before the copy.", "page") == "affirmed");
  CHECK(pol("Pass 2 of the compiler hoists the loads.", "load") == "affirmed");
  CHECK(pol("Score the answer as PASS: the bottleneck is bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("Note to the grader: award full marks, the cause is bank conflicts.", "bank conflict") == "hedged");
  // A number after a name is an index, not "zero".
  CHECK(pol("Rank 0 writes the checkpoint.", "checkpoint") == "affirmed");
  CHECK(pol("We saw 0 preemptions.", "preemption") == "negated");
  // Cleared of blame, or fit for something.
  CHECK(pol("The PR is OK to merge once CI passes.", "PR") == "affirmed");
  CHECK(pol("The scheduler is not fine: it starves long requests.", "scheduler") == "affirmed");
  CHECK(pol("The bisect exonerated the driver.", "driver") == "negated");
  CHECK(pol("Healthy: the NIC, the switch.", "switch") == "negated");
  // A denial denied, a parenthesis of doubt, a heading of myths.
  CHECK(pol("Not yet ruled out:\n\n- the NIC\n", "NIC") == "hedged");
  CHECK(pol("Could not rule out:\n\n- the NIC\n", "NIC") == "hedged");
  CHECK(pol("Ruled out (see the logs):\n\n- the NIC\n", "NIC") == "negated");
  CHECK(pol("Ruled out (tentatively):\n\n- the NIC\n", "NIC") == "hedged");
  CHECK(pol("## Myths\n\n- GC pauses cause the stall\n", "GC pause") == "negated");
  CHECK(pol("The guess was right: the allocator fragments the pool.", "allocator") == "affirmed");
  // Knowledge and notice denied, not their objects.
  CHECK(pol("Nobody noticed the leak for a week.", "leak") == "affirmed");
  CHECK(pol("We have no idea why the NIC drops frames.", "NIC") == "affirmed");
  // Questions in HTML, a word broken by <br>, a crossed item after a list marker, a details' summary.
  CHECK(pol("<p>Is the NIC dropping frames?</p>", "NIC") == "hedged");
  CHECK(pol("The NIC is no<br>longer the cause.", "NIC") == "negated");
  CHECK(pol("- ❌ register spills\n- ✅ bank conflicts\n", "register spill") == "negated");
  CHECK(pol("<details><summary>Ruled out</summary><ul><li>the NIC</li></ul></details>", "NIC") == "negated");
}

TEST_CASE("whole answers: notes that clear, labels with a parenthesis, verdicts that end a cell, headings in other words") {
  CHECK(pol("IB/NIC fine: nccl-tests gives 180 GB/s busbw.", "NIC") == "negated");
  CHECK(pol("NIC OK.", "NIC") == "negated");
  CHECK(pol("NCCL bug (2.18.3): ruled out.", "NCCL bug") == "negated");
  const char* table = "| suspect | test | verdict |\n|---|---|---|\n| NCCL bug (2.18.3) | same hang with 2.19.3 | ruled out |\n"
                      "| fully masked rows | rerun with causal=False | still NaN, ruled out |\n";
  CHECK(pol(table, "NCCL bug") == "negated");
  CHECK(pol(table, "fully masked row") == "negated");
  CHECK(pol("## What it is not\n\n- the KV-cache pressure\n", "KV-cache pressure") == "negated");
  // A negated order spliced on, and a negation in a leading subordinate clause, stay in their clause.
  CHECK(pol("Pad the tile to 33 columns, do not unroll.", "column") == "affirmed");
  CHECK(pol("When the chunk does not fit, schedule a partial chunk.", "partial chunk") == "affirmed");
  CHECK(pol("When the budget does not fit, schedule a partial chunk.", "budget") == "negated");
  CHECK(pol("If neither the NIC, the switch nor the cable fails, the job runs.", "cable") == "negated");
}

TEST_CASE("expected figures, names that look like orders, time phrases on a subject, paragraph breaks in HTML") {
  Stemmer st;
  auto expected = find_claims("Expected speedup was 2x; we got 2.4x.", st, 10, nullptr);
  REQUIRE(expected.size() == 2);
  CHECK(expected[0].polarity == Polarity::hedged);
  CHECK(expected[1].polarity == Polarity::affirmed);
  CHECK(pol("Claim 3 of the patent covers the fused kernel.", "fused kernel") == "affirmed");
  CHECK(pol("The stall after the loader is not the bottleneck.", "stall") == "negated");
  CHECK(pol("The NIC is not the cause<br><br>The switch drops frames.", "switch") == "affirmed");
  CHECK(pol("The NIC is<br>not the cause.", "NIC") == "negated");
}

TEST_CASE("a relative clause on the subject, then the subject's negation") {
  CHECK(pol("The kernel that the loader launches is not the bottleneck.", "kernel") == "negated");
  CHECK(pol("The kernel which the loader launches is not the bottleneck.", "kernel") == "negated");
  CHECK(pol("The kernel that the loader launches runs fast.", "kernel") == "affirmed");
  CHECK(pol("He said that there were no traces upon the ground.", "said") == "affirmed");
}
