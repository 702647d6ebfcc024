#pragma once
// The quantitative claims of an answer: every number in its prose with the unit written after it
// ("2.3x", "45 GB/s", "1.2 ms", "32-way", "16k tokens", "87%", "3.5e-4"), the sentence it is in,
// and whether the sentence states, denies or hedges it. Units come back in the spelling of the
// language's unit table ("GB/s", "tok/s", "us"); the binding gives them their dimension.
#include <string>
#include <string_view>
#include <vector>

#include "operators/text/analysed_text.hpp"
#include "operators/text/polarity.hpp"
#include "operators/text/stemmer.hpp"

namespace rubric::text {

struct Claim {
  double value = 0;          // as written, times a k/M/B suffix ("16k" → 16000); "87%" → 87
  std::string unit;          // "x", "%", "way", a unit-table spelling ("GB/s", "ms", "tok/s"), or "" (none)
  std::string noun;          // the word after a unit-less number ("32 banks" → "banks"), else ""
  std::string text;          // the claim as written: "45 GB/s"
  std::size_t sentence_begin = 0, sentence_end = 0;  // bytes of the text
  Polarity polarity = Polarity::affirmed;
  std::size_t trigger_begin = 0, trigger_end = 0;  // bytes; equal when none
  std::string ambiguous;  // the ambiguous construction its polarity was read from, or "" (Judgement)
  // Whose figure it is, by what hedged it: "answer" (the writer's, stated or doubted: "could be
  // 10x"), "another" (someone else's: "the vendor claims 5x", "the paper reports 3x"), "listed" (a
  // keyword or tag list: "Keywords: 2.1x") or "past belief" (one the writer left behind: "I
  // initially thought 3x", "we expected 2.5x before profiling").
  std::string source = "answer";
};

// Every claim, in order. At most `limit` (the rest are counted in `more`).
std::vector<Claim> find_claims(std::string_view text, Stemmer& stemmer, std::size_t limit, std::size_t* more);
// The same over the sentences of an analysed text (cut once for every operator reading it).
std::vector<Claim> find_claims(AnalysedText& text, std::size_t limit, std::size_t* more);

}  // namespace rubric::text
