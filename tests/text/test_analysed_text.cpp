// A text cut once for every operator: what readers of a kept text see is exactly what a stream
// of the same text gives, within the budget, past it, and with readers interleaved.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "operators/text/analysed_text.hpp"
#include "operators/text/claims.hpp"
#include "operators/text/concept.hpp"

using namespace rubric::text;

namespace {

// An answer of every construction the tokeniser knows: the labelled corpus's sentences in
// paragraphs, with headings, lists, tables, code, questions, comments and struck text.
std::string varied_answer() {
  std::ifstream in("corpus/polarity.tsv");
  REQUIRE(in);
  std::vector<std::string> sentences;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto tab = line.rfind('\t');
    if (tab != std::string::npos) sentences.push_back(line.substr(tab + 1));
  }
  REQUIRE(sentences.size() > 100);
  std::mt19937 rng(3);
  const char* const blocks[] = {"## Possible causes\n- bank conflicts\n- register spills\n\n",
                                "| Cause | Ruled out? |\n|---|---|\n| prefix cache | yes |\n| bank conflicts | no |\n\n",
                                "```cuda\n__shared__ float bank_conflict[32];\n```\n",
                                "Is it the prefix cache? No, the scheduler is. Fever? Not once.\n\n",
                                "We use `bank_conflict` <!-- hidden prefix cache --> and ~~the eviction order~~ 3.1x faster at 45 GB/s.\n\n"};
  std::string t;
  for (int p = 0; p < 120; ++p) {
    for (int k = 0; k < 5; ++k) t += sentences[rng() % sentences.size()] + " ";
    t += "\n\n";
    if (p % 7 == 0) t += blocks[rng() % 5];
  }
  return t;
}

bool same(const Sentence& a, const Sentence& b) {
  if (a.begin != b.begin || a.end != b.end || a.question != b.question || a.answer != b.answer ||
      a.table_row != b.table_row || a.negating_columns != b.negating_columns || a.candidate_item != b.candidate_item ||
      a.tokens.size() != b.tokens.size())
    return false;
  for (std::size_t k = 0; k < a.tokens.size(); ++k) {
    const Token &x = a.tokens[k], &y = b.tokens[k];
    if (x.kind != y.kind || x.lower != y.lower || x.stem != y.stem || x.joined != y.joined || x.begin != y.begin ||
        x.end != y.end || x.hyphen_next != y.hyphen_next || x.glued_prev != y.glued_prev || x.mixed_case != y.mixed_case ||
        x.capital != y.capital || x.all_caps != y.all_caps)
      return false;
  }
  return true;
}

std::vector<Sentence> streamed(std::string_view t, Stemmer& st) {
  SentenceStream s(t, st);
  std::vector<Sentence> out;
  Sentence x;
  while (s.next(x)) out.push_back(x);
  return out;
}

// Reads every sentence of `a`, checking each against the stream's.
void read_all(AnalysedText& a, const std::vector<Sentence>& want) {
  AnalysedText::Reader r(a);
  std::size_t n = 0;
  while (const Sentence* s = r.next()) {
    REQUIRE(n < want.size());
    CHECK(same(*s, want[n]));
    ++n;
  }
  CHECK(n == want.size());
}

}  // namespace

TEST_CASE("an analysed text gives the stream's sentences, kept once for every reader") {
  const std::string t = varied_answer();
  Stemmer st;
  const auto want = streamed(t, st);
  REQUIRE(want.size() > 500);
  auto budget = std::make_shared<AnalysisBudget>(std::size_t{256} << 20);
  {
    AnalysedText a(t, st, budget);
    read_all(a, want);
    CHECK(a.complete());
    CHECK(a.bytes() > t.size());  // the cost of keeping it: tokens are larger than their text
    CHECK(budget->left() == (std::size_t{256} << 20) - a.bytes());
    read_all(a, want);  // the second reader reads the kept sentences
    CHECK(a.complete());
  }
  CHECK(budget->left() == std::size_t{256} << 20);  // given back when the text goes
}

TEST_CASE("past the budget the kept sentences are dropped and every reader streams") {
  const std::string t = varied_answer();
  Stemmer st;
  const auto want = streamed(t, st);
  for (std::size_t limit : {std::size_t{0}, std::size_t{5000}, std::size_t{200000}}) {
    CAPTURE(limit);
    auto budget = std::make_shared<AnalysisBudget>(limit);
    AnalysedText a(t, st, budget);
    read_all(a, want);
    CHECK_FALSE(a.complete());
    CHECK(a.bytes() == 0);
    CHECK(budget->left() == limit);
    read_all(a, want);
  }
  AnalysedText none(t, st, nullptr);  // no budget: nothing kept
  read_all(none, want);
  CHECK_FALSE(none.complete());
}

TEST_CASE("readers interleaved: one reading the kept sentences while another drops them") {
  const std::string t = varied_answer();
  Stemmer st;
  const auto want = streamed(t, st);
  auto budget = std::make_shared<AnalysisBudget>(std::size_t{300000});
  AnalysedText a(t, st, budget);
  AnalysedText::Reader first(a), second(a);
  std::size_t n = 0;
  for (; n < 10; ++n) {
    const Sentence* s = first.next();
    REQUIRE(s);
    CHECK(same(*s, want[n]));
  }
  read_all(a, want);  // a third reader goes past the budget: the kept sentences go
  CHECK_FALSE(a.complete());
  for (; n < want.size(); ++n) {  // the first carries on where it was
    const Sentence* s = first.next();
    REQUIRE(s);
    CHECK(same(*s, want[n]));
  }
  CHECK(first.next() == nullptr);
  std::size_t m = 0;
  while (const Sentence* s = second.next()) CHECK(same(*s, want[m++]));
  CHECK(m == want.size());
}

TEST_CASE("concepts, claims and code read from a kept text as from the text itself") {
  const std::string t = varied_answer();
  Stemmer st;
  std::vector<ConceptPtr> cs = {make_phrase("bank conflict", st), make_phrase("prefix cache", st),
                                make_near(make_phrase("evict", st), make_phrase("block", st), 6),
                                make_any({make_phrase("register spill", st), make_phrase("occupancy", st)}, "any")};
  auto budget = std::make_shared<AnalysisBudget>(std::size_t{256} << 20);
  AnalysedText a(t, st, budget);
  for (int round = 0; round < 2; ++round) {  // building, then kept
    auto want = analyse(std::string_view(t), cs, st);
    auto got = analyse(a, cs);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].polarity == want[i].polarity);
      CHECK(got[i].mentions == want[i].mentions);
      CHECK(explain(t, got[i]) == explain(t, want[i]));
    }
    std::size_t more_a = 0, more_b = 0;
    auto ca = find_claims(a, 50, &more_a);
    auto cb = find_claims(t, st, 50, &more_b);
    REQUIRE(ca.size() == cb.size());
    CHECK(more_a == more_b);
    for (std::size_t i = 0; i < ca.size(); ++i) {
      CHECK(ca[i].text == cb[i].text);
      CHECK(ca[i].value == cb[i].value);
      CHECK(ca[i].polarity == cb[i].polarity);
      CHECK(ca[i].sentence_begin == cb[i].sentence_begin);
    }
    CHECK(code_of(a) == code_of(t));
    CHECK(a.complete());
  }
}

TEST_CASE("start keys: what a token could start, by the digest of its stems") {
  Stemmer st;
  const std::string t = "The bank-conflict is in `bank_conflict`, not the banks.";
  SentenceStream s(t, st);
  Sentence x;
  REQUIRE(s.next(x));
  std::vector<std::uint32_t> keys;
  for (const Token& k : x.tokens) keys.push_back(start_key(k));
  for (std::size_t k = 0; k < x.tokens.size(); ++k) {
    const Token& tok = x.tokens[k];
    CAPTURE(tok.lower);
    CHECK(((keys[k] & kWord) != 0) == (tok.kind != Token::Kind::punct));  // what `near` counts
    if (tok.kind == Token::Kind::code) {
      CHECK(keys[k] == kWord);  // code starts nothing
      continue;
    }
    CHECK((keys[k] & kStemStarts) != 0);
    CHECK(stem_bits(keys[k]) == stem_digest(tok.stem));
    CHECK(((keys[k] & kJoinedStarts) != 0) == tok.hyphen_next);
    if (tok.hyphen_next) CHECK(joined_bits(keys[k]) == (stem_digest(tok.joined) & 0x3FFF));
  }
  CHECK(stem_digest("bank") == stem_digest(std::string("ba") + "nk"));
  CHECK(stem_digest("bank") < 0x8000);
}
