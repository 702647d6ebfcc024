// The labelled corpora as floors: polarity must stay at least this good on them (bench_text prints
// the full precision/recall tables). The project corpus (polarity.tsv) was written for this field
// and the rules were refined on it; the held-out ones (heldout.tsv, heldout_fresh.tsv) are prose of
// other fields; the general-English corpus (clinical, legal, reviews, news, lab, finance) is split
// into a development half the rules were tuned against and a test half that is only measured; so is
// the blind corpus (bug reports, incident reports, abstracts, support chats, sport, recipes,
// education feedback, security advisories, HR memos, informal English), written by an engineer who
// had not read the rules and measured on both halves before any rule changed. The floors sit a few points under what was measured (docs/text.md); lowering one needs a reason there.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>

#include "operators/text/concept.hpp"

using namespace rubric::text;

namespace {

struct Score {
  int n = 0, ok = 0;
  std::map<std::string, int> total, right;
};

Score score(const char* path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  Stemmer stemmer;
  Score sc;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::size_t a = line.find('\t'), b = line.find('\t', a + 1);
    REQUIRE(b != std::string::npos);
    std::string label = line.substr(0, a), phrase = line.substr(a + 1, b - a - 1), sentence = line.substr(b + 1);
    for (std::size_t p = 0; (p = sentence.find("\\n", p)) != std::string::npos;) sentence.replace(p, 2, "\n");
    std::string got = polarity_name(analyse(sentence, {make_phrase(phrase, stemmer)}, stemmer)[0].polarity);
    ++sc.n;
    ++sc.total[label];
    if (got == label) {
      ++sc.ok;
      ++sc.right[label];
    }
  }
  return sc;
}

}  // namespace

TEST_CASE("polarity on the project corpus") {
  Score sc = score("corpus/polarity.tsv");
  CHECK(sc.n >= 400);
  CHECK(double(sc.ok) / sc.n >= 0.94);
  for (const char* l : {"affirmed", "negated", "hedged"}) {
    INFO(l);
    CHECK(double(sc.right[l]) / sc.total[l] >= 0.90);
  }
}

TEST_CASE("polarity on the held-out corpus of other fields") {
  Score sc = score("corpus/heldout.tsv");
  CHECK(sc.n >= 150);
  CHECK(double(sc.ok) / sc.n >= 0.95);
  for (const char* l : {"affirmed", "negated", "hedged"}) {
    INFO(l);
    CHECK(double(sc.right[l]) / sc.total[l] >= 0.93);
  }
}

TEST_CASE("polarity on the fresh held-out corpus (written after the rules, never tuned on)") {
  Score sc = score("corpus/heldout_fresh.tsv");
  CHECK(sc.n >= 60);
  CHECK(double(sc.ok) / sc.n >= 0.88);
}

TEST_CASE("polarity on the general-English corpus, development half (tuned against)") {
  Score sc = score("corpus/general_dev.tsv");
  CHECK(sc.n >= 200);
  CHECK(double(sc.ok) / sc.n >= 0.96);
  for (const char* l : {"affirmed", "negated", "hedged"}) {
    INFO(l);
    CHECK(double(sc.right[l]) / sc.total[l] >= 0.95);
  }
}

TEST_CASE("polarity on the general-English corpus, test half (measured, never tuned against)") {
  Score sc = score("corpus/general_test.tsv");
  CHECK(sc.n >= 200);
  CHECK(double(sc.ok) / sc.n >= 0.93);
  for (const char* l : {"affirmed", "negated", "hedged"}) {
    INFO(l);
    CHECK(double(sc.right[l]) / sc.total[l] >= 0.90);
  }
}

TEST_CASE("polarity on the blind corpus, development half (written before the rules were read, tuned against)") {
  Score sc = score("corpus/blind_dev.tsv");
  CHECK(sc.n >= 200);
  CHECK(double(sc.ok) / sc.n >= 0.96);
  for (const char* l : {"affirmed", "negated", "hedged"}) {
    INFO(l);
    CHECK(double(sc.right[l]) / sc.total[l] >= 0.89);
  }
}

TEST_CASE("polarity on the blind corpus, test half (written before the rules were read, never tuned against)") {
  Score sc = score("corpus/blind_test.tsv");
  CHECK(sc.n >= 200);
  CHECK(double(sc.ok) / sc.n >= 0.90);
  for (const char* l : {"affirmed", "negated", "hedged"}) {
    INFO(l);
    CHECK(double(sc.right[l]) / sc.total[l] >= 0.80);
  }
}

// Public corpora annotated by linguists (tests/text/corpus/public/SOURCES; mapping in docs/text.md):
// floors a few points under the measured figures, development sets and held-out ones alike.
TEST_CASE("polarity on public corpora: *SEM 2012 and BioScope") {
  struct Floor {
    const char* path;
    double overall;
  };
  for (const Floor& f : {Floor{"corpus/public/starsem_dev.tsv", 0.94}, Floor{"corpus/public/bioscope_abstracts.tsv", 0.93},
                         Floor{"corpus/public/starsem_test.tsv", 0.94}, Floor{"corpus/public/bioscope_papers.tsv", 0.83}}) {
    INFO(f.path);
    Score sc = score(f.path);
    CHECK(sc.n >= 300);
    CHECK(double(sc.ok) / sc.n >= f.overall);
  }
}
