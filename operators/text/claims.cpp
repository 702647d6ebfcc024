#include "operators/text/claims.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "operators/text/analysed_text.hpp"
#include "operators/text/document.hpp"

namespace rubric::text {

namespace {

struct UnitWord {
  const char* canonical;
  bool per_time_follows;  // may be followed by "/s" or "per second" ("GB/s", "tokens per second")
  double factor = 1;      // the written number times this is in `canonical` ("3.2 Gbps" is 0.4 GB/s)
};

// Unit words by their lower-case spelling → the unit table's spelling.
const std::unordered_map<std::string, UnitWord>& unit_words() {
  static const std::unordered_map<std::string, UnitWord> m = {
      {"x", {"x", false}}, {"times", {"x", false}}, {"fold", {"x", false}}, {"%", {"%", false}}, {"percent", {"%", false}}, {"way", {"way", false}},
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
      {"tflops", {"TFLOP", true}}, {"pflop", {"PFLOP", true}}, {"pflops", {"PFLOP", true}}, {"mflop", {"MFLOP", true}},
      {"hr", {"h", false}}, {"hrs", {"h", false}}, {"mins", {"min", false}}, {"usec", {"us", false}}, {"usecs", {"us", false}},
      {"nsec", {"ns", false}}, {"nsecs", {"ns", false}}, {"msecs", {"ms", false}},
      // Bits per second, as bytes: "400 Gbps" is 50 GB/s.
      {"kbps", {"kB/s", false, 0.125}}, {"mbps", {"MB/s", false, 0.125}}, {"gbps", {"GB/s", false, 0.125}},
      {"tbps", {"TB/s", false, 0.125}}};
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

bool is_month(const Token& t) {
  static const char* const months[] = {"january", "february", "march", "april", "june", "july", "august", "september",
                                       "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul",
                                       "aug", "sep", "sept", "oct", "nov", "dec"};
  if (t.kind != Token::Kind::word) return false;
  if (t.lower == "may") return t.capital;  // "May 3" is a date, "may" a modal
  for (const char* m : months)
    if (t.lower == m) return t.capital;
  return false;
}

// Words after which a bare number is an index or a version, not a quantity: "Section 4.1",
// "step 3", "issue 42", "version 1.2", "layer 12", "GPU 0".
bool index_word(const std::string& w) {
  static const char* const words[] = {"section", "sec", "table", "figure", "fig", "step", "issue", "pr", "chapter", "page",
                                      "pp", "line", "eq", "equation", "appendix", "item", "stage", "phase", "version", "v",
                                      "release", "rev", "revision", "build", "patch", "cve", "rfc", "pep", "gpu", "rank",
                                      "node", "layer", "epoch", "iteration", "iter", "run", "trial", "case", "test", "example",
                                      "exercise", "question", "part", "task", "problem", "option", "level", "round", "day",
                                      "listing", "algorithm", "lemma", "theorem", "definition", "footnote", "note", "commit",
                                      "ticket", "bug", "number", "id", "slot", "device", "port", "row", "column", "cell",
                                      // software written in small letters before its version: "gcc 13.2", "driver 550.54"
                                      "driver", "capability", "gcc", "clang", "llvm", "python", "nvcc", "torch", "pytorch",
                                      "triton", "numpy", "jax", "ubuntu", "debian", "rocm", "cudnn", "nccl", "cuda", "glibc",
                                      "tensorrt", "opset", "sdk", "toolkit"};
  for (const char* x : words)
    if (w == x) return true;
  return false;
}

// Names of measures, after which a bare number is the measured value ("RMSE 0.02", "BLEU 27.4",
// "Perplexity 5.8"), however the name is written: no version or index follows these.
bool measure_word(const std::string& w) {
  static const std::unordered_set<std::string_view> words = {
      "rmse", "mse", "mae", "mape", "bleu", "rouge", "meteor", "chrf", "mmlu", "hellaswag", "kl", "perplexity", "ppl", "wer",
      "cer", "auc", "accuracy", "acc", "loss", "error", "err", "score", "recall", "precision", "em", "ssim", "psnr", "fid",
      "ndcg", "mrr", "mfu", "tflops", "gflops", "throughput", "latency", "bandwidth", "speedup", "occupancy", "cosine",
      "similarity", "divergence", "entropy", "norm", "residual", "p50", "p90", "p95", "p99", "f1", "auroc", "bpb"};
  return words.count(w) > 0;
}

// Which number tokens of a sentence are names, versions, dates, times or indices rather than
// quantities: "Llama-3.1-8B", "Qwen2.5-7B", "§3.2", "x86-64" (joined to a word), "vLLM 0.6.3"
// (dotted), "CUDA 12.4", "Python 3.11" (a bare number after a name), "2024-05-01", "May 3, 2024",
// "in 2024", "10:30", "2:4" (a ratio), "#1234", "Section 4.1", "step 3".
// 1: never a quantity; 2: not one when no unit follows ("CUDA 12.4" is a version, "H100 80 GB" a size).
std::vector<std::uint8_t> not_quantities(std::string_view text, const Sentence& s) {
  const auto& T = s.tokens;
  const std::size_t n = T.size();
  std::vector<std::uint8_t> skip(n, 0);
  auto num = [&](std::size_t k) { return k < n && T[k].kind == Token::Kind::number; };
  auto glued = [&](std::size_t k) { return k < n && k > 0 && (T[k].glued_prev || T[k - 1].hyphen_next); };
  for (std::size_t k = 0; k < n; ++k) {
    if (!num(k)) continue;
    if (T[k].in_code) {  // a number of an inline code span is code, not a claim
      skip[k] = 1;
      continue;
    }
    // Joined, through hyphens, dots or nothing, to a word before it: part of a name.
    for (std::size_t j = k; j > 0 && glued(j); --j)
      if (T[j - 1].kind == Token::Kind::word) {
        // "2x-3x", "10ms-20ms": a range of quantities, the unit glued to the first number.
        bool range = j == k && j > 1 && T[j - 1].hyphen_next && T[j - 1].glued_prev && num(j - 2) && unit_words().count(T[j - 1].lower);
        if (!range) skip[k] = true;
        break;
      }
    // Dotted versions "0.6.3", dates "2024-05-01", "05/01/2024", times and ratios "10:30", "2:4".
    if (k + 2 < n && num(k + 2) && T[k + 1].glued_prev && T[k + 2].glued_prev &&
        (T[k + 1].lower == "." || T[k + 1].lower == ":" || T[k + 1].lower == "/")) {
      std::size_t e = k + 2;
      while (e + 2 < n && num(e + 2) && T[e + 1].lower == T[k + 1].lower && T[e + 1].glued_prev && T[e + 2].glued_prev) e += 2;
      if (T[k + 1].lower != "/" || e > k + 2)  // "45 GB/s" never gets here; "1/2" alone is a fraction
        for (std::size_t m = k; m <= e; ++m) skip[m] = true;
    }
    if (T[k].hyphen_next && num(k + 1) && T[k].lower.size() == 4 && T[k + 1].lower.size() == 2 && T[k + 1].hyphen_next &&
        num(k + 2))
      skip[k] = skip[k + 1] = skip[k + 2] = true;  // ISO date
    // Dates: "May 3, 2024", "3 May 2024", "March 2024", "in 2024".
    bool year = T[k].lower.size() == 4 && T[k].lower.find('.') == std::string::npos && T[k].lower >= "1900" && T[k].lower <= "2100";
    if ((k > 0 && is_month(T[k - 1])) || (k + 1 < n && is_month(T[k + 1]))) skip[k] = true;
    if (year && k > 0) {
      const std::string& p = T[k - 1].lower;
      if (p == "in" || p == "since" || p == "until" || p == "during" || p == "by" || p == "from" || p == "early" ||
          p == "late" || p == "mid" || (p == "," && k > 1 && num(k - 2) && k > 2 && is_month(T[k - 3])) ||
          (num(k - 1) && k > 1 && is_month(T[k - 2])))  // "Jan 5 2025"
        skip[k] = true;
    }
    // Indices and versions after a word: "Section 4.1", "CUDA 12.4", "Python 3.11" (a name: all
    // capitals, mixed case, or a capital word inside the sentence), "#1234", "No. 5".
    if (k > 0 && T[k - 1].kind == Token::Kind::word && !T[k].glued_prev) {
      const Token& w = T[k - 1];
      static const char* const plain[] = {"about", "around", "roughly", "nearly", "only", "over", "under", "with", "at", "in",
                                          "by", "for", "from", "after", "before", "between", "up", "almost", "approximately",
                                          "exactly", "just", "some", "all", "the", "a", "an", "and", "but", "so", "then", "now",
                                          "here", "there", "it", "we", "our", "this", "that", "these", "those", "each", "every",
                                          "both", "overall", "to", "of", "on", "is", "was", "are", "less", "more", "than", "below",
                                          "above", "within", "per", "using", "use", "yes", "no", "if", "when", "also", "still"};
      bool common = false;
      for (const char* x : plain) common = common || w.lower == x;
      // No version or index is written with an exponent: "relative L2 6.5e-8" is an error's size.
      bool exponent = T[k].lower.find_first_of("eE") != std::string::npos;
      if ((index_word(w.lower) || w.all_caps || w.mixed_case || (w.capital && (k - 1 > 0 || !common))) && !skip[k] && !exponent &&
          !measure_word(w.lower))
        skip[k] = 2;
    }
    if (T[k].begin > 0 && (text[T[k].begin - 1] == '#' || (T[k].begin > 1 && text[T[k].begin - 1] == ' ' && text[T[k].begin - 2] == '#')))
      skip[k] = true;
    if (k > 1 && T[k - 1].lower == "." && T[k - 2].lower == "no" && T[k - 2].capital) skip[k] = true;
  }
  return skip;
}

// A number as it is written: its value, the unit or the noun after it, and where it ends.
struct Quantity {
  double value = 0;
  double scale = 0;            // the k/M/B suffix's factor, 0 when none
  std::size_t end = 0;         // the token after the quantity
  std::size_t range_end = 0;   // a range's first number: the token after the whole range, else 0
  std::string unit, noun;
  bool negative = false;
  bool model_name = false;     // "the 70B model": a name; `end` is after the B
};

// Words that never name what a number counts ("3e-4 and", "13 were").
bool function_word(const std::string& w) {
  static const char* const words[] = {"and", "or", "but", "nor", "of", "the", "a", "an", "to", "in", "on", "at", "for",
                                      "with", "by", "from", "as", "than", "then", "so", "is", "are", "was", "were", "be",
                                      "been", "has", "have", "had", "it", "its", "this", "that", "these", "those", "which",
                                      "who", "when", "where", "while", "if", "vs", "versus", "into", "over", "under", "after",
                                      "before", "because", "since", "yet", "not", "no", "also", "we", "i", "you", "they",
                                      "against", "relative", "compared", "per", "across", "between", "through", "via",
                                      "during", "within", "without", "about", "around", "above", "below", "behind", "beyond",
                                      "toward", "towards", "upon", "among", "despite", "until", "unless", "whereas", "though",
                                      "although", "only", "just", "even", "still", "there", "here", "he", "she", "our", "their"};
  for (const char* x : words)
    if (w == x) return true;
  return false;
}

// The unit a table header names, as its words joined ("µs", "gb/s", "tok/s", "%"), in the unit
// table's spelling; "" when it is none ("(n)", "(median)").
std::string header_unit(const std::string& joined) {
  const auto& units = unit_words();
  std::size_t slash = joined.find('/');
  auto it = units.find(joined.substr(0, slash));
  if (it == units.end()) return std::string();
  std::string unit = it->second.canonical;
  if (slash == std::string::npos) return unit;
  const char* per = it->second.per_time_follows ? time_unit(joined.substr(slash + 1)) : nullptr;
  return per ? unit + "/" + per : std::string();
}

// "N times" (number k, "times" ending before e) is a multiplier when a comparison follows it
// ("faster", "the baseline", "as fast", "more") or a change precedes it ("by", "grew", "of").
bool times_multiplies(const std::vector<Token>& T, std::size_t k, std::size_t e) {
  static const char* const kAfter[] = {"faster", "slower", "quicker", "speedup", "speed", "improvement", "more", "fewer",
                                       "less", "higher", "lower", "better", "worse", "larger", "smaller", "bigger",
                                       "greater", "the", "as", "that", "what", "over", "than", "throughput",
                                       "bandwidth", "latency", "memory", "longer", "shorter", "cheaper", "costlier"};
  static const char* const kBefore[] = {"by", "of", "increased", "increase", "increases", "grew", "grow", "grows", "rose",
                                        "rises", "improved", "improves", "dropped", "drops", "decreased", "reduced", "fell",
                                        "shrank", "boosted", "accelerated", "multiplied", "cut", "up", "down", "sped"};
  if (e < T.size())
    for (const char* x : kAfter)
      if (T[e].lower == x) return true;
  std::size_t b = k;
  // The first number of a range ("between 2 and 3 times", "2-3 times") stands for the range.
  while (b >= 2 && T[b - 1].kind != Token::Kind::number && (T[b - 1].lower == "and" || T[b - 1].lower == "to") &&
         T[b - 2].kind == Token::Kind::number)
    b -= 2;
  while (b >= 1 && T[b - 1].kind == Token::Kind::number && T[b - 1].hyphen_next) --b;
  if (b > 0 && T[b - 1].lower == "between") --b;
  if (b > 0)
    for (const char* x : kBefore)
      if (T[b - 1].lower == x) return true;
  return false;
}

// Whose a hedged figure at token `at` is, by the words [tb, te) that hedged it (Claim::source):
// another's figure ("the vendor claims", "the paper reports", polarity.cpp's rule), a label's list
// ("Keywords:"), or a belief the writer left behind ("I initially thought it was 3x", "we expected
// 2.5x"). Anything else is the answer's own, and so is a doubt: a figure that is not left out of
// the answer's claims on a clear reading stays in them, so an overclaim cannot pass as another's.
std::string claim_source(const Sentence& s, std::size_t tb, std::size_t te, std::size_t at) {
  static const std::unordered_set<std::string_view> kAnother = {
      "claim", "claims", "claimed", "advertises", "advertised", "promises", "promised", "touts", "touted", "reports",
      "reported", "says", "said", "states", "stated", "quotes", "quoted", "cites", "cited", "lists", "according"};
  static const std::unordered_set<std::string_view> kListed = {"keywords", "keyword", "tags", "tag"};
  static const std::unordered_set<std::string_view> kLeftBehind = {"thought", "initially", "originally", "expected",
                                                                    "anticipated", "hoped", "believed"};
  // The writer's own source ("our benchmark says", "this report claims") or a second clause with a
  // figure found ("we expected 2x and got 10x", "thought it through and measured 10x").
  static const std::unordered_set<std::string_view> kOwner = {"our", "my", "this", "we", "i", "these"};
  static const std::unordered_set<std::string_view> kFound = {
      "and", "but", ";", ":", "got", "get", "measured", "measure", "saw", "see", "observed",
      "gives", "gave", "reached", "reaches", "shows", "showed", "result", "results", "obtained", "achieved", "hit", "yields"};
  const auto& T = s.tokens;
  for (std::size_t k = tb; k < te && k < T.size(); ++k) {
    const std::string_view w = T[k].lower;
    if (kListed.count(w)) return "listed";
    if (kAnother.count(w)) {
      for (std::size_t m = k; m-- > 0 && k - m <= 3;)
        if (kOwner.count(T[m].lower)) return "answer";
      return "another";
    }
    if (kLeftBehind.count(w)) {
      for (std::size_t m = te; m < at && m < T.size(); ++m)
        if (kFound.count(T[m].lower)) return "answer";
      // An expectation names its figure at once ("expected 2.5x", "expected a 2.5x"); "Expected
      // speedup: 10x" is the answer's own estimate.
      if ((w == "expected" || w == "anticipated") && at > te + 2) return "answer";
      return "past belief";
    }
  }
  return "answer";
}

}  // namespace

std::vector<Claim> find_claims(std::string_view text, Stemmer& stemmer, std::size_t limit, std::size_t* more) {
  AnalysedText streamed(text, stemmer, nullptr);
  return find_claims(streamed, limit, more);
}

std::vector<Claim> find_claims(AnalysedText& analysed, std::size_t limit, std::size_t* more) {
  const std::string_view text = analysed.text();
  std::vector<Claim> out;
  std::size_t extra = 0;
  AnalysedText::Reader reader(analysed);
  const auto& units = unit_words();
  while (const Sentence* sp = reader.next()) {
    const Sentence& s = *sp;
    const auto& T = s.tokens;
    std::vector<std::uint8_t> skip = not_quantities(text, s);
    // The quantity written at number k: its value, unit or noun, and the token after it.
    auto read = [&](std::size_t k) {
      Quantity q;
      // Part of a name or a range's second half is still a number; a number glued after a word is
      // never produced by the tokeniser ("fp32" is one word).
      double v = std::strtod(T[k].lower.c_str(), nullptr);
      q.negative = k > 0 && T[k - 1].lower == "-" && T[k].glued_prev && (k < 2 || T[k - 2].kind != Token::Kind::number);
      if (q.negative) v = -v;
      std::size_t e = k + 1;
      std::string unit, noun;
      // "1/3": a fraction is one number (a date "05/01/2024" is skipped as a whole below).
      if (e + 1 < T.size() && T[e].lower == "/" && T[e].glued_prev && T[e + 1].kind == Token::Kind::number && T[e + 1].glued_prev &&
          !(e + 2 < T.size() && T[e + 2].lower == "/" && T[e + 2].glued_prev) && !skip[k]) {
        double d = std::strtod(T[e + 1].lower.c_str(), nullptr);
        if (d != 0) {
          v /= d;
          e += 2;
        }
      }
      // "16k tokens", "1.5 million requests"
      if (e < T.size() && T[e].kind == Token::Kind::word) {
        double sc = suffix_scale(T[e].lower);
        bool glued = T[e].glued_prev;
        if (sc > 0 && (glued || T[e].lower.size() > 1) && !(T[e].lower == "b" && glued && e + 1 < T.size() && T[e + 1].lower == "/")) {
          // "16 B" alone is bytes, "16B params" a count: a glued capital B before a word is billions.
          if (!(T[e].lower == "b" && (e + 1 >= T.size() || T[e + 1].kind != Token::Kind::word))) {
            // "the 70B model", "an 8B variant": a model's size is its name, not a claim; a count
            // is one with its noun ("70B parameters", "15T tokens").
            if (glued && T[e].lower == "b" && e + 1 < T.size() && T[e + 1].kind == Token::Kind::word &&
                !units.count(T[e + 1].lower)) {
              static const char* const kCountNouns[] = {"params", "parameters", "parameter", "param", "weights", "examples",
                                                        "samples", "rows", "records", "entries", "elements", "values"};
              bool count = false;
              for (const char* x : kCountNouns) count = count || T[e + 1].lower == x;
              if (!count) {
                q.model_name = true;
                q.end = e + 1;
                return q;
              }
            }
            v *= sc;
            q.scale = sc;
            ++e;
          }
        }
      }
      if (e < T.size() && (T[e].kind == Token::Kind::word || T[e].lower == "%")) {
        // "40 per cent" (British) is "40 percent".
        const bool per_cent = T[e].lower == "per" && e + 1 < T.size() && T[e + 1].lower == "cent";
        auto it = units.find(per_cent ? std::string("percent") : T[e].lower);
        if (per_cent) ++e;
        // "32-way" is a unit only when hyphenated to the number.
        if (it != units.end() && (std::string(it->second.canonical) != "way" || T[e - 1].hyphen_next)) {
          unit = it->second.canonical;
          v *= it->second.factor;
          const std::size_t u = e++;
          // "400 Gb/s": a small b after a capital prefix is bits, an eighth of the bytes.
          const bool bits = T[u].end - T[u].begin == 2 && unit.size() == 2 && unit[1] == 'B' && text[T[u].end - 1] == 'b' &&
                            text[T[u].begin] >= 'A' && text[T[u].begin] <= 'Z';
          bool per_time = false;
          if (it->second.per_time_follows && e + 1 < T.size()) {
            if ((T[e].lower == "/" || T[e].lower == "per") && time_unit(T[e + 1].lower)) {
              unit += std::string("/") + time_unit(T[e + 1].lower);
              e += 2;
              per_time = true;
              if (bits) v /= 8;
            }
          }
          // "3 times faster", "2 times the baseline", "grew by 2.1 times" multiply; "ran it 10 times"
          // counts repetitions: a plain count with the noun "times".
          if (T[u].lower == "times" && !times_multiplies(T, k, e)) {
            unit.clear();
            noun = "times";
          }
          // "900 TFLOPS" is a rate (floating-point operations per second); "2 TFLOPs" a count.
          if (!per_time && unit.size() >= 4 && unit.compare(unit.size() - 4, 4, "FLOP") == 0 && T[u].end > T[u].begin &&
              text[T[u].end - 1] == 'S')
            unit += "/s";
        } else if (T[e].kind == Token::Kind::word && !function_word(T[e].lower)) {
          noun = T[e].lower;
        }
      }
      q.value = v;
      q.end = e;
      q.unit = std::move(unit);
      q.noun = std::move(noun);
      return q;
    };
    for (std::size_t k = 0; k < T.size(); ++k) {
      if (T[k].kind != Token::Kind::number) continue;
      Quantity q = read(k);
      if (q.model_name) {
        k = q.end - 1;
        continue;
      }
      // A range's first number takes the unit (and the k/M suffix) written after the second:
      // "2-3x", "2–3x", "30-40%", "1-3 ms", "2-4k tokens", "from 2 to 3x", "between 2 and 3 times";
      // so does a value with its uncertainty: "2.3 ± 0.1 ms".
      if (q.unit.empty() && q.noun.empty() && q.end < T.size()) {
        std::size_t hi = 0;
        if (q.end == k + 1 && T[k].hyphen_next && T[q.end].kind == Token::Kind::number) hi = q.end;
        else if (q.end + 1 < T.size() && T[q.end + 1].kind == Token::Kind::number &&
                 (T[q.end].lower == "to" || T[q.end].lower == "\xc2\xb1" ||
                  (T[q.end].lower == "and" && k > 0 && T[k - 1].lower == "between")))
          hi = q.end + 1;
        if (hi) {
          Quantity h = read(hi);
          if (!h.model_name && !h.unit.empty() && !h.negative) {
            q.unit = h.unit;
            if (q.scale == 0 && h.scale > 0) q.value *= h.scale;
            q.range_end = h.end;
          }
        }
      }
      // A number alone in a table cell takes the unit its column's header names ("Time (µs)").
      if (s.table_row && q.unit.empty() && q.end == k + 1 && (k == 0 || T[k - 1].lower == "|") &&
          (q.end == T.size() || T[q.end].lower == "|")) {
        std::size_t column = 0;
        for (std::size_t m = 0; m < k; ++m) column += T[m].lower == "|";
        if (s.column_units && column < s.column_units->size() && !(*s.column_units)[column].empty())
          q.unit = header_unit((*s.column_units)[column]);
        // Else the unit the row's label names: "| Time (µs) | 120 | 45 |".
        if (q.unit.empty()) {
          std::size_t a = !T.empty() && T[0].lower == "|" ? 1 : 0, b = a;
          while (b < T.size() && T[b].lower != "|") ++b;
          if (b < k) q.unit = header_unit(cell_unit(text, T, a, b));
        }
      }
      // "2.4 × 10^-3", "2.4 x 10^-3": a number times a power of ten, not a ratio and a number.
      // (The power is one token, read as its value: its written text says it was "10^...".)
      if (q.unit == "x" && q.end < T.size() && T[q.end].kind == Token::Kind::number && text.compare(T[q.end].begin, 2, "10") == 0) {
        Quantity p = read(q.end);
        const std::string_view written = text.substr(T[q.end].begin, T[p.end - 1].end - T[q.end].begin);
        const bool power = written.find('^') != std::string_view::npos || written.find("\xe2\x81") != std::string_view::npos ||
                           written.find("\xc2\xb9") != std::string_view::npos || written.find("\xc2\xb2") != std::string_view::npos ||
                           written.find("\xc2\xb3") != std::string_view::npos;
        if (power && !p.model_name) {
          q.value *= p.value;
          q.unit = p.unit;
          q.noun = p.noun;
          q.end = p.end;
        }
      }
      // "an 8x A100 node", "4x H100s", "2x GPUs": a count of devices, not a speedup.
      if (q.unit == "x" && q.end < T.size() && T[q.end].kind == Token::Kind::word) {
        const Token& d = T[q.end];
        // A name with a model number: "A100" as one word, or "A" glued to "100".
        const bool glued_number = d.lower.size() <= 2 && q.end + 1 < T.size() && T[q.end + 1].kind == Token::Kind::number &&
                                  T[q.end + 1].glued_prev;
        const bool device_name = d.capital && (glued_number || d.lower.find_first_of("0123456789") != std::string::npos);
        static const std::unordered_set<std::string_view> kDevices = {"gpu", "gpus", "node", "nodes", "card", "cards",
                                                                      "cpu", "cpus", "socket", "sockets", "machine", "machines"};
        if (device_name || kDevices.count(d.lower)) {
          q.unit.clear();
          q.noun = device_name && glued_number ? d.lower + T[q.end + 1].lower : d.lower;
        }
      }
      std::size_t e = q.end;
      const std::string& unit = q.unit;
      const bool negative = q.negative;
      if (skip[k] == 1 || (skip[k] == 2 && unit.empty())) continue;  // a name, a version, a date, an index
      if (!std::isfinite(q.value)) {  // "1e999x" overflows: no claim a measurement could be compared with
        k = e - 1;
        continue;
      }
      if (out.size() >= limit) {
        ++extra;
        continue;
      }
      Claim c;
      c.value = q.value;
      c.unit = unit;
      c.noun = q.noun;
      std::size_t tb = negative ? T[k - 1].begin : T[k].begin;
      c.text = quote(text, tb, T[(q.range_end ? q.range_end : e) - 1].end, 80);
      c.sentence_begin = s.begin;
      c.sentence_end = s.end;
      Judgement j = judge_mention(s, k, e);
      c.polarity = j.polarity;
      c.ambiguous = j.ambiguous;
      if (j.trigger_end > j.trigger_begin && j.trigger_end <= T.size()) {
        c.trigger_begin = T[j.trigger_begin].begin;
        c.trigger_end = T[j.trigger_end - 1].end;
        if (c.polarity == Polarity::hedged) c.source = claim_source(s, j.trigger_begin, j.trigger_end, k);
      }
      out.push_back(std::move(c));
      k = e - 1;
    }
  }
  if (more) *more = extra;
  return out;
}

}  // namespace rubric::text
