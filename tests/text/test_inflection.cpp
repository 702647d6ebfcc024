// Matching folds inflection, not derivation: a word's plural, past, participle and third person
// share a key with it; a derived word (an agent noun, a nominalisation) is another word.
#include <doctest/doctest.h>

#include "operators/text/concept.hpp"
#include "operators/text/stemmer.hpp"
#include "tests/text/polarity_cases.hpp"

using namespace rubric::text;
using rubric::text::cases::pol;

namespace {
bool same(std::string_view a, std::string_view b) { return inflection_key(a) == inflection_key(b); }
}  // namespace

TEST_CASE("inflections share a key: plural, possessive, -ed, -ing, third person") {
  for (auto [a, b] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"token", "tokens"}, {"evict", "evicted"}, {"evicts", "evicting"}, {"wavefront", "wavefronts"},
           {"cache", "caches"}, {"cache", "cached"}, {"cache", "caching"}, {"cause", "causes"}, {"cause", "caused"},
           {"use", "used"}, {"use", "using"}, {"uses", "use"}, {"stop", "stopped"}, {"pad", "padding"}, {"spill", "spilled"},
           {"add", "added"}, {"hope", "hoping"}, {"rate", "rated"}, {"scale", "scaling"}, {"apply", "applies"},
           {"apply", "applied"}, {"apply", "applying"}, {"policy", "policies"}, {"try", "tried"}, {"box", "boxes"},
           {"match", "matches"}, {"process", "processes"}, {"class", "classes"}, {"bias", "biases"}, {"status", "statuses"},
           {"gpu", "gpus"}, {"api", "apis"}, {"model", "model's"}, {"users", "users'"}, {"tokenize", "tokenized"},
           {"compute", "computed"}, {"preempt", "preempting"}, {"setting", "settings"}, {"finding", "findings"},
           {"degrade", "degrades"}, {"dominate", "dominated"}, {"idea", "ideas"}})
    CHECK_MESSAGE(same(a, b), a, " / ", b);
}

TEST_CASE("verbs in -ee and -ue meet their -d and -ing forms; words in -eed keep their own") {
  for (auto [a, b] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"free", "freed"}, {"free", "freeing"}, {"frees", "freed"}, {"agree", "agreed"}, {"guarantee", "guaranteed"},
           {"queue", "queued"}, {"queue", "queuing"}, {"queue", "queueing"}, {"queues", "queued"}, {"issue", "issued"},
           {"issue", "issuing"}, {"continue", "continued"}, {"argue", "arguing"}, {"value", "valued"}, {"speed", "speeds"},
           {"speed", "speeding"}, {"exceed", "exceeded"}, {"exceed", "exceeds"}, {"need", "needed"}, {"need", "needs"},
           {"proceed", "proceeding"}, {"seed", "seeded"}, {"panic", "panicked"}, {"mimic", "mimicking"},
           {"traffic", "trafficked"}, {"kick", "kicked"}, {"click", "clicking"}})
    CHECK_MESSAGE(same(a, b), a, " / ", b);
  for (auto [a, b] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"see", "seed"}, {"fee", "feed"}, {"wee", "weed"}, {"free", "freedom"}, {"issue", "issuer"}, {"queue", "queuer"},
           {"kic", "kicked"}})
    CHECK_MESSAGE(!same(a, b), a, " / ", b);
  CHECK(pol("The allocator is reusing freed blocks.", "free") == "affirmed");
  CHECK(pol("Two requests queued behind the long prompt.", "queue") == "affirmed");
  CHECK(pol("The loader issued one read per shard.", "issue") == "affirmed");
}

TEST_CASE("plurals of singulars in s and irregular plurals share the singular's key") {
  for (auto [a, b] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"bus", "buses"}, {"gas", "gases"}, {"lens", "lenses"}, {"alias", "aliases"}, {"matrix", "matrices"},
           {"index", "indices"}, {"vertex", "vertices"}, {"half", "halves"}, {"child", "children"},
           {"hypothesis", "hypotheses"}, {"criterion", "criteria"}})
    CHECK_MESSAGE(same(a, b), a, " / ", b);
  CHECK(!same("us", "uses"));
}

TEST_CASE("nouns in -ing that are no verb's form keep their own key") {
  for (auto [a, b] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"even", "evening"}, {"ceil", "ceiling"}, {"mean", "meaning"}, {"bed", "bedding"}, {"morn", "morning"}})
    CHECK_MESSAGE(!same(a, b), a, " / ", b);
  CHECK(same("ceiling", "ceilings"));
  CHECK(pol("The mean latency is 4 ms.", "meaning") == "absent");
  CHECK(pol("We use ceil() here; the ceiling is fine.", "ceil") == "affirmed");
}

TEST_CASE("derivations and lookalikes keep their own key") {
  for (auto [a, b] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"token", "tokenizer"}, {"normal", "normalization"}, {"compute", "computer"}, {"evict", "eviction"},
           {"preempt", "preemption"}, {"hope", "hop"}, {"hoping", "hopping"}, {"rate", "rat"}, {"note", "not"},
           {"plane", "plan"}, {"made", "mad"}, {"byte", "bit"}, {"tile", "till"}, {"none", "non"}, {"off", "of"},
           {"status", "statu"}, {"analysis", "analysi"}, {"news", "new"}, {"its", "it"}, {"string", "str"}})
    CHECK_MESSAGE(!same(a, b), a, " / ", b);
  // Identifiers, numbers and two-letter words are kept whole.
  CHECK(inflection_key("sm_90") == "sm_90");
  CHECK(inflection_key("fp32s") == "fp32s");
  CHECK(inflection_key("is") == "is");
}

TEST_CASE("phrases match inflections of the prose, never its derivations") {
  CHECK(pol("The shared 30k-token prefix is evicted first.", "tokenizer") == "absent");
  CHECK(pol("The shared 30k-token prefix is evicted first.", "token") == "affirmed");
  CHECK(pol("Values follow a normal distribution.", "normalization") == "absent");
  CHECK(pol("The computer was slow.", "compute") == "absent");
  CHECK(pol("The scheduler evicts the shared blocks.", "evicted") == "affirmed");
  CHECK(pol("The tokens of the prompt were evicted.", "token") == "affirmed");
  CHECK(pol("Each warp issues two wavefronts.", "wavefront") == "affirmed");
  CHECK(pol("The tokenizer is slow.", "token") == "absent");
}
