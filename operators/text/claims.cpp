#include "operators/text/claims.hpp"

#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "operators/text/document.hpp"

namespace rubric::text {

namespace {

struct UnitWord {
  const char* canonical;
  bool per_time_follows;  // may be followed by "/s" or "per second" ("GB/s", "tokens per second")
};

// Unit words by their lower-case spelling → the unit table's spelling.
const std::unordered_map<std::string, UnitWord>& unit_words() {
  static const std::unordered_map<std::string, UnitWord> m = {
      {"x", {"x", false}}, {"times", {"x", false}}, {"%", {"%", false}}, {"percent", {"%", false}}, {"way", {"way", false}},
      {"ns", {"ns", false}}, {"nanoseconds", {"ns", false}}, {"nanosecond", {"ns", false}},
      {"us", {"us", false}}, {"\xc2\xb5s", {"us", false}}, {"\xce\xbcs", {"us", false}}, {"microseconds", {"us", false}},
      {"microsecond", {"us", false}}, {"ms", {"ms", false}}, {"milliseconds", {"ms", false}}, {"millisecond", {"ms", false}},
      {"msec", {"ms", false}}, {"s", {"s", false}}, {"sec", {"s", false}}, {"secs", {"s", false}}, {"seconds", {"s", false}},
      {"second", {"s", false}}, {"min", {"min", false}}, {"minutes", {"min", false}}, {"minute", {"min", false}},
      {"h", {"h", false}}, {"hours", {"h", false}}, {"hour", {"h", false}},
      {"b", {"B", true}}, {"bytes", {"B", true}}, {"byte", {"B", true}}, {"kb", {"KB", true}}, {"mb", {"MB", true}},
      {"gb", {"GB", true}}, {"tb", {"TB", true}}, {"kib", {"KiB", true}}, {"mib", {"MiB", true}}, {"gib", {"GiB", true}},
      {"tib", {"TiB", true}}, {"tok", {"tok", true}}, {"tokens", {"tok", true}}, {"token", {"tok", true}},
      {"req", {"req", true}}, {"requests", {"req", true}}, {"request", {"req", true}}, {"flop", {"FLOP", true}},
      {"flops", {"FLOP", true}}, {"gflop", {"GFLOP", true}}, {"gflops", {"GFLOP", true}}, {"tflop", {"TFLOP", true}},
      {"tflops", {"TFLOP", true}}, {"pflop", {"PFLOP", true}}, {"pflops", {"PFLOP", true}}, {"mflop", {"MFLOP", true}}};
  return m;
}

const char* time_unit(const std::string& w) {
  if (w == "s" || w == "sec" || w == "second" || w == "seconds") return "s";
  if (w == "ms" || w == "millisecond") return "ms";
  if (w == "us" || w == "microsecond") return "us";
  if (w == "ns" || w == "nanosecond") return "ns";
  if (w == "min" || w == "minute") return "min";
  if (w == "h" || w == "hour") return "h";
  return nullptr;
}

double suffix_scale(const std::string& w) {
  if (w == "k" || w == "thousand") return 1e3;
  if (w == "m" || w == "million" || w == "mil") return 1e6;
  if (w == "b" || w == "billion" || w == "bn") return 1e9;
  return 0;
}

}  // namespace

std::vector<Claim> find_claims(std::string_view text, Stemmer& stemmer, std::size_t limit, std::size_t* more) {
  std::vector<Claim> out;
  std::size_t extra = 0;
  SentenceStream stream(text, stemmer);
  Sentence s;
  const auto& units = unit_words();
  while (stream.next(s)) {
    const auto& T = s.tokens;
    for (std::size_t k = 0; k < T.size(); ++k) {
      if (T[k].kind != Token::Kind::number) continue;
      // Part of a name or a range's second half is still a number; a number glued after a word is
      // never produced by the tokeniser ("fp32" is one word).
      double v = std::strtod(T[k].lower.c_str(), nullptr);
      bool negative = k > 0 && T[k - 1].lower == "-" && T[k].glued_prev && (k < 2 || T[k - 2].kind != Token::Kind::number);
      if (negative) v = -v;
      std::size_t e = k + 1;
      std::string unit, noun;
      // "16k tokens", "1.5 million requests"
      if (e < T.size() && T[e].kind == Token::Kind::word) {
        double sc = suffix_scale(T[e].lower);
        bool glued = T[e].glued_prev;
        if (sc > 0 && (glued || T[e].lower.size() > 1) && !(T[e].lower == "b" && glued && e + 1 < T.size() && T[e + 1].lower == "/")) {
          // "16 B" alone is bytes, "16B params" a count: a glued capital B before a word is billions.
          if (!(T[e].lower == "b" && (e + 1 >= T.size() || T[e + 1].kind != Token::Kind::word))) {
            v *= sc;
            ++e;
          }
        }
      }
      if (e < T.size() && (T[e].kind == Token::Kind::word || T[e].lower == "%")) {
        auto it = units.find(T[e].lower);
        // "32-way" is a unit only when hyphenated to the number.
        if (it != units.end() && (std::string(it->second.canonical) != "way" || T[e - 1].hyphen_next)) {
          unit = it->second.canonical;
          ++e;
          if (it->second.per_time_follows && e + 1 < T.size()) {
            if (T[e].lower == "/" && time_unit(T[e + 1].lower)) {
              unit += std::string("/") + time_unit(T[e + 1].lower);
              e += 2;
            } else if (T[e].lower == "per" && time_unit(T[e + 1].lower)) {
              unit += std::string("/") + time_unit(T[e + 1].lower);
              e += 2;
            }
          }
        } else if (T[e].kind == Token::Kind::word) {
          noun = T[e].lower;
        }
      }
      if (!std::isfinite(v)) {  // "1e999x" overflows: no claim a measurement could be compared with
        k = e - 1;
        continue;
      }
      if (out.size() >= limit) {
        ++extra;
        continue;
      }
      Claim c;
      c.value = v;
      c.unit = unit;
      c.noun = noun;
      std::size_t tb = negative ? T[k - 1].begin : T[k].begin;
      c.text = quote(text, tb, T[e - 1].end, 80);
      c.sentence_begin = s.begin;
      c.sentence_end = s.end;
      Judgement j = judge_mention(s, k, e);
      c.polarity = j.polarity;
      if (j.trigger_end > j.trigger_begin && j.trigger_end <= T.size()) {
        c.trigger_begin = T[j.trigger_begin].begin;
        c.trigger_end = T[j.trigger_end - 1].end;
      }
      out.push_back(std::move(c));
      k = e - 1;
    }
  }
  if (more) *more = extra;
  return out;
}

}  // namespace rubric::text
