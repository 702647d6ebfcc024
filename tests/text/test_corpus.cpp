// The labelled corpus as a floor: polarity must stay at least this good on it (bench_text prints
// the full precision/recall table). Lowering a floor needs a reason in docs/text.md.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>

#include "operators/text/concept.hpp"

using namespace rubric::text;

TEST_CASE("polarity on the labelled corpus") {
  std::ifstream in("corpus/polarity.tsv");
  REQUIRE(in.good());
  Stemmer stemmer;
  std::map<std::string, int> total, right;
  std::string line;
  int n = 0, ok = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::size_t a = line.find('\t'), b = line.find('\t', a + 1);
    REQUIRE(b != std::string::npos);
    std::string label = line.substr(0, a), phrase = line.substr(a + 1, b - a - 1), sentence = line.substr(b + 1);
    std::string got = polarity_name(analyse(sentence, {make_phrase(phrase, stemmer)}, stemmer)[0].polarity);
    ++n;
    ++total[label];
    if (got == label) {
      ++ok;
      ++right[label];
    }
  }
  CHECK(n >= 400);
  CHECK(double(ok) / n >= 0.93);
  for (const char* l : {"affirmed", "negated", "hedged"}) {
    INFO(l);
    CHECK(double(right[l]) / total[l] >= 0.90);
  }
}
