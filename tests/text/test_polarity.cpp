// Polarity rules, one sentence each; the labelled corpus (corpus.tsv) measures the whole.
#include <doctest/doctest.h>

#include "operators/text/concept.hpp"
#include "tests/text/polarity_cases.hpp"

using namespace rubric::text;
using rubric::text::cases::pol;

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
  std::string t = "The slowdown is not caused by the prefix cache, and the attention sinks are not involved; the hit rate is high";
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

TEST_CASE("approximate negators, zero, denial and failure verbs") {
  CHECK(pol("The profiler found zero bank conflicts.", "bank conflict") == "negated");
  CHECK(pol("The keyboard has zero lag.", "lag") == "negated");
  CHECK(pol("The queue drains to zero and the prefix cache evicts old blocks.", "prefix cache") == "affirmed");
  CHECK(pol("We use ZeRO sharding for the optimizer.", "sharding") == "affirmed");
  CHECK(pol("A zero-copy path avoids the bounce buffer.", "path") == "affirmed");
  CHECK(pol("There are hardly any register spills.", "register spill") == "negated");
  CHECK(pol("There are barely any register spills.", "register spill") == "negated");
  CHECK(pol("Scarcely any side effects were reported.", "side effect") == "negated");
  CHECK(pol("Bank conflicts hardly matter here.", "bank conflict") == "negated");
  CHECK(pol("The fix is anything but a prefix cache change.", "prefix cache") == "negated");
  CHECK(pol("The fix is nothing but a prefix cache change.", "prefix cache") == "affirmed");
  CHECK(pol("Patient denies chest pain.", "chest pain") == "negated");
  CHECK(pol("The scan failed to reveal a fracture.", "fracture") == "negated");
  CHECK(pol("The trace fails to show recomputation.", "recomputation") == "negated");
  CHECK(pol("The prefix cache failed to explain the regression.", "prefix cache") == "negated");
  CHECK(pol("Neither bank conflicts nor spills explain it.", "spill") == "negated");
  CHECK(pol("Neither bank conflicts nor spills explain it.", "bank conflict") == "negated");
  CHECK(pol("The slowdown comes from a lack of coalescing.", "coalescing") == "negated");
  CHECK(pol("In the absence of bleeding, no transfusion is needed.", "bleeding") == "negated");
  CHECK(pol("The kernel avoids fp16 accumulation.", "fp16 accumulation") == "negated");
  CHECK(pol("The cough has resolved.", "cough") == "negated");
  CHECK(pol("The patch resolved the crash.", "patch") == "affirmed");
}

TEST_CASE("X-free denies X; a negated X-free states it") {
  CHECK(pol("These crackers are gluten-free.", "gluten") == "negated");
  CHECK(pol("The layout is bank-conflict-free.", "bank conflict") == "negated");
  CHECK(pol("The layout is bank\xe2\x80\x91" "conflict\xe2\x80\x91" "free.", "bank conflict") == "negated");
  CHECK(pol("The rewrite is hardly risk-free.", "risk") == "affirmed");
  CHECK(pol("The layout is conflict-free.", "conflict-free") == "affirmed");
}

TEST_CASE("a label's value after a colon or a dash decides") {
  CHECK(pol("Bank conflicts: ruled out.", "bank conflict") == "negated");
  CHECK(pol("Bank conflicts: none.", "bank conflict") == "negated");
  CHECK(pol("Dizziness: denied.", "dizziness") == "negated");
  CHECK(pol("- **Fraud**: ruled out by the audit", "fraud") == "negated");
  CHECK(pol("Rain \xe2\x80\x94 not a factor on the day.", "rain") == "negated");
  CHECK(pol("Bank conflicts: 8-way on the epilogue.", "bank conflict") == "affirmed");
  CHECK(pol("Bank conflicts: yes.", "bank conflict") == "affirmed");
  CHECK(pol("Bank conflicts: unclear.", "bank conflict") == "hedged");
  // A dash pair is an aside, not a value.
  CHECK(pol("Bank conflicts \xe2\x80\x94 not spills \xe2\x80\x94 are the cause.", "bank conflict") == "affirmed");
  CHECK(pol("Bank conflicts \xe2\x80\x94 not spills \xe2\x80\x94 are the cause.", "spill") == "negated");
  // The mention after the colon is not a label.
  CHECK(pol("Root cause: bank conflicts.", "bank conflict") == "affirmed");
}

TEST_CASE("a question answered at once takes the answer's polarity") {
  CHECK(pol("Fever? No.", "fever") == "negated");
  CHECK(pol("Is it the prefix cache? No, the scheduler is.", "prefix cache") == "negated");
  CHECK(pol("Is it the prefix cache? No, the scheduler is.", "scheduler") == "affirmed");
  CHECK(pol("Overheating? Not once in six months.", "overheating") == "negated");
  CHECK(pol("The hotel wifi? Nonexistent.", "wifi") == "negated");
  CHECK(pol("Fever? Yes, up to 39 degrees.", "fever") == "affirmed");
  CHECK(pol("Bank conflicts? Not sure.", "bank conflict") == "hedged");
  CHECK(pol("Bank conflicts? The profile does not say.", "bank conflict") == "hedged");
  CHECK(pol("Is it the prefix cache?\n\nNo idea yet.", "prefix cache") == "hedged");
}

TEST_CASE("Markdown tables are read by column: the header says what a value means") {
  CHECK(pol("| Hypothesis | Verdict |\n|---|---|\n| bank conflicts | no |", "bank conflict") == "negated");
  CHECK(pol("| Cause | Present |\n|---|---|\n| bank conflicts | \xe2\x9c\x97 |", "bank conflict") == "negated");
  CHECK(pol("| Cause | Present |\n|---|---|\n| bank conflicts | \xe2\x9c\x94\xef\xb8\x8f |", "bank conflict") == "affirmed");
  CHECK(pol("| Metric | Value |\n|---|---|\n| register spills | none |", "register spill") == "negated");
  CHECK(pol("| Cause | Ruled out? |\n|---|---|\n| bank conflicts | yes |", "bank conflict") == "negated");
  CHECK(pol("| Cause | Ruled out? |\n|---|---|\n| bank conflicts | no |", "bank conflict") == "affirmed");
  CHECK(pol("| Cause | Present |\n|---|---|\n| prefix cache | maybe |", "prefix cache") == "hedged");
  CHECK(pol("| Cause | Evidence |\n|---|---|\n| bank conflicts | 8-way in the epilogue |", "bank conflict") == "affirmed");
  // The first later cell holding a value decides, past cells of prose.
  CHECK(pol("| # | Cause | Note | Verdict |\n|---|---|---|---|\n| 1 | bank conflicts | stride 32 | ruled out |", "bank conflict") ==
        "negated");
  // A question mark inside a cell does not end the row.
  CHECK(pol("| Check | Result |\n|---|---|\n| Fever? | no |", "fever") == "negated");
}

TEST_CASE("probable existence is hedged (ConText); the writer's own judgement is stated") {
  CHECK(pol("Prefill probably dominates the latency.", "prefill") == "hedged");
  CHECK(pol("Bank conflicts are likely the cause.", "bank conflict") == "hedged");
  CHECK(pol("The most likely cause is bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("The profile is consistent with bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("The profile suggests bank conflicts.", "bank conflict") == "hedged");
  CHECK(pol("I doubt the prefix cache is involved.", "prefix cache") == "hedged");
  CHECK(pol("It is doubtful that fraud can be proven.", "fraud") == "hedged");
  CHECK(pol("A small effusion cannot be excluded.", "effusion") == "hedged");
  CHECK(pol("Rule out appendicitis.", "appendicitis") == "hedged");
  CHECK(pol("We ruled out appendicitis.", "appendicitis") == "negated");
  CHECK(pol("I think bank conflicts are the cause.", "bank conflict") == "affirmed");
  CHECK(pol("There is little doubt that bank conflicts dominate.", "bank conflict") == "affirmed");
  CHECK(pol("Without a doubt, bank conflicts dominate.", "bank conflict") == "affirmed");
  CHECK(pol("If the ruling stands, the company will appeal.", "appeal") == "hedged");
  CHECK(pol("If anything, the new route added a delay.", "delay") == "affirmed");
}

TEST_CASE("scope ends at despite, only and a verb after an aside") {
  CHECK(pol("There was no flooding, despite the heavy rain.", "heavy rain") == "affirmed");
  CHECK(pol("There is no structural damage, only cosmetic cracks.", "cosmetic crack") == "affirmed");
  CHECK(pol("The patient, who had no fever, was found to have anemia.", "anemia") == "affirmed");
  CHECK(pol("The patient, who had no fever, was found to have anemia.", "fever") == "negated");
}

TEST_CASE("a new subject after 'and' ends the reach of a later negative predicate") {
  CHECK(pol("The kernel is 3.1x faster and bank conflicts are gone.", "3.1x") == "affirmed");
  CHECK(pol("The kernel is 3.1x faster and bank conflicts are gone.", "bank conflict") == "negated");
  CHECK(pol("Bank conflicts and spills are gone.", "bank conflict") == "negated");
  CHECK(pol("Bank conflicts, spills and stalls are negligible.", "bank conflict") == "negated");
  CHECK(pol("The fog has cleared and is not expected to return.", "fog") == "negated");
}

TEST_CASE("refusal, 'yet to', 'free from', 'lacked' and 'non-' deny; a fall 'declined to' a number does not") {
  CHECK(pol("The seller refused to give me a refund.", "refund") == "negated");
  CHECK(pol("The spokesperson declined to comment.", "comment") == "negated");
  CHECK(pol("We were refused a discount.", "discount") == "negated");
  CHECK(pol("Throughput declined to 40 GB/s because of bank conflicts.", "bank conflict") == "affirmed");
  CHECK(pol("I have yet to find a dead pixel.", "dead pixel") == "negated");
  CHECK(pol("The weather is clear, yet the flights were cancelled.", "flights") == "affirmed");
  CHECK(pol("The coupon was found free from corrosion.", "corrosion") == "negated");
  CHECK(pol("The title is free and clear of any lien.", "lien") == "negated");
  CHECK(pol("It is clear of course that bank conflicts dominate.", "bank conflict") == "affirmed");
  CHECK(pol("The court held that it lacked jurisdiction.", "jurisdiction") == "negated");
  CHECK(pol("The deposit is non-refundable.", "refundable") == "negated");
  CHECK(pol("The call is non-blocking.", "non-blocking") == "affirmed");
  CHECK(pol("Enzyme activity was undetectable in the knockout cells.", "enzyme activity") == "negated");
  CHECK(pol("Oxidation was prevented by working under argon.", "oxidation") == "negated");
  CHECK(pol("Smoking is prohibited throughout the building.", "smoking") == "negated");
  CHECK(pol("She hopes to get a promotion next year.", "promotion") == "hedged");
  CHECK(pol("Heavy rain is expected across the region on Thursday.", "rain") == "affirmed");
}

TEST_CASE("a negated change presupposes what changed (NegEx's pseudo-negations)") {
  CHECK(pol("There has been no increase in swelling overnight.", "swelling") == "affirmed");
  CHECK(pol("There was no change in throughput after padding.", "throughput") == "affirmed");
  CHECK(pol("There was no change in throughput after padding.", "change") == "negated");
  CHECK(pol("Padding does not change the throughput.", "padding") == "negated");
  CHECK(pol("There is no doubt.", "doubt") == "negated");  // a pseudo-trigger that holds the mention is none
}

TEST_CASE("reported words, clinical hedges and forward-only hedges") {
  CHECK(pol("The defendant is alleged to have committed fraud.", "fraud") == "hedged");
  CHECK(pol("A merger is rumoured to be imminent.", "merger") == "hedged");
  CHECK(pol("It is supposedly waterproof, but I have not tested it.", "waterproof") == "hedged");
  CHECK(pol("Equivocal findings for gallstones.", "gallstones") == "hedged");
  CHECK(pol("Oxidation of the sample remains a possibility.", "oxidation") == "hedged");
  CHECK(pol("There is no possibility of overflow.", "overflow") == "negated");
  CHECK(pol("We ruled out the possibility that the sink tokens were evicted.", "sink tokens") == "negated");
  CHECK(pol("We checked the possibility that the sink tokens were evicted.", "sink tokens") == "hedged");
  CHECK(pol("Toxicity at higher doses has not been ruled out.", "toxicity") == "hedged");
  CHECK(pol("It is not impossible that the tumour has spread.", "tumour") == "hedged");
  CHECK(pol("It is impossible to ignore the bug.", "bug") == "affirmed");
  // forward scope: what follows is hedged, the rest of the clause is not
  CHECK(pol("Presumed viral infection; supportive care only.", "viral infection") == "hedged");
  CHECK(pol("Lumbar puncture to evaluate for meningitis.", "meningitis") == "hedged");
  CHECK(pol("The retailer is at risk of bankruptcy.", "bankruptcy") == "hedged");
  CHECK(pol("There is no risk of deadlock here.", "deadlock") == "negated");
  CHECK(pol("There is concern for cellulitis around the incision.", "incision") == "affirmed");
  CHECK(pol("The patient was screened for diabetes.", "diabetes") == "hedged");
  CHECK(pol("Findings are compatible with a urinary tract infection.", "urinary tract infection") == "hedged");
  CHECK(pol("The kernel is compatible with CUDA 12.", "kernel") == "affirmed");
}

TEST_CASE("a hedged cause states what it causes") {
  CHECK(pol("Heart failure is a possible explanation for the dyspnea.", "dyspnea") == "affirmed");
  CHECK(pol("Heart failure is a possible explanation for the dyspnea.", "heart failure") == "hedged");
  CHECK(pol("The most likely cause of the slowdown is bank conflicts.", "slowdown") == "affirmed");
  CHECK(pol("The most likely cause of the slowdown is bank conflicts.", "bank conflict") == "hedged");
}

TEST_CASE("inverted and phrasal conditions; a verbless 'A versus B' is a differential") {
  CHECK(pol("Should bleeding recur, return to the emergency department.", "bleeding") == "hedged");
  CHECK(pol("Were the bank to fail, depositors would be protected.", "bank") == "hedged");
  CHECK(pol("Had surgery in 2010, recovered well.", "surgery") == "affirmed");
  CHECK(pol("The counter should be reset every epoch.", "counter") == "affirmed");
  CHECK(pol("In the event of default, the lender may accelerate the loan.", "default") == "hedged");
  CHECK(pol("In case of rain, the match moves indoors.", "rain") == "hedged");
  CHECK(pol("Pneumonia versus atelectasis in the left lower lobe.", "pneumonia") == "hedged");
  CHECK(pol("Pneumonia versus atelectasis in the left lower lobe.", "atelectasis") == "hedged");
  // A verb makes it a comparison: a person as subject, a word in -ed, a verb of comparing.
  CHECK(pol("We compared padding vs. swizzling.", "padding") == "affirmed");
  CHECK(pol("Benchmarked fp16 versus fp32 on the H100.", "fp16") == "affirmed");
  CHECK(pol("Compare fp16 vs fp32 on the same inputs.", "fp32") == "affirmed");
  CHECK(pol("The fp16 vs fp32 throughput is 2.1x.", "fp16") == "affirmed");
}

TEST_CASE("note style: a negation or an absent state right after the mention, with no verb") {
  CHECK(pol("Pneumothorax not seen.", "pneumothorax") == "negated");
  CHECK(pol("Mass not identified on this study.", "mass") == "negated");
  CHECK(pol("Bowel sounds absent.", "bowel sounds") == "negated");
  CHECK(pol("Ketones negative.", "ketones") == "negated");
  CHECK(pol("The patient is pain free since surgery.", "pain") == "negated");
  CHECK(pol("Symptom free for 3 months.", "symptom") == "negated");
  CHECK(pol("The GPU is free for other jobs.", "GPU") == "affirmed");
  CHECK(pol("Memory free: 3 GB.", "memory") == "affirmed");
  CHECK(pol("The culture grew gram negative rods.", "rods") == "affirmed");
  CHECK(pol("Bank conflicts not even once.", "bank conflict") == "affirmed");
}

TEST_CASE("a negated suggestion denies; 'not likely' stays a hedge; not confirmed is not denied") {
  CHECK(pol("Nothing to suggest pneumonia.", "pneumonia") == "negated");
  CHECK(pol("There is no evidence to suggest pneumonia.", "pneumonia") == "negated");
  CHECK(pol("The pattern is not suggestive of malignancy.", "malignancy") == "negated");
  CHECK(pol("It is not possible that fraud occurred.", "fraud") == "negated");
  CHECK(pol("It is not possible to rule out fraud.", "fraud") == "hedged");
  CHECK(pol("Fraud is not likely.", "fraud") == "hedged");
  CHECK(pol("The inspection could not confirm corrosion.", "corrosion") == "hedged");
  CHECK(pol("Early appendicitis cannot be entirely excluded.", "appendicitis") == "hedged");
  CHECK(pol("Appendicitis is not entirely excluded.", "appendicitis") == "hedged");
  CHECK(pol("A leak cannot yet be ruled out.", "leak") == "hedged");
  CHECK(pol("The fault could not be confirmed.", "fault") == "hedged");
  CHECK(pol("The leak is unverified.", "leak") == "hedged");
  CHECK(pol("Lymphoma is in the differential.", "lymphoma") == "hedged");
  CHECK(pol("Differential diagnosis includes lymphoma.", "lymphoma") == "hedged");
}

TEST_CASE("NegEx terminations: apart from, aside from, other than, still; a relative clause's modal") {
  CHECK(pol("No complaints apart from a mild headache.", "headache") == "affirmed");
  CHECK(pol("No complaints other than a mild headache.", "headache") == "affirmed");
  CHECK(pol("No fever, still coughing at night.", "coughing") == "affirmed");
  CHECK(pol("The report contains no errors that we could find.", "errors") == "negated");
  CHECK(pol("There is a bank conflict that might explain the slowdown.", "bank conflict") == "affirmed");
  CHECK(pol("It is the prefix cache that might be the issue.", "prefix cache") == "hedged");
}

TEST_CASE("next to none, left out, 'too ... to', 'out of', and an intransitive verb denied") {
  CHECK(pol("The survey found little evidence of a trend.", "trend") == "negated");
  CHECK(pol("There is little sign of recovery in the north.", "recovery") == "negated");
  CHECK(pol("You left out the tests.", "tests") == "negated");
  CHECK(pol("The appendix omits the baseline run.", "baseline") == "negated");
  CHECK(pol("The rope was too short to reach the ledge.", "ledge") == "negated");
  CHECK(pol("The kernel is too slow to be useful.", "kernel") == "affirmed");
  CHECK(pol("It is too early to rule out a leak.", "leak") == "hedged");
  CHECK(pol("Barely had any rain this spring.", "rain") == "negated");
  CHECK(pol("The item is out of stock.", "stock") == "negated");
  CHECK(pol("The crash did not recur.", "crash") == "negated");
  CHECK(pol("The smoke alarm did not sound, although the kitchen filled with smoke.", "smoke alarm") == "negated");
  CHECK(pol("The pain did not stop.", "pain") == "affirmed");
  CHECK(pol("The prefix cache does not evict the sink blocks.", "prefix cache") == "affirmed");
}

TEST_CASE("the alternative taken: a participle clause and a trailing 'instead' end a negation's scope") {
  CHECK(pol("We avoid float64, using float32 accumulators with Kahan summation.", "float64") == "negated");
  CHECK(pol("We avoid float64, using float32 accumulators with Kahan summation.", "float32") == "affirmed");
  CHECK(pol("No alarm went off, forcing the crew to check the gauges by hand.", "gauges") == "affirmed");
  CHECK(pol("No nausea, vomiting, sweating or diarrhoea.", "diarrhoea") == "negated");
  CHECK(pol("I didn't take the bus, I walked to work instead.", "work") == "affirmed");
  CHECK(pol("We did not fly, taking the train instead.", "train") == "affirmed");
  CHECK(pol("No tea for me, a coffee instead.", "coffee") == "affirmed");
}

TEST_CASE("hedges: reporting verbs with their clause, the impersonal passive, resemblance, proposals, optional") {
  CHECK(pol("The vendor claims that overflow cannot happen.", "overflow") == "hedged");
  CHECK(pol("The seller claims it is an original print.", "original print") == "hedged");
  CHECK(pol("The insurance claims were paid in full.", "insurance") == "affirmed");
  CHECK(pol("The claim that the prefix cache causes the slowdown is false.", "prefix cache") == "negated");
  CHECK(pol("The GPU is believed to be the bottleneck.", "GPU") == "hedged");
  CHECK(pol("Low iron is thought to cause the fatigue.", "low iron") == "hedged");
  CHECK(pol("The article speculates that the merger will fail.", "merger") == "hedged");
  CHECK(pol("The minister hinted at a tax cut.", "tax cut") == "hedged");
  CHECK(pol("It looks like a bank conflict.", "bank conflict") == "hedged");
  CHECK(pol("The profile looks like this: bank conflicts dominate.", "profile") == "affirmed");
  CHECK(pol("The profile looks like this: bank conflicts dominate.", "bank conflict") == "affirmed");
  CHECK(pol("A new pricing model is under consideration.", "pricing model") == "hedged");
  CHECK(pol("Garnish is optional.", "garnish") == "hedged");
  CHECK(pol("The cache is not optional here.", "cache") == "affirmed");
  CHECK(pol("- 200 g dark chocolate (optional)", "dark chocolate") == "hedged");
  CHECK(pol("Register spills (none) in the final build.", "register spill") == "negated");
  CHECK(pol("The disk (not the controller) failed.", "disk") == "affirmed");
  CHECK(pol("Couldn't be happier with the new kettle!", "kettle") == "affirmed");
  CHECK(pol("It could not be worse: the kettle leaks.", "kettle") == "affirmed");
}

TEST_CASE("a rumour or a risk declared unfounded or negligible is denied") {
  CHECK(pol("Allegations of fraud are baseless.", "fraud") == "negated");
  CHECK(pol("Rumours of a merger are unfounded.", "merger") == "negated");
  CHECK(pol("Rumours of a merger spread quickly.", "merger") == "hedged");
  CHECK(pol("The risk of deadlock is negligible.", "deadlock") == "negated");
  CHECK(pol("There is a risk of deadlock under load.", "deadlock") == "hedged");
}

TEST_CASE("a dash after a stated clause opens a contrast; after a bare label it gives the label's value") {
  CHECK(pol("The cause is bank conflicts \xe2\x80\x94 not the prefix cache.", "bank conflicts") == "affirmed");
  CHECK(pol("The cause is bank conflicts \xe2\x80\x94 not the prefix cache.", "prefix cache") == "negated");
  CHECK(pol("The cause is bank conflicts - not the prefix cache.", "bank conflicts") == "affirmed");
  CHECK(pol("The kernel is 2.67x faster \xe2\x80\x94 not 10x.", "2.67x") == "affirmed");
  CHECK(pol("Rain \xe2\x80\x94 not a factor.", "rain") == "negated");
  CHECK(pol("Bank conflicts \xe2\x80\x94 none.", "bank conflicts") == "negated");
}
