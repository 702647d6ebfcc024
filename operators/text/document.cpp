#include "operators/text/document.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <unordered_map>
#include <unordered_set>

#include "operators/text/analysed_text.hpp"
#include "operators/text/html_tags.hpp"
#include "operators/text/unicode.hpp"

namespace rubric::text {

namespace {

constexpr std::size_t npos = std::string::npos;
constexpr std::size_t kMaxSentenceTokens = 2000;  // a run-on "sentence" is cut here (bounds the work per sentence)

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A byte that continues or starts a word: ASCII letters, digits and '_', and non-ASCII letters
// (operators/text/unicode.hpp decides which characters are letters; spaces, dashes, quotes and
// invisible characters are not).
bool word_byte(std::string_view t, std::size_t i) {
  if (i >= t.size()) return false;
  unsigned char c = static_cast<unsigned char>(t[i]);
  if (c >= 0x80) return glyph_at(t, i).cls == Glyph::Class::letter;
  return is_alpha(c) || is_digit(c) || c == '_';
}

// An ASCII control character other than white space (NUL, ESC, DEL, ...): nothing a reader sees.
bool is_control(unsigned char c) { return (c < 0x20 && !is_space(c)) || c == 0x7F; }

// Words that open sentences far more often than they follow an initial: after "plan A." or
// "Appendix C." they say the dot ended a sentence ("E. C. Lai", "John F. Kennedy" go on).
const std::unordered_set<std::string> kSentenceOpeners = {
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "we", "i", "he", "she", "they", "there", "in",
    "on", "at", "for", "but", "however", "so", "then", "our", "my", "your", "their", "his", "her", "if", "when", "with",
    "after", "before", "both", "each", "all", "no", "not", "neither", "only", "also", "as", "to", "by", "from", "one",
    "two", "next", "finally", "first", "second", "here", "what", "why", "how", "is", "was", "are", "were", "do", "does",
    "did", "and", "or", "yes", "thus", "hence", "therefore", "since", "because", "while", "although"};

// A terminal escape sequence at i (ECMA-48: CSI "ESC [ ... m", OSC "ESC ] ... BEL", or ESC and one
// byte): its length, or 0. A terminal shows none of it, so "are \x1b[0mnot the cause" reads "are not".
std::size_t escape_sequence(std::string_view t, std::size_t i) {
  if (i >= t.size() || t[i] != '\x1b' || i + 1 >= t.size()) return 0;
  std::size_t k = i + 2;
  if (t[i + 1] == '[') {
    while (k < t.size() && static_cast<unsigned char>(t[k]) >= 0x20 && static_cast<unsigned char>(t[k]) <= 0x3F) ++k;
    return k < t.size() && static_cast<unsigned char>(t[k]) >= 0x40 && static_cast<unsigned char>(t[k]) <= 0x7E ? k + 1 - i : 0;
  }
  if (t[i + 1] == ']') {  // ended by BEL or by ESC backslash
    for (; k < t.size() && k - i < 4096; ++k) {
      if (t[k] == '\a') return k + 1 - i;
      if (t[k] == '\x1b' && k + 1 < t.size() && t[k + 1] == '\\') return k + 2 - i;
    }
    return 0;
  }
  const unsigned char b = static_cast<unsigned char>(t[i + 1]);
  return b >= 0x30 && b <= 0x7E ? 2 : 0;  // Fp, Fe and Fs: "ESC 7", "ESC M", "ESC c"
}

// What is left of a colour code whose escape byte was lost on the way (pasted from a terminal or
// written out): "[31m", "[0m", "[1;31m", with "^[", "\033", "\e" or "\x1b" before it. A terminal
// showed none of it; the words around it read as they were shown. Its length at i, or 0.
std::size_t escape_remnant(std::string_view t, std::size_t i) {
  std::size_t k = i;
  for (std::string_view lead : {"^[", "\\033", "\\e", "\\x1b", "\\x1B", "\\u001b"})
    if (t.compare(k, lead.size(), lead) == 0 && k + lead.size() < t.size() && t[k + lead.size()] == '[') {
      k += lead.size();
      break;
    }
  if (k >= t.size() || t[k] != '[') return 0;
  std::size_t d = k + 1, digits = 0;
  while (d < t.size() && (is_digit(static_cast<unsigned char>(t[d])) || t[d] == ';') && d - k <= 12) digits += t[d++] != ';';
  return digits > 0 && d < t.size() && t[d] == 'm' ? d + 1 - i : 0;
}

// ASCII controls and terminal escape sequences at i: their total length.
std::size_t control_run(std::string_view t, std::size_t i) {
  std::size_t k = i;
  while (k < t.size() && is_control(static_cast<unsigned char>(t[k]))) k += std::max<std::size_t>(1, escape_sequence(t, k));
  return k - i;
}

// Invisible characters (zero-width spaces and joiners, soft hyphens, ASCII controls, terminal
// escape sequences) at i: their total length.
std::size_t invisible_run(std::string_view t, std::size_t i) {
  std::size_t k = i + control_run(t, i);
  while (k < t.size() && static_cast<unsigned char>(t[k]) >= 0x80) {
    Glyph g = glyph_at(t, k);
    if (g.cls != Glyph::Class::invisible) break;
    k += g.len;
    k += control_run(t, k);
  }
  return k - i;
}

// A word byte at i, past any invisible characters ("con\u00ADflict" is one word).
bool word_after_invisible(std::string_view t, std::size_t i) { return word_byte(t, i + invisible_run(t, i)); }

// A hyphen joining two words at i ("bank-conflict", "bank\u2011conflict", "bank\u2013conflict"
// with no spaces): its length, or 0.
std::size_t joining_hyphen(std::string_view t, std::size_t i) {
  if (i >= t.size()) return 0;
  std::size_t len = 0;
  if (t[i] == '-') len = 1;
  else if (static_cast<unsigned char>(t[i]) >= 0x80) {
    Glyph g = glyph_at(t, i);
    if (g.cls == Glyph::Class::hyphen || (g.cls == Glyph::Class::dash && g.punct == '-')) len = g.len;
  }
  return len && word_byte(t, i + len) ? len : 0;
}

bool is_apostrophe(std::string_view t, std::size_t i, std::size_t& len) {
  if (i < t.size() && t[i] == '\'') return len = 1, true;
  if (i < t.size() && static_cast<unsigned char>(t[i]) >= 0x80) {
    Glyph g = glyph_at(t, i);
    if (g.cls == Glyph::Class::apostrophe) return len = g.len, true;
  }
  return false;
}

// A closing quote or bracket after a sentence's end mark ("... fine.)", "... fine.”").
std::size_t closing_after(std::string_view t, std::size_t i) {
  if (i >= t.size()) return 0;
  char c = t[i];
  if (c == ')' || c == '"' || c == '\'' || c == '*' || c == '_') return 1;
  if (static_cast<unsigned char>(c) >= 0x80) {
    Glyph g = glyph_at(t, i);
    if (g.cls == Glyph::Class::quote || g.cls == Glyph::Class::apostrophe) return g.len;
  }
  return 0;
}

// A check mark at t[i] ("✅", "✔", "✓", "☑" say yes; "❌", "✗", "✘", "✖", "☒", "❎" say no), with a
// variation selector after it: (+1 or -1, its length in bytes), or (0, 0).
std::pair<int, std::size_t> check_mark_at(std::string_view t, std::size_t i) {
  static const std::array<std::pair<std::string_view, int>, 10> kMarks = {{
      {"\xE2\x9C\x85", 1}, {"\xE2\x9C\x94", 1}, {"\xE2\x9C\x93", 1}, {"\xE2\x98\x91", 1},
      {"\xE2\x9D\x8C", -1}, {"\xE2\x9C\x97", -1}, {"\xE2\x9C\x98", -1}, {"\xE2\x9C\x96", -1},
      {"\xE2\x98\x92", -1}, {"\xE2\x9D\x8E", -1}}};
  for (const auto& [mark, says] : kMarks)
    if (t.compare(i, mark.size(), mark) == 0) {
      std::size_t len = mark.size();
      if (t.compare(i + len, 3, "\xEF\xB8\x8F") == 0) len += 3;  // U+FE0F, the emoji form
      return {says, len};
    }
  return {0, 0};
}

const std::unordered_set<std::string_view> kAbbreviations = {
    "e.g", "i.e", "etc", "vs", "cf", "approx", "fig", "figs", "eq", "eqs", "al", "mr", "mrs", "dr", "prof", "resp", "no",
    "nr", "sec", "sect", "ch", "ref", "refs", "viz", "ca", "st", "jr", "ms.", "est", "incl", "tab", "tbl", "pp", "vol"};

}  // namespace

namespace {

// A label of a few words, no verb, that denies what it labels: "Ruled out:", "Not the cause:",
// "Excluded:", "Non-causes:" (the tokens end with the colon).
// A label or a short heading that denies the items under it: "Ruled out:", "## Not the cause",
// "Excluded causes", "Red herrings:", "Things that are not the cause:". `colon`: the last token is
// the label's colon (a heading has none). A verb makes it a clause ("It is not the cache:"), but
// for one in a relative clause on the label's noun ("that are not", "which is not").
bool label_denies(const std::vector<Token>& tokens, bool colon = true) {
  static const std::array<std::string_view, 30> kDenying = {
      "not", "n't", "no", "none", "never", "nothing", "ruled", "excluded", "eliminated", "rejected", "dismissed", "unrelated",
      "irrelevant", "innocent", "absent", "negative", "non", "herring", "herrings", "discarded", "disproven", "disproved",
      "refuted", "myth", "myths", "misconception", "misconceptions", "healthy", "exonerated", "cleared"};
  static const std::array<std::string_view, 21> kVerbs = {"is", "are", "was", "were", "be", "been", "am", "do", "does", "did", "has",
                                                          "have", "had", "can", "could", "will", "would", "should", "may", "might", "must"};
  const std::size_t words = tokens.size() - (colon ? 1 : 0);
  if (tokens.size() < (colon ? 2u : 1u) || words > 7) return false;
  // A negation names a category only with a role after it ("Not the cause", "No issues", "Non-causes");
  // "Not the NIC" and "No spills" deny a thing, they label nothing.
  static const std::array<std::string_view, 6> kNegators = {"not", "n't", "no", "none", "never", "non"};
  static const std::array<std::string_view, 22> kRoles = {
      "cause", "causes", "culprit", "culprits", "problem", "problems", "issue", "issues", "factor", "factors", "reason",
      "reasons", "suspect", "suspects", "bottleneck", "bottlenecks", "source", "sources", "involved", "relevant",
      "responsible", "blame"};
  bool denies = false, relative = false;
  for (std::size_t k = 0; k < words; ++k) {
    if (tokens[k].lower == "(") {  // "Ruled out (see the logs):": a parenthesis adds to the label
      for (; k < words && tokens[k].lower != ")"; ++k)
        if (names_candidates(tokens, k)) return false;  // "Ruled out (tentatively):" doubts
      continue;
    }
    if (tokens[k].kind != Token::Kind::word) return false;
    const std::string& w = tokens[k].lower;
    // "Not yet ruled out:", "Never excluded:": a denial denied is a doubt (names_candidates).
    if (doubted_denial(tokens, k)) return false;
    relative = relative || (k > 0 && (w == "that" || w == "which")) || w == "what";  // "## What it is not"
    for (std::string_view v : kVerbs)
      if (w == v && !relative) return false;
    bool negator = false;
    for (std::string_view x : kNegators) negator = negator || w == x;
    if (!negator) {
      for (std::string_view d : kDenying) denies = denies || w == d;
      continue;
    }
    for (std::size_t m = k + 1; m < words && m <= k + 3; ++m)
      for (std::string_view r : kRoles) denies = denies || tokens[m].lower == r;
    // "What it is not", "What it isn't": the negation ends a label that names what the items are not.
    denies = denies || (relative && k + 1 == words);
  }
  return denies;
}

}  // namespace

bool names_candidates(std::string_view w) {
  // Estimates are not measurements: "Estimated bandwidth: 1.9 TB/s" hedges its value; "Unlikely:",
  // "Open questions:", "Unverified:" doubt theirs as "Possible causes:" does.
  static const std::array<std::string_view, 41> kWords = {
      "keywords", "keyword", "tags", "tag", "candidates", "candidate", "suspects", "suspect", "hypotheses",
      "hypothesis", "possibilities", "possibility", "possible", "potential", "suspected", "likely", "probable",
      "plausible", "guess", "estimated", "estimate", "assumed", "predicted", "projected", "presumed", "unlikely",
      "improbable", "questions", "unverified", "unconfirmed", "untested", "speculative", "hunches", "theories",
      "guesses", "maybe", "tentative", "unsure", "uncertain", "expected", "tentatively"};
  for (std::string_view x : kWords)
    if (w == x) return true;
  return false;
}

bool doubted_denial(const std::vector<Token>& tokens, std::size_t k) {
  static const std::array<std::string_view, 13> kShown = {"ruled", "rule", "excluded", "exclude", "tested", "checked",
                                                          "confirmed", "confirm", "verified", "verify", "sure", "eliminated",
                                                          "cleared"};
  bool shown = false;
  for (std::string_view x : kShown) shown = shown || tokens[k].lower == x;
  if (!shown) return false;
  for (std::size_t m = k; m-- > 0 && k - m <= 2;) {
    const std::string& w = tokens[m].lower;
    if (w == "not" || w == "n't" || w == "never" || w == "un") return true;
  }
  return false;
}

bool names_candidates(const std::vector<Token>& tokens, std::size_t k) {
  // "Not yet ruled out:", "Not tested:", "Not sure:": a denial or a check denied is a doubt.
  if (doubted_denial(tokens, k)) return true;
  // "To check:", "To investigate:": what is still to be looked at.
  static const std::array<std::string_view, 8> kToDo = {"check", "investigate", "verify", "confirm", "test", "explore",
                                                        "try", "measure"};
  if (names_candidates(tokens[k].lower)) return true;
  if (k == 0 || tokens[k - 1].lower != "to") return false;
  for (std::string_view x : kToDo)
    if (tokens[k].lower == x) return true;
  return false;
}

SentenceStream::SentenceStream(std::string_view text, Stemmer& stemmer, bool markdown)
    : rendered_(markdown ? characters_as_rendered(text) : std::string()),
      t_(rendered_.empty() ? text : std::string_view(rendered_)),
      stemmer_(stemmer),
      markdown_(markdown) {
  if (!markdown_) return;
  // Inline code spans close with a run of the same number of backticks: index the runs once so
  // finding a closer is a forward walk, never a rescan (an unclosed run must not make this quadratic).
  for (std::size_t i = 0; i < t_.size();) {
    if (t_[i] != '`') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < t_.size() && t_[j] == '`') ++j;
    std::size_t run = std::min<std::size_t>(j - i, 64);
    if (backtick_runs_.size() <= run) backtick_runs_.resize(run + 1);
    backtick_runs_[run].push_back(i);
    i = j;
  }
  backtick_cursor_.assign(backtick_runs_.size(), 0);
}

std::size_t SentenceStream::closing_backticks(std::size_t from, std::size_t run) {
  run = std::min<std::size_t>(run, 64);
  if (run >= backtick_runs_.size()) return npos;
  auto& runs = backtick_runs_[run];
  std::size_t& k = backtick_cursor_[run];
  while (k < runs.size() && runs[k] < from) ++k;
  return k < runs.size() ? runs[k] : npos;
}

std::size_t SentenceStream::next_blank_line(std::size_t from) {
  if (blank_line_at_ == kNoneLeft || (blank_line_at_ != kUnsearched && blank_line_at_ >= from))
    return blank_line_at_ == kNoneLeft ? npos : blank_line_at_;
  for (std::size_t nl = t_.find('\n', from); nl != npos; nl = t_.find('\n', nl + 1)) {
    std::size_t k = nl + 1;
    while (k < t_.size() && (t_[k] == ' ' || t_[k] == '\t' || t_[k] == '\r')) ++k;
    if (k < t_.size() && t_[k] == '\n') return blank_line_at_ = nl + 1;
  }
  blank_line_at_ = kNoneLeft;
  return npos;
}

// "Is it the prefix cache`?`", "Is it the `prefix cache?`" at the end of a line: the question mark a
// reader sees ends the sentence, inside backticks or not. A span of nothing but '.', '!' and '?' is
// that punctuation; a span ending in '?' at the end of its line is code and then the question mark.
bool SentenceStream::span_punctuation(Sentence& s, std::size_t content, std::size_t close, std::size_t past, bool& ended) {
  std::size_t b = content, e = close;
  while (b < e && t_[b] == ' ') ++b;
  while (e > b && t_[e - 1] == ' ') --e;
  if (b == e) return false;
  std::size_t marks = e;
  while (marks > b && (t_[marks - 1] == '.' || t_[marks - 1] == '!' || t_[marks - 1] == '?')) --marks;
  const bool only_marks = marks == b;
  bool q = false;
  for (std::size_t k = marks; k < e; ++k) q = q || t_[k] == '?';
  std::size_t after = past;
  while (std::size_t len = closing_after(t_, after) + invisible_run(t_, after)) after += len;
  std::size_t eol = after;
  while (eol < t_.size() && (t_[eol] == ' ' || t_[eol] == '\t' || t_[eol] == '\r')) ++eol;
  if (!only_marks && !(q && (eol >= t_.size() || t_[eol] == '\n'))) return false;
  if (!only_marks) {
    push(s, Token::Kind::code, content, close, "`code`");
    code_span_words(s, content, close);
  }
  push(s, Token::Kind::punct, marks, e, q ? "?" : std::string(1, t_[marks] == '!' ? '!' : '.'));
  i_ = past;
  ended = after >= t_.size() || is_space(static_cast<unsigned char>(t_[after])) ||
          (static_cast<unsigned char>(t_[after]) >= 0x80 && glyph_at(t_, after).cls == Glyph::Class::space);
  if (ended && one_line_block_) {  // inside a table row the cells are clauses of one sentence
    std::size_t line_end = t_.find('\n', after), pipe = t_.find('|', after);
    if (pipe != npos && (line_end == npos || pipe < line_end)) ended = false;
  }
  if (ended) {
    s.question = q;
    i_ = after;
    if (q) answer_of_question(s);
  }
  return true;
}

bool SentenceStream::at_line_start() const {
  return i_ == 0 || t_[i_ - 1] == '\n' || (i_ == 3 && t_.compare(0, 3, "\xEF\xBB\xBF") == 0);  // after a byte-order mark
}

// A line that starts a block of its own: "- item", "* item", "+ item", "1. item", "1) item",
// "# heading", "> quote", "| table |". `content` is where its text begins.
bool SentenceStream::block_start(std::size_t ls, std::size_t& content) const {
  std::size_t k = ls;
  while (k < t_.size() && (t_[k] == ' ' || t_[k] == '\t') && k - ls < 8) ++k;
  if (k >= t_.size()) return false;
  char c = t_[k];
  auto space_at = [&](std::size_t p) { return p < t_.size() && (t_[p] == ' ' || t_[p] == '\t'); };
  if ((c == '-' || c == '*' || c == '+') && space_at(k + 1)) return content = k + 2, true;
  // "• item", "◦ item", "▪ item", "· item": bullets of pasted or rich-text lists.
  for (std::string_view bullet : {"\xE2\x80\xA2", "\xE2\x97\xA6", "\xE2\x96\xAA", "\xE2\x97\x8F", "\xE2\x80\xA3", "\xC2\xB7"})
    if (t_.compare(k, bullet.size(), bullet) == 0 && space_at(k + bullet.size())) return content = k + bullet.size() + 1, true;
  // "✅ item", "❌ item": a check mark opening a line is a bullet that gives its item a value.
  if (std::size_t len = check_mark_at(t_, k).second; len && space_at(k + len)) return content = k + len + 1, true;
  if (c == '#') {
    std::size_t h = k;
    while (h < t_.size() && t_[h] == '#' && h - k < 6) ++h;
    if (h >= t_.size() || space_at(h) || t_[h] == '\n') return content = h, true;
  }
  if (c == '>') return content = k + 1, true;
  if (c == '|') return content = k + 1, true;
  if (is_digit(static_cast<unsigned char>(c))) {
    std::size_t d = k;
    while (d < t_.size() && is_digit(static_cast<unsigned char>(t_[d])) && d - k < 9) ++d;
    if (d < t_.size() && (t_[d] == '.' || t_[d] == ')') && space_at(d + 1)) return content = d + 2, true;
  }
  return false;
}

// At a line opening a fence (``` or ~~~ after up to three spaces): the offset past its closing
// fence line (or the end of the text); npos when the line opens no fence.
std::size_t SentenceStream::skip_fence(std::size_t ls, std::size_t* code_end) {
  std::size_t k = ls;
  while (k < t_.size() && t_[k] == ' ' && k - ls < 3) ++k;
  if (k + 2 >= t_.size() || !((t_[k] == '`' || t_[k] == '~') && t_[k + 1] == t_[k] && t_[k + 2] == t_[k])) return npos;
  char f = t_[k];
  std::size_t width = 0;
  while (k + width < t_.size() && t_[k + width] == f) ++width;
  std::size_t line = t_.find('\n', k);
  // A backtick fence's info string holds no backtick ("```text`" is an inline span, not a fence).
  if (f == '`' && t_.substr(k + width, (line == npos ? t_.size() : line) - (k + width)).find('`') != std::string_view::npos) return npos;
  while (line != npos) {
    std::size_t b = line + 1, p = b;
    while (p < t_.size() && t_[p] == ' ' && p - b < 3) ++p;
    std::size_t w = 0;
    while (p + w < t_.size() && t_[p + w] == f) ++w;
    if (w >= width) {
      if (code_end) *code_end = b;
      std::size_t e = t_.find('\n', p + w);
      return e == npos ? t_.size() : e + 1;
    }
    line = t_.find('\n', b);
  }
  if (code_end) *code_end = t_.size();  // unclosed: code to the end, as CommonMark reads it
  return t_.size();
}

void SentenceStream::push(Sentence& s, Token::Kind kind, std::size_t b, std::size_t e, std::string lower) {
  if (s.tokens.empty()) s.begin = b;
  s.end = e;
  Token tok;
  tok.kind = kind;
  tok.begin = b;
  tok.end = e;
  tok.glued_prev = !space_before_ && !s.tokens.empty();
  if (kind == Token::Kind::word) {
    bool lower_seen = false;
    int upper = 0;
    for (std::size_t k = b; k < e; ++k) {
      char ch = t_[k];
      if (ch >= 'a' && ch <= 'z') lower_seen = true;
      else if (ch >= 'A' && ch <= 'Z') {
        ++upper;
        if (lower_seen) tok.mixed_case = true;
      }
    }
    tok.capital = e > b && t_[b] >= 'A' && t_[b] <= 'Z';
    tok.all_caps = upper >= 2 && !lower_seen;
  }
  tok.stem = kind == Token::Kind::word ? stemmer_.stem(lower) : lower;
  tok.quoted = quote_open_ || block_quote_;
  tok.lower = std::move(lower);
  s.tokens.push_back(std::move(tok));
  space_before_ = false;
}

// An inline code span is part of its sentence ("the cause is not `--page-size 32`"): after its
// code token, the words of its identifiers, split at every character that is not a letter or a
// digit ("page", "size"), its whole numbers and its "=" ("`bank_conflicts = 0`" reads as the label
// and value it shows), so a phrase finds them with the sentence's polarity. They are never claims.
// A fenced block stays code alone.
std::vector<CodeWord> code_words(std::string_view code) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto alnum = [&](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit(c); };
  std::vector<CodeWord> out;
  for (std::size_t k = 0; k < code.size();) {
    if (code[k] == '=') out.push_back({k, k + 1, CodeWord::Kind::equals});
    if (!alnum(code[k])) {
      ++k;
      continue;
    }
    const std::size_t w = k;
    bool letter = false;
    while (k < code.size() && alnum(code[k])) letter = letter || !digit(code[k]), ++k;
    // A decimal stays one number: `--gpu-memory-utilization 0.9` reads "gpu memory utilization 0.9".
    if (!letter && k + 1 < code.size() && code[k] == '.' && digit(code[k + 1]) && (w == 0 || code[w - 1] != '.'))
      for (++k; k < code.size() && digit(code[k]);) ++k;
    out.push_back({w, k, letter ? CodeWord::Kind::word : CodeWord::Kind::number});
  }
  return out;
}

void SentenceStream::code_span_words(Sentence& s, std::size_t b, std::size_t e) {
  for (const CodeWord& cw : code_words(t_.substr(b, e - b))) {
    if (cw.kind != CodeWord::Kind::equals) space_before_ = true;
    const Token::Kind kind = cw.kind == CodeWord::Kind::word     ? Token::Kind::word
                             : cw.kind == CodeWord::Kind::number ? Token::Kind::number
                                                                 : Token::Kind::punct;
    push(s, kind, b + cw.begin, b + cw.end, lower_ascii(t_.substr(b + cw.begin, cw.end - cw.begin)));
    s.tokens.back().in_code = true;
  }
}

// The next `what` at or after `from`, remembered in `at`: a text of many openings searches each
// byte once (a search that found nothing answers every later one at once).
std::size_t SentenceStream::next_at(std::size_t& at, std::string_view what, std::size_t from) const {
  if (at == kNoneLeft || (at != kUnsearched && at >= from)) return at == kNoneLeft ? npos : at;
  at = t_.find(what, from);
  if (at == npos) at = kNoneLeft;
  return at == kNoneLeft ? npos : at;
}

// The next closing tag of a kind at or after `from` and before `limit`. What was searched is
// remembered (the last tag found, and how far none was), so no byte is searched twice.
std::size_t SentenceStream::closing_tag(std::size_t kind, std::string_view close, std::size_t from, std::size_t limit) {
  std::size_t& found = strike_found_[kind];
  std::size_t& scanned = strike_scanned_[kind];
  if (found != npos && found >= from) return found < limit ? found : npos;
  for (std::size_t p = t_.find('<', std::max(from, scanned)); p != npos && p < limit; p = t_.find('<', p + 1))
    if (lower_ascii(t_.substr(p, close.size())) == close) {
      found = scanned = p;
      return p;
    }
  found = npos;
  scanned = std::max(scanned, limit);
  return npos;
}

// A quotation mark right after a comma closes a quotation ("we fear nothing," said the lady): what
// follows is the narrator's clause, so it is a boundary token; other quotes carry no words.
void SentenceStream::closing_quote(Sentence& s, std::size_t len) {
  if (!s.tokens.empty() && s.tokens.back().lower == "," && s.tokens.back().end == i_) push(s, Token::Kind::punct, i_, i_ + len, "\"");
  // Opening and closing marks alternate within a sentence; single quotes are apostrophes too often.
  // Double marks of every kind: “ ” „ ‟ « » ＂ 「 」.
  if (len == 1 || t_.compare(i_, len, "\xe2\x80\x9c") == 0 || t_.compare(i_, len, "\xe2\x80\x9d") == 0 ||
      t_.compare(i_, len, "\xc2\xab") == 0 || t_.compare(i_, len, "\xc2\xbb") == 0 || t_.compare(i_, len, "\xe2\x80\x9e") == 0 ||
      t_.compare(i_, len, "\xe2\x80\x9f") == 0 || t_.compare(i_, len, "\xef\xbc\x82") == 0 || t_.compare(i_, len, "\xe3\x80\x8c") == 0 ||
      t_.compare(i_, len, "\xe3\x80\x8d") == 0)
    quote_open_ = !quote_open_;
}

void SentenceStream::word(Sentence& s) {
  std::size_t b = i_;
  std::string w;  // lower-cased, non-ASCII letters in their reading ("ﬁ" → "fi"), invisibles dropped
  std::size_t e = b;  // past the last character of the word proper
  while (i_ < t_.size()) {
    unsigned char c = static_cast<unsigned char>(t_[i_]);
    if (c >= 0x80) {
      Glyph g = glyph_at(t_, i_);
      if (g.cls == Glyph::Class::letter) {
        if (g.fold.empty()) w.append(t_.substr(i_, g.len));
        else w.append(g.fold);
        i_ += g.len;
        e = i_;
        continue;
      }
      if (g.cls == Glyph::Class::invisible && word_after_invisible(t_, i_)) {
        i_ += invisible_run(t_, i_);
        continue;
      }
      break;
    }
    if (word_byte(t_, i_)) {
      w += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      ++i_;
      e = i_;
      continue;
    }
    if (is_control(c) && word_after_invisible(t_, i_)) {  // "con\0flict" is one word, as it looks
      i_ += invisible_run(t_, i_);
      continue;
    }
    // "e.g", "i.e": single letters joined by dots stay one word.
    if (t_[i_] == '.' && i_ + 1 < t_.size() && is_alpha(static_cast<unsigned char>(t_[i_ + 1])) &&
        (i_ + 2 >= t_.size() || !word_byte(t_, i_ + 2)) && i_ - b == 1) {
      w += '.';
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(t_[i_ + 1])));
      i_ += 2;
      e = i_;
      continue;
    }
    if (t_[i_] == '.' && i_ >= b + 3 && t_[i_ - 2] == '.' && is_alpha(static_cast<unsigned char>(t_[i_ + 1 < t_.size() ? i_ + 1 : i_]))) {
      w += '.';
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(t_[i_ + 1])));
      i_ += 2;
      e = i_;
      continue;
    }
    break;
  }
  // "_word_": the emphasis is not part of the word.
  while (e > b + 1 && t_[e - 1] == '_' && !w.empty() && w.back() == '_') {
    --e;
    w.pop_back();
  }
  std::size_t alen = 0;
  // Contractions: "isn't" → "is" "n't", "can't" → "ca" "n't", "cannot" → "can" "not", "it's" → "it" "'s".
  if (is_apostrophe(t_, i_, alen) && i_ + alen < t_.size() && is_alpha(static_cast<unsigned char>(t_[i_ + alen]))) {
    std::size_t sb = i_ + alen, se = sb;
    while (se < t_.size() && is_alpha(static_cast<unsigned char>(t_[se]))) ++se;
    std::string suffix = lower_ascii(t_.substr(sb, se - sb));
    if (suffix == "t" && w.size() > 1 && w.back() == 'n' && e > b + 1 && (t_[e - 1] == 'n' || t_[e - 1] == 'N')) {
      w.pop_back();
      push(s, Token::Kind::word, b, e - 1, w);
      push(s, Token::Kind::word, e - 1, se, "n't");
      i_ = se;
      return;
    }
    // The apostrophe misplaced: "was'nt", "does'nt", "is'nt" read as "wasn't".
    if (suffix == "nt" && w.size() >= 2) {
      push(s, Token::Kind::word, b, e, w);
      push(s, Token::Kind::word, i_, se, "n't");
      i_ = se;
      return;
    }
    if (suffix == "s" || suffix == "re" || suffix == "ve" || suffix == "ll" || suffix == "d" || suffix == "m") {
      push(s, Token::Kind::word, b, e, w);
      push(s, Token::Kind::word, i_, se, "'" + suffix);
      i_ = se;
      return;
    }
  }
  // Contractions written without the apostrophe: "isnt" → "is" "n't", "cant" → "ca" "n't".
  static const std::unordered_map<std::string_view, std::string_view> kBareContractions = {
      {"isnt", "is"}, {"arent", "are"}, {"wasnt", "was"}, {"werent", "were"}, {"doesnt", "does"}, {"dont", "do"},
      {"didnt", "did"}, {"hasnt", "has"}, {"havent", "have"}, {"hadnt", "had"}, {"cant", "ca"}, {"couldnt", "could"},
      {"wouldnt", "would"}, {"shouldnt", "should"}, {"wont", "wo"}, {"mustnt", "must"}, {"aint", "is"}, {"neednt", "need"}};
  if (auto it = w.size() >= 4 && w.size() <= 8 && w.back() == 't' && w[w.size() - 2] == 'n' ? kBareContractions.find(w) : kBareContractions.end();
      it != kBareContractions.end() && e == b + w.size()) {
    push(s, Token::Kind::word, b, e - 2, std::string(it->second));
    push(s, Token::Kind::word, e - 2, e, "n't");
    return;
  }
  if (w == "cannot" && e == b + 6) {
    push(s, Token::Kind::word, b, b + 3, "can");
    push(s, Token::Kind::word, b + 3, e, "not");
    return;
  }
  push(s, Token::Kind::word, b, e, std::move(w));
}

void SentenceStream::number(Sentence& s) {
  std::size_t b = i_;
  auto digit = [&](std::size_t k) { return k < t_.size() && is_digit(static_cast<unsigned char>(t_[k])); };
  std::string text;
  while (digit(i_) || (t_[i_] == ',' && digit(i_ + 1) && digit(i_ + 2) && digit(i_ + 3) && !digit(i_ + 4))) {
    if (t_[i_] != ',') text += t_[i_];
    ++i_;
  }
  if (i_ < t_.size() && t_[i_] == '.' && digit(i_ + 1)) {
    text += t_[i_++];
    while (digit(i_)) text += t_[i_++];
  }
  if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
    std::size_t k = i_ + 1;
    if (k < t_.size() && (t_[k] == '-' || t_[k] == '+')) ++k;
    if (digit(k) && !(k + 1 < t_.size() && is_alpha(static_cast<unsigned char>(t_[k + 1])) && !digit(k + 1))) {
      text += t_.substr(i_, k - i_);
      i_ = k;
      while (digit(i_)) text += t_[i_++];
    }
  }
  // "10^6", "2^20": a power is one number, written out ("1e+06") so it reads back as its value.
  if (i_ + 1 < t_.size() && t_[i_] == '^' && (digit(i_ + 1) || (t_[i_ + 1] == '-' && digit(i_ + 2)))) {
    std::size_t k = i_ + 1 + (t_[i_ + 1] == '-');
    while (digit(k)) ++k;
    double base = std::strtod(text.c_str(), nullptr), exponent = std::strtod(std::string(t_.substr(i_ + 1, k - i_ - 1)).c_str(), nullptr);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", std::pow(base, exponent));
    text = buf;
    i_ = k;
  }
  push(s, Token::Kind::number, b, i_, std::move(text));
}

// "x2.3", "x4 faster": a multiplier written before its number (not "x86", a name): with a
// fraction, or with a comparison after it. The number token spans the "x"; a unit "x" follows.
bool SentenceStream::prefixed_multiplier(Sentence& s) {
  std::size_t k = i_ + 1;
  auto digit = [&](std::size_t m) { return m < t_.size() && is_digit(static_cast<unsigned char>(t_[m])); };
  if (!digit(k) || (i_ > 0 && word_byte(t_, i_ - 1))) return false;
  while (digit(k)) ++k;
  bool fraction = k + 1 < t_.size() && t_[k] == '.' && digit(k + 1);
  std::size_t m = k;
  while (fraction && (digit(m) || t_[m] == '.')) ++m;
  if (m < t_.size() && (word_byte(t_, m) || t_[m] == '-')) return false;  // "x86_64", "x86-64", "x2a"
  if (!fraction) {
    std::size_t w = m;
    while (w < t_.size() && is_space(static_cast<unsigned char>(t_[w]))) ++w;
    std::size_t we = w;
    while (we < t_.size() && is_alpha(static_cast<unsigned char>(t_[we]))) ++we;
    static const std::array<const char*, 16> kComparisons = {"faster", "slower", "speedup", "speed", "improvement", "more",
                                                             "fewer", "less", "higher", "lower", "better", "worse",
                                                             "larger", "smaller", "quicker", "throughput"};
    std::string after = lower_ascii(t_.substr(w, we - w));
    bool comparison = false;
    for (const char* x : kComparisons) comparison = comparison || after == x;
    if (!comparison) return false;
  }
  std::size_t xb = i_;
  ++i_;
  number(s);
  s.tokens.back().begin = xb;
  push(s, Token::Kind::word, i_, i_, "x");
  s.tokens.back().glued_prev = true;
  return true;
}

// A table's separator line: pipes, dashes, colons and spaces, with a dash ("|---|:--:|").
bool SentenceStream::separator_line(std::size_t ls) const {
  bool dash = false;
  for (std::size_t k = ls; k < t_.size() && t_[k] != '\n'; ++k) {
    char c = t_[k];
    if (c == '-') dash = true;
    else if (c != '|' && c != ':' && c != ' ' && c != '\t' && c != '\r') return false;
  }
  return dash;
}

// After a question: an answer of one word ("Fever? No.", "Is it the cache? Yes, ...", "Overheating?
// Not once.", "Wifi? Nonexistent.") joins the question's sentence as its last token, so the
// question's mentions take the answer's polarity; any other continuation is a sentence of its own.
void SentenceStream::answer_of_question(Sentence& s, bool across_paragraph) {
  std::size_t p = i_;
  int newlines = 0;
  while (p < t_.size()) {
    unsigned char c = static_cast<unsigned char>(t_[p]);
    if (c == '\n' && ++newlines > 1 && !across_paragraph) return;  // a blank line: a new paragraph answers nothing
    if (is_space(c) || c == '*' || c == '_') ++p;
    else if (std::size_t len = invisible_run(t_, p)) p += len;
    else if (c >= 0x80 && glyph_at(t_, p).cls == Glyph::Class::space) p += glyph_at(t_, p).len;
    else break;
  }
  if (newlines > 0 && p < t_.size() && (t_[p] == '-' || t_[p] == '#' || t_[p] == '|' || t_[p] == '>')) return;
  auto word_at = [&](std::size_t from, std::size_t& to) {
    to = from;
    while (to < t_.size() && is_alpha(static_cast<unsigned char>(t_[to]))) ++to;
    return lower_ascii(t_.substr(from, to - from));
  };
  std::size_t e = p;
  std::string w = word_at(p, e);
  if (w.empty() || (e < t_.size() && (word_byte(t_, e) || t_[e] == '\'' || t_[e] == '-'))) return;
  static const std::array<const char*, 14> kNo = {"no",     "nope",       "nah",      "never",     "none",
                                                  "nothing", "neither", "nonexistent", "negative", "ruled",
                                                  "excluded", "irrelevant", "fine",  "innocent"};
  static const std::array<const char*, 9> kYes = {"yes", "yep", "yeah", "indeed", "absolutely", "definitely", "certainly", "confirmed", "correct"};
  static const std::array<const char*, 9> kUnsure = {"maybe", "perhaps", "possibly", "probably", "unclear", "unknown", "partly", "partially", "unsure"};
  // A section's value stands alone ("None.", "Not involved."): "No regressions were found" is a
  // sentence of its own, not an answer.
  std::size_t second_begin = e, second_end = e;  // a value's second word: "Ruled out.", "None reported."
  if (across_paragraph) {
    std::size_t q = e;
    while (q < t_.size() && t_[q] == ' ') ++q;
    std::size_t qe = q;
    const std::string next = word_at(q, qe);
    static const std::array<const char*, 8> kSecond = {"out", "reported", "found", "seen", "noted", "detected", "observed", "involved"};
    bool two = w == "not" && !next.empty();
    for (const char* x : kSecond) two = two || (next == x && w != "not");
    if (two) second_begin = q, second_end = qe;
    const std::size_t end = two ? qe : e;
    if (end < t_.size() && t_[end] != '.' && t_[end] != '!' && t_[end] != ',' && t_[end] != ';' && t_[end] != '\n') return;
  }
  Sentence::Answer a = Sentence::Answer::none;
  for (const char* x : kNo) a = w == x ? Sentence::Answer::no : a;
  for (const char* x : kYes) a = w == x ? Sentence::Answer::yes : a;
  for (const char* x : kUnsure) a = w == x ? Sentence::Answer::unsure : a;
  // "No idea.", "No clue.": not knowing, as "Not sure." is.
  bool no_idea = false;
  if (w == "no") {
    std::size_t q = e;
    while (q < t_.size() && t_[q] == ' ') ++q;
    std::size_t qe = q;
    const std::string next = word_at(q, qe);
    no_idea = (next == "idea" || next == "clue") && (qe >= t_.size() || t_[qe] == '.' || t_[qe] == '!' || t_[qe] == ',');
  }
  if (w == "not" || no_idea) {
    // "Not once.", "Not at all." deny; "Not sure." doubts.
    std::size_t q = e;
    while (q < t_.size() && t_[q] == ' ') ++q;
    std::size_t qe = q;
    std::string next = word_at(q, qe);
    a = no_idea || next == "sure" || next == "certain" || next == "clear" || next == "necessarily" ? Sentence::Answer::unsure
                                                                                                  : Sentence::Answer::no;
    space_before_ = true;
    s.answer_begin = s.tokens.size();
    push(s, Token::Kind::word, p, e, w);
    if (a == Sentence::Answer::unsure || across_paragraph) {  // "Not sure.", and a section's "Not involved."
      space_before_ = true;
      push(s, Token::Kind::word, q, qe, next);
      e = qe;
    }
  } else {
    if (a == Sentence::Answer::none) return;
    space_before_ = true;
    s.answer_begin = s.tokens.size();
    push(s, Token::Kind::word, p, e, w);
    if (second_end > second_begin) {
      space_before_ = true;
      push(s, Token::Kind::word, second_begin, second_end, lower_ascii(t_.substr(second_begin, second_end - second_begin)));
      e = second_end;
    }
  }
  s.answer = a;
  // "No." and "Yes!" end with the answer; "No, the scheduler ..." goes on as a sentence of its own.
  if (e < t_.size() && (t_[e] == '.' || t_[e] == '!' || t_[e] == ',' || t_[e] == ';')) {
    push(s, Token::Kind::punct, e, e + 1, std::string(1, t_[e]));
    ++e;
  }
  i_ = e;
}

std::string cell_unit(std::string_view text, const std::vector<Token>& T, std::size_t a, std::size_t b) {
  std::size_t o = b;
  if (b > a && T[b - 1].lower == ")") {
    for (o = b - 1; o > a && T[o - 1].lower != "(";) --o;
    o = o > a ? o : b;
    --b;
  } else if (b > a && T[b - 1].end < text.size() && text[T[b - 1].end] == ']') {
    for (o = b - 1; o > a && !(T[o].begin > 0 && text[T[o].begin - 1] == '[');) --o;
    if (!(T[o].begin > 0 && text[T[o].begin - 1] == '[')) o = b;
  }
  std::string unit;
  for (std::size_t m = o; m < b && unit.size() < 16; ++m) unit += T[m].lower;
  return unit;
}

bool SentenceStream::next(Sentence& s) {
  s.tokens.clear();
  s.question = false;
  s.answer = Sentence::Answer::none;
  s.table_row = false;
  s.negating_columns.clear();
  s.column_roles.clear();
  s.column_units.reset();
  s.candidate_item = false;
  s.denied_item = false;
  s.uncertain_split = std::exchange(cut_before_, false);
  s.heading = false;
  quote_open_ = false;
  s.begin = s.end = i_;
  space_before_ = true;
  const std::size_t n = t_.size();
  auto finish = [&]() {
    // Stems of hyphenated pairs, for matching "pre-fill" against "prefill".
    for (std::size_t k = 0; k + 1 < s.tokens.size(); ++k)
      if (s.tokens[k].hyphen_next) s.tokens[k].joined = stemmer_.stem(s.tokens[k].lower + s.tokens[k + 1].lower);
    if (row_ == Row::header) {
      // Which columns' values the header negates: "Ruled out?", "Not the cause", "Absent".
      negating_columns_.assign(1, false);
      column_roles_.assign(1, 0);
      static const std::unordered_set<std::string_view> kSubjects = {
          "cause", "causes", "hypothesis", "hypotheses", "diagnosis", "suspect", "suspects", "candidate", "candidates",
          "culprit", "theory", "factor", "component", "issue", "problem", "finding", "explanation", "suspicion"};
      // Columns that ask something else of the row than whether it holds: a fix, a time or version,
      // an owner, an effect ("| Issue | Fix |" with "none" says there is no fix, not no issue).
      static const std::unordered_set<std::string_view> kOtherQuestion = {
          "fix", "fixes", "fixed", "workaround", "workarounds", "resolved", "mitigated", "mitigation", "known", "tests",
          "alternatives", "regression", "reproducible", "impact", "effect", "before", "after", "baseline", "ours",
          "default", "used", "old", "new", "v1", "v2", "owner", "priority", "severity", "eta", "notes", "run", "runs",
          "change", "changed", "added", "removed", "ticket", "pr", "commit", "when", "since", "until", "errors"};
      for (std::size_t k = 0; k < s.tokens.size(); ++k) {
        const std::string& w = s.tokens[k].lower;
        if (w == "|") {
          negating_columns_.push_back(false);
          column_roles_.push_back(0);
        } else if (!column_roles_.back()) {
          column_roles_.back() = names_candidates(w) ? 'c' : kSubjects.count(w) ? 's' : kOtherQuestion.count(w) ? 'x' : 0;
        }
        if (w == "|") continue;
        else if (w == "not" || w == "n't" || w == "absent" || w == "excluded" || w == "ruled" || w == "free" ||
                 w == "without" || w == "negative" || w == "never" || w == "unrelated" || w == "innocent" ||
                 (w == "no" && !(k + 1 < s.tokens.size() && s.tokens[k + 1].lower == ".")))
          negating_columns_.back() = true;
      }
      // The unit each column's header names last, in parentheses or brackets: "Time (µs)", "BW [GB/s]".
      auto units = std::make_shared<std::vector<std::string>>();
      for (std::size_t k = 0, cell = 0, col = 0; k <= s.tokens.size(); ++k) {
        if (k < s.tokens.size() && s.tokens[k].lower != "|") continue;
        std::string unit = cell_unit(t_, s.tokens, cell, k);  // column `col` counts the '|' before it
        cell = k + 1;
        if (units->size() <= col) units->resize(col + 1);
        (*units)[col++] = std::move(unit);
      }
      column_units_ = std::move(units);
      in_table_ = true;
      s.table_row = true;
    } else if (row_ == Row::body) {
      s.table_row = true;
      s.negating_columns = negating_columns_;
      s.column_roles = column_roles_;
      s.column_units = column_units_;
    }
    // "Possible causes:" then "- A", "- B": the items are candidates until a sentence that is no item.
    // The body rows of a table under such a label or heading are its items too ("## Ruled out", then
    // "| divergent branch | minor |").
    const bool item = item_start_ || row_ == Row::body, keeps_open = item || row_ == Row::header || row_ == Row::separator;
    row_ = Row::none;
    s.candidate_item = item && candidates_open_;
    if (!keeps_open) candidates_open_ = false;
    s.denied_item = (item && denials_open_) || std::exchange(crossed_item_, false);
    if (!keeps_open) denials_open_ = false;
    item_start_ = false;
    if (!s.tokens.empty() && s.tokens.back().lower == ":" && label_denies(s.tokens)) denials_open_ = true;
    if (!s.tokens.empty() && s.tokens.back().lower == ":") {
      std::size_t words = 0;
      // (A parenthesis is passed over: "Ruled out (tentatively):".)
      for (std::size_t k = s.tokens.size() - 1; k-- > 0 && words < 5;) {
        if (s.tokens[k].lower == "(" || s.tokens[k].lower == ")") continue;
        if (s.tokens[k].kind != Token::Kind::word) break;
        ++words;
        if (names_candidates(s.tokens, k) || (s.tokens[k].lower == "of" && k > 0 && s.tokens[k - 1].lower == "one"))
          candidates_open_ = true;
      }
    } else if (heading_start_ && s.tokens.size() <= 6) {  // "## Possible causes", "### Keywords", "## Ruled out"
      for (std::size_t k = 0; k < s.tokens.size(); ++k) candidates_open_ = candidates_open_ || names_candidates(s.tokens, k);
      if (label_denies(s.tokens, false)) denials_open_ = true;
    }
    s.heading = heading_start_;
    heading_start_ = false;
    return true;
  };
  while (i_ < n) {
    if (s.tokens.size() >= kMaxSentenceTokens) {
      s.uncertain_split = cut_before_ = true;  // both halves of a cut sentence are read in doubt
      return finish();
    }
    if (markdown_ && at_line_start()) {
      std::size_t ls = i_;
      std::size_t eol = t_.find('\n', ls);
      if (eol == npos) eol = n;
      bool blank = true;
      for (std::size_t k = ls; k < eol && blank; ++k) blank = is_space(static_cast<unsigned char>(t_[k]));
      std::size_t code_end = n;
      std::size_t fence_end = skip_fence(ls, &code_end);
      std::size_t content = 0;
      bool block = block_start(ls, content);
      // A heading or a table row is one line: the line after it starts a new sentence.
      bool after_one_line_block = one_line_block_;
      one_line_block_ = block && (t_[content - 1] == '#' || t_[content - 1] == '|' || (content >= 2 && t_[content - 2] == '#'));
      if ((blank || fence_end != npos || block || after_one_line_block) && !s.tokens.empty()) {
        if (!block) one_line_block_ = false;
        i_ = ls;
        // "## Allergies" then "None.": a heading's section that opens with a value answers it.
        if (heading_start_ && !s.question && s.answer == Sentence::Answer::none) answer_of_question(s, true);
        return finish();
      }
      if (blank) {
        block_quote_ = false;
        in_table_ = false;
        i_ = eol < n ? eol + 1 : n;
        continue;
      }
      // A link reference definition renders as nothing ("[//]: # (a note)"): no words of the answer.
      if (fence_end == npos && link_definition_at(t_, ls)) {
        if (!s.tokens.empty()) {
          i_ = ls;
          return finish();
        }
        i_ = eol < n ? eol + 1 : n;
        continue;
      }
      if (block && t_[content - 1] == '|') {
        std::size_t next_line = eol < n ? eol + 1 : n;
        if (separator_line(ls)) row_ = Row::separator;
        else if (next_line < n && separator_line(next_line)) row_ = Row::header;
        else row_ = in_table_ ? Row::body : Row::none;
      } else if (fence_end == npos) {
        in_table_ = false;
        row_ = Row::none;
      }
      if (fence_end != npos) {
        // A fenced block is a sentence of one code token: its lines, without the fences.
        std::size_t cb = eol < n ? eol + 1 : n;
        push(s, Token::Kind::code, cb, std::max(cb, code_end), "`code`");
        i_ = fence_end;
        return finish();
      }
      if (block) {
        char m = t_[content - 1] == ' ' || t_[content - 1] == '\t' ? t_[content - 2] : t_[content - 1];
        if (s.tokens.empty() && m != '#' && m != '>' && m != '|') item_start_ = true;
        if (s.tokens.empty() && m == '#') heading_start_ = true;
        block_quote_ = m == '>';
        std::size_t mark_at = ls;
        while (mark_at < content && (t_[mark_at] == ' ' || t_[mark_at] == '\t')) ++mark_at;
        // The mark opens the line, or the item after its marker: "❌ X", "- ❌ X".
        if (s.tokens.empty() && (check_mark_at(t_, mark_at).first < 0 || check_mark_at(t_, content).first < 0)) crossed_item_ = true;
        i_ = content;
      }
      if (i_ >= n) break;
    }
    unsigned char c = static_cast<unsigned char>(t_[i_]);
    if (is_space(c)) {
      space_before_ = true;
      ++i_;
      continue;
    }
    char fullwidth_punct = 0;  // "，", "。": read as their ASCII selves below
    if (c >= 0x80) {
      Glyph g = glyph_at(t_, i_);
      switch (g.cls) {
        case Glyph::Class::space:
          space_before_ = true;
          i_ += g.len;
          continue;
        case Glyph::Class::hyphen:
          // The minus sign before a number is its sign, as "-" is: "−5 ms".
          if (t_.compare(i_, 3, "\xe2\x88\x92") == 0 && i_ + 3 < n && is_digit(static_cast<unsigned char>(t_[i_ + 3]))) {
            push(s, Token::Kind::punct, i_, i_ + 3, "-");
            i_ += 3;
            continue;
          }
          i_ += g.len;  // a hyphen not joining two words: no word, no boundary
          continue;
        case Glyph::Class::quote:
          closing_quote(s, g.len);
          i_ += g.len;
          continue;
        case Glyph::Class::invisible:
        case Glyph::Class::apostrophe:
          i_ += g.len;
          continue;
        case Glyph::Class::dash:
          push(s, Token::Kind::punct, i_, i_ + g.len, "--");
          i_ += g.len;
          continue;
        case Glyph::Class::ellipsis:
          push(s, Token::Kind::punct, i_, i_ + g.len, "...");
          i_ += g.len;
          continue;
        case Glyph::Class::symbol:  // "≈1.6×": no word; "2.3±0.1 ms" keeps its "±" for the claims
          if (t_.compare(i_, g.len, "\xc2\xb1") == 0) push(s, Token::Kind::punct, i_, i_ + g.len, "\xc2\xb1");
          i_ += g.len;
          space_before_ = true;  // it separates as a space does: "10 ms→4 ms" is two quantities
          continue;
        case Glyph::Class::punct:
          fullwidth_punct = g.punct;
          break;
        case Glyph::Class::letter:
          break;
      }
      if (fullwidth_punct == '.' || fullwidth_punct == '!' || fullwidth_punct == '?') {
        // A full stop of another script ends its sentence whatever follows.
        push(s, Token::Kind::punct, i_, i_ + g.len, std::string(1, fullwidth_punct == '?' ? '?' : fullwidth_punct == '!' ? '!' : '.'));
        i_ += g.len;
        s.question = fullwidth_punct == '?';
        if (s.question && markdown_) answer_of_question(s);
        return finish();
      }
      if (fullwidth_punct) {
        if (std::strchr(",;:()%/|=<>+", fullwidth_punct)) push(s, Token::Kind::punct, i_, i_ + g.len, std::string(1, fullwidth_punct));
        i_ += g.len;
        continue;
      }
    }
    if (markdown_ && c == '`') {
      std::size_t r = i_;
      while (r < n && t_[r] == '`') ++r;
      std::size_t close = closing_backticks(r, r - i_);
      if (close != npos && next_blank_line(r) < close) close = npos;  // a span ends with its paragraph (CommonMark)
      if (close != npos) {
        std::size_t run = r - i_;
        std::size_t past = close + run;
        while (past < n && t_[past] == '`') ++past;
        bool ended = false;
        if (span_punctuation(s, r, close, past, ended)) {
          if (ended) return finish();
          continue;
        }
        push(s, Token::Kind::code, r, close, "`code`");
        code_span_words(s, r, close);
        i_ = close + run;
        while (i_ < n && t_[i_] == '`') ++i_;
      } else {
        i_ = r;
      }
      continue;
    }
    if (std::size_t esc = escape_sequence(t_, i_)) {  // a terminal's colour code shows nothing
      i_ += esc;
      continue;
    }
    if (std::size_t esc = (c == '[' || c == '^' || c == '\\') ? escape_remnant(t_, i_) : 0) {  // nor its remnant
      i_ += esc;
      space_before_ = space_before_ || (i_ < n && is_space(static_cast<unsigned char>(t_[i_])));
      continue;
    }
    if (markdown_ && c == '<' && t_.compare(i_, 4, "<!--") == 0) {
      // An HTML comment is not rendered: its words are no part of the answer's prose.
      i_ = comment_end(t_, i_);
      continue;
    }
    if (markdown_ && c == '<' && i_ + 2 < n) {
      // "<del>X</del>", "<s>X</s>", "<strike>X</strike>": struck text, dropped as "~~X~~" is.
      static const std::array<std::pair<std::string_view, std::string_view>, 3> kStrike = {
          {{"<del>", "</del>"}, {"<s>", "</s>"}, {"<strike>", "</strike>"}}};
      bool struck = false;
      for (std::size_t kind = 0; kind < kStrike.size(); ++kind) {
        const auto& [open, close] = kStrike[kind];
        if (i_ + open.size() > n || lower_ascii(t_.substr(i_, open.size())) != open) continue;
        // The closing tag within 64 KiB (an unclosed tag strikes nothing).
        std::size_t p = closing_tag(kind, close, i_ + open.size(), std::min(n, i_ + 65536));
        if (p != npos) {
          i_ = p + close.size();
          struck = true;
        }
        break;
      }
      if (struck) continue;
      // Any other HTML tag is markup: a block tag ends the sentence, a hidden element is dropped.
      if (const HtmlTag tag = html_tag_at(t_, i_); tag.length) {
        // Two line breaks in a row part paragraphs: "<br><br>" ends the sentence as a block tag does.
        bool breaks = false;
        if (tag.name == "br" && !tag.closing) {
          std::size_t after = i_ + tag.length;
          while (after < n && is_space(static_cast<unsigned char>(t_[after]))) ++after;
          breaks = after < n && t_[after] == '<' && html_tag_at(t_, after).name == "br";
        }
        if ((tag.block || breaks) && !s.tokens.empty()) return finish();  // read again as the next sentence's start
        std::size_t after = i_ + tag.length;
        if (tag.hidden) after = hidden_element_end(t_, after, tag.name);
        if (tag.heading && !tag.closing && !tag.hidden) heading_start_ = true;
        if (tag.name == "li" && !tag.closing && !tag.hidden) item_start_ = true;
        if (tag.name == "summary" && !tag.closing && !tag.hidden) heading_start_ = true;  // a <details>' title
        i_ = after;
        if (tag.block || tag.name == "br") space_before_ = true;
        continue;
      }
    }
    // (An opening "~~" has no space after it, a closing one none before it: "~~ x ~~" is text.)
    if (markdown_ && c == '~' && i_ + 2 < n && t_[i_ + 1] == '~' && t_[i_ + 2] != '~' && !is_space(static_cast<unsigned char>(t_[i_ + 2]))) {
      // "~~struck~~" is retracted, rendered with a line through: dropped, as an HTML comment is. The
      // strike ends at its closing "~~" within the paragraph.
      std::size_t close = next_at(tilde_at_, "~~", i_ + 2);
      if (close != npos && next_at(blank_at_, "\n\n", i_ + 2) > close && !is_space(static_cast<unsigned char>(t_[close - 1]))) {
        i_ = close + 2;
        continue;
      }
    }
    if (markdown_ && c == '!' && i_ + 1 < n && t_[i_ + 1] == '[') {
      // An image: its alt text is shown only when the image is not ("![the cause is X](x.png)").
      const std::size_t eol = std::min(t_.find('\n', i_), n);
      const std::size_t close = t_.find("](", i_ + 2);
      const std::size_t end = close == npos ? npos : t_.find(')', close + 2);
      if (close != npos && close < eol && end != npos && end < eol) {
        i_ = end + 1;
        space_before_ = true;
        continue;
      }
    }
    if (markdown_ && c == ']' && i_ + 1 < n && t_[i_ + 1] == '(') {
      // A link's target is not prose: "[the docs](https://...)" reads as "the docs".
      std::size_t k = i_ + 2;
      std::size_t close = npos;
      if (k >= paren_none_until_) {
        std::size_t eol = t_.find('\n', k);
        if (eol == npos) eol = n;
        std::size_t p = t_.find(')', k);
        if (p != npos && p < eol) close = p;
        else paren_none_until_ = eol;
      }
      i_ = close != npos ? close + 1 : i_ + 1;
      continue;
    }
    if (c == 'h' && (t_.compare(i_, 7, "http://") == 0 || t_.compare(i_, 8, "https://") == 0)) {
      std::size_t b = i_;
      while (i_ < n && !is_space(static_cast<unsigned char>(t_[i_])) && t_[i_] != ')' && t_[i_] != '>') ++i_;
      push(s, Token::Kind::code, b, i_, "`url`");
      continue;
    }
    if (is_digit(c)) {
      number(s);
      if (std::size_t h = joining_hyphen(t_, i_)) {
        s.tokens.back().hyphen_next = true;
        i_ += h;
        space_before_ = false;
      }
      continue;
    }
    if ((c == 'x' || c == 'X') && prefixed_multiplier(s)) continue;
    if (word_byte(t_, i_)) {
      if (c == '_' && !(i_ + 1 < n && word_byte(t_, i_ + 1) && t_[i_ + 1] != '_')) {  // emphasis
        ++i_;
        continue;
      }
      if (c == '_') {
        ++i_;
        continue;
      }
      word(s);
      if (std::size_t h = joining_hyphen(t_, i_)) {
        s.tokens.back().hyphen_next = true;
        i_ += h;
        space_before_ = false;
      }
      continue;
    }
    if (c == '.' || c == '!' || c == '?') {
      std::size_t k = i_;
      while (k < n && (t_[k] == '.' || t_[k] == '!' || t_[k] == '?')) ++k;
      bool q = false;
      for (std::size_t m = i_; m < k; ++m) q = q || t_[m] == '?';
      // Past closing marks and what is not seen: a zero-width space or a NUL after the '?' hides nothing.
      std::size_t after = k;
      while (std::size_t len = closing_after(t_, after) + invisible_run(t_, after)) after += len;
      bool ends = after >= n || is_space(static_cast<unsigned char>(t_[after])) ||
                  (static_cast<unsigned char>(t_[after]) >= 0x80 && glyph_at(t_, after).cls == Glyph::Class::space) ||
                  // "<p>Is it the NIC?</p>", "Is it the NIC?<!-- x -->": markup after the mark shows nothing.
                  (markdown_ && t_[after] == '<' && (t_.compare(after, 4, "<!--") == 0 || html_tag_at(t_, after).length));
      bool inner_dot = false;
      if (ends && c == '.' && k - i_ == 1 && !s.tokens.empty() && s.tokens.back().kind == Token::Kind::word) {
        const std::string& prev = s.tokens.back().lower;
        if (kAbbreviations.count(prev)) ends = false;
        // "etc.", "et al." and "resp." often close a sentence: before a capital they do.
        if ((prev == "etc" || prev == "al" || prev == "resp") && after + 1 < n && t_[after] == ' ' && t_[after + 1] >= 'A' &&
            t_[after + 1] <= 'Z')
          ends = true;
        const bool abbreviation = !ends;
        if (prev.size() == 1 && prev[0] >= 'a' && prev[0] <= 'z' && s.tokens.back().glued_prev == false && s.tokens.size() > 1 &&
            s.tokens[s.tokens.size() - 2].lower == ".")
          ends = false;
        // An initial: a capital letter alone before the dot and a word after it ("C. elegans", "E. C. Lai").
        // The word after the dot, when a space and a word follow it: lower-cased, and whether it opens
        // sentences ("The", "However") or begins in lower case.
        auto word_end = [&](std::size_t from) {
          while (from < n && word_byte(t_, from)) ++from;
          return from;
        };
        const bool word_next = after + 1 < n && t_[after] == ' ' && word_byte(t_, after + 1);
        const std::size_t we = word_next ? word_end(after + 1) : after;
        const std::string next = word_next ? lower_ascii(t_.substr(after + 1, we - after - 1)) : std::string();
        const bool opener = word_next && kSentenceOpeners.count(next) > 0;
        const bool lower_next = word_next && t_[after + 1] >= 'a' && t_[after + 1] <= 'z';
        // A capital letter alone: an initial ("C. elegans", "E. C. Lai"), unless the word after the
        // dot opens sentences ("vitamin D. The ...", "scenario A. the spills"), repeats the word
        // before the letter ("plan A. Plan B"), or is capitalised after a noun in lower case or one
        // that labels things by letter ("kernel A. Bank conflicts dominate", "Appendix C. Section
        // 4") or has its own auxiliary next ("written in C. Python was used"): then the letter
        // labels a thing and the dot ends the sentence.
        if (prev.size() == 1 && s.tokens.back().capital && word_next) {
          const std::size_t m = s.tokens.size();
          const bool repeated = m >= 2 && s.tokens[m - 2].kind == Token::Kind::word && s.tokens[m - 2].lower == next;
          const bool after_lower_word = m >= 2 && s.tokens[m - 2].kind == Token::Kind::word && !s.tokens[m - 2].capital;
          // (A word that introduces a name keeps an initial after it: "the paper by E. C. Lai".)
          static const std::unordered_set<std::string_view> kBeforeNames = {
              "by", "of", "from", "to", "with", "and", "or", "for", "at", "in", "on", "via", "per", "cf", "see", "like", "than", "as"};
          static const std::unordered_set<std::string_view> kLettered = {
              "appendix", "node", "table", "figure", "fig", "option", "service", "run", "plan", "section", "kernel",
              "version", "case", "step", "phase", "type", "group", "part", "stage", "scenario", "level", "class", "tier",
              "zone", "region", "rack", "slot", "variant", "config", "configuration", "model", "team", "site", "building",
              "room", "lane", "queue", "shard", "partition", "cluster", "host", "server", "machine", "vendor", "method"};
          const bool after_noun = (after_lower_word && !kBeforeNames.count(s.tokens[m - 2].lower)) ||
                                  (m >= 2 && kLettered.count(s.tokens[m - 2].lower));
          std::size_t ab = we;
          while (ab < n && t_[ab] == ' ') ++ab;
          static const std::unordered_set<std::string> kAux = {"is", "was", "are", "were", "has", "had", "have", "will",
                                                               "would", "can", "could", "does", "did", "should", "may"};
          const bool own_verb = after_lower_word && !lower_next && kAux.count(lower_ascii(t_.substr(ab, word_end(ab) - ab))) > 0;
          if (!(opener || repeated || own_verb || (after_noun && !lower_next))) ends = false;
        }
        // Letters joined by dots ("U.S.", "a.m.", "p.m."), then a word that opens no sentence ("the
        // U.S. office", "the U.S. Navy", "9 a.m. Monday"): an abbreviation. (A time, "9 p.m.", ends
        // one before any capital: "The flight left at 9 p.m. Rain delayed it".)
        if (prev.size() >= 3 && prev.size() <= 7 && word_next) {
          bool dotted = true;
          for (std::size_t m = 0; m < prev.size() && dotted; ++m) dotted = (m % 2 == 1) == (prev[m] == '.');
          const bool time = prev == "a.m" || prev == "p.m";
          if (dotted && (lower_next || (!time && !opener))) ends = false;
        }
        // A short capitalised word, then a number: a reference ("Tab. 2", "Abb. 4", "Lemma. 3" is rare).
        if (prev.size() <= 4 && s.tokens.back().capital && !s.tokens.back().all_caps && after + 1 < n && t_[after] == ' ' &&
            is_digit(t_[after + 1]))
          ends = false;
        if (!ends && !abbreviation) s.uncertain_split = true;
        inner_dot = !ends;
      }
      push(s, Token::Kind::punct, i_, k, q ? "?" : std::string(1, static_cast<char>(c == '!' ? '!' : '.')));
      s.tokens.back().inner_dot = inner_dot;
      i_ = k;
      if (ends && one_line_block_ && t_[std::min(i_, n) - 1] != '\n') {
        // Inside a table row the cells are clauses of one sentence: "| Fever? | no |".
        std::size_t eol = t_.find('\n', i_);
        std::size_t pipe = t_.find('|', i_);
        if (pipe != npos && (eol == npos || pipe < eol)) continue;
      }
      if (ends) {
        s.question = q;
        i_ = after;
        if (q && markdown_) answer_of_question(s);
        return finish();
      }
      continue;
    }
    switch (c) {
      case ',': case ';': case ':': case '(': case ')': case '%': case '/': case '|': case '=': case '<': case '>': case '+':
        push(s, Token::Kind::punct, i_, i_ + 1, std::string(1, static_cast<char>(c)));
        ++i_;
        continue;
      case '-':
        if (i_ + 1 < n && t_[i_ + 1] == '-') {
          push(s, Token::Kind::punct, i_, i_ + 2, "--");
          i_ += 2;
        } else {
          push(s, Token::Kind::punct, i_, i_ + 1, "-");
          ++i_;
        }
        continue;
      case '"':
        closing_quote(s, 1);
        ++i_;
        continue;
      default:
        ++i_;  // emphasis and quotes ('*', '~', '[', '#', ...) carry no words
        continue;
    }
  }
  if (s.tokens.empty()) return false;
  return finish();
}

std::string code_of(std::string_view text) {
  Stemmer stemmer;
  AnalysedText streamed(text, stemmer, nullptr);
  return code_of(streamed);
}

std::string code_of(AnalysedText& analysed) {
  const std::string_view text = analysed.text();
  AnalysedText::Reader reader(analysed);
  std::string out;
  while (const Sentence* s = reader.next())
    for (const Token& t : s->tokens)
      if (t.kind == Token::Kind::code && t.lower == "`code`") {
        std::string_view c = text.substr(t.begin, t.end - t.begin);
        while (!c.empty() && c.back() == '\n') c.remove_suffix(1);
        out.append(c);
        out += '\n';
      }
  if (!out.empty()) out.pop_back();
  return out;
}

std::string normalised(std::string_view text, Stemmer& stemmer) {
  SentenceStream stream(text, stemmer);
  Sentence s;
  std::string out;
  while (stream.next(s))
    for (const Token& t : s.tokens) out += (out.empty() ? "" : " ") + t.stem;
  return out;
}

std::string quote(std::string_view text, std::size_t begin, std::size_t end, std::size_t max) {
  std::string out;
  bool sp = false;
  end = std::min(end, text.size());
  bool in_code = false;  // inside a code span, whose `__launch_bounds__` is no emphasis
  for (std::size_t i = begin; i < end; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '`') in_code = !in_code;
    // Strong emphasis reads as its words: "**not**" is quoted as "not".
    if (!in_code && (c == '*' || c == '_') && i + 1 < end && text[i + 1] == static_cast<char>(c)) {
      ++i;
      continue;
    }
    // So does single emphasis, "*not*": a marker with a space, punctuation or the text's edge on
    // one side only ("*bank-conflict*.", "(*not*"), not inside a word ("a*b", "snake_case"), nor
    // a lone "2 * 3".
    if (!in_code && (c == '*' || c == '_')) {
      auto edge = [&](std::size_t k) {
        return k >= text.size() || is_space(static_cast<unsigned char>(text[k])) || std::strchr(".,;:!?()[]\"'", text[k]) != nullptr;
      };
      auto alnum = [&](std::size_t k) { return k < text.size() && std::isalnum(static_cast<unsigned char>(text[k])); };
      bool prev_edge = i == 0 || edge(i - 1), next_edge = edge(i + 1);
      if (prev_edge != next_edge && !(i > 0 && alnum(i - 1) && alnum(i + 1))) continue;
    }
    // An HTML comment is not rendered, nor quoted.
    if (c == '<' && text.compare(i, 4, "<!--") == 0) {
      i = std::min(comment_end(text, i), end) - 1;
      continue;
    }
    std::size_t len = 1;
    if (c >= 0x80) {
      // Whole characters only: no-break and other spaces fold, invisible ones vanish.
      Glyph g = glyph_at(text, i);
      len = std::min<std::size_t>(g.len, end - i);
      if (g.cls == Glyph::Class::space) {
        sp = !out.empty();
        i += len - 1;
        continue;
      }
      if (g.cls == Glyph::Class::invisible) {
        i += len - 1;
        continue;
      }
    } else if (is_space(c)) {
      sp = !out.empty();
      continue;
    } else if (is_control(c)) {
      if (std::size_t esc = escape_sequence(text, i)) i = std::min(i + esc, end) - 1;  // a colour code shows nothing
      continue;
    }
    if (out.size() + len + (sp ? 1 : 0) > max) {
      out += "...";
      break;
    }
    if (sp) out += ' ';
    sp = false;
    // A Windows-1252 byte is quoted as the character it stands for ("doesn’t"), in UTF-8.
    Glyph g;
    if (c >= 0x80 && !(g = glyph_at(text, i)).windows1252.empty()) out.append(g.windows1252);
    else out.append(text.substr(i, len));
    i += len - 1;
  }
  return out;
}

}  // namespace rubric::text
