// Sentences and tokens: Markdown read as a reader sees it, code kept apart, stems and hyphens.
#include <doctest/doctest.h>

#include "operators/text/concept.hpp"
#include "operators/text/document.hpp"

using namespace rubric::text;

namespace {
std::vector<std::string> sentences(std::string_view t) {
  Stemmer st;
  SentenceStream s(t, st);
  Sentence x;
  std::vector<std::string> out;
  while (s.next(x)) out.push_back(quote(t, x.begin, x.end));
  return out;
}
Polarity pol(std::string_view text, std::string_view phrase) {
  Stemmer st;
  return analyse(text, {make_phrase(phrase, st)}, st)[0].polarity;
}
}  // namespace

TEST_CASE("sentences: punctuation, abbreviations, numbers, Markdown blocks") {
  CHECK(sentences("It is 3.5 ms. The cache, e.g. the prefix cache, is fine! Why?") ==
        std::vector<std::string>{"It is 3.5 ms.", "The cache, e.g. the prefix cache, is fine!", "Why?"});
  CHECK(sentences("# Cause\n- bank conflicts\n- no spills\n\nSecond\nline.") ==
        std::vector<std::string>{"Cause", "bank conflicts", "no spills", "Second line."});
  CHECK(sentences("| a | b |\n|---|---|\n| x | y |").size() == 3);
}

TEST_CASE("code is not prose") {
  std::string t = "We use `bank_conflict` here.\n```cuda\n__shared__ float bank_conflict[32];\n```\nDone.";
  CHECK(code_of(t) == "bank_conflict\n__shared__ float bank_conflict[32];");
  CHECK(pol(t, "bank conflict") == Polarity::absent);
  CHECK(pol(t, "bank_conflict") == Polarity::absent);
}

TEST_CASE("matching folds case, hyphens, white space, emphasis, links and inflection") {
  CHECK(pol("The threads of a warp **collide** on one\nBANK.", "collides on one bank") == Polarity::affirmed);
  CHECK(pol("It re-runs pre-fill for the evicted blocks.", "prefill") == Polarity::affirmed);
  CHECK(pol("It re-runs prefill for the evicted blocks.", "pre-fill") == Polarity::affirmed);
  CHECK(pol("Classic bank-conflicts.", "bank conflict") == Polarity::affirmed);
  CHECK(pol("See [the prefix cache](https://x.org/bank-conflict).", "prefix caching") == Polarity::affirmed);
  CHECK(pol("See [the docs](https://x.org/bank-conflict).", "bank conflict") == Polarity::absent);
  CHECK(pol("Evicting blocks.", "evicted block") == Polarity::affirmed);
  CHECK(pol("the bankconflict", "bank conflict") == Polarity::absent);
}
