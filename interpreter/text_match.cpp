#include "interpreter/text_match.hpp"

#include <cctype>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdlib>

#include "operators/text/stemmer.hpp"
#include "operators/text/unicode.hpp"

namespace rubric {

namespace {

using text::Glyph;

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_word(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

constexpr std::size_t kCheckpointEvery = 256;

// One character of the original, folded: `n` bytes consumed, `out` what it reads as (lower case,
// no-break and other spaces as ' ', invisible characters as nothing, hyphens as '-', curly
// apostrophes and quotes as ASCII, fullwidth forms and ligatures as ASCII; operators/text/unicode.hpp).
struct Folded {
  std::size_t n = 1;
  char buf[4] = {0, 0, 0, 0};
  std::string_view bytes;  // when not in buf
  std::uint8_t len = 0;    // bytes in buf
  bool space = false;
  std::string_view view() const { return len ? std::string_view(buf, len) : bytes; }
};

Folded fold_char(std::string_view s, std::size_t i) {
  Folded f;
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    if (is_space(c)) {
      f.space = true;
      return f;
    }
    f.buf[0] = static_cast<char>(std::tolower(c));
    f.len = 1;
    return f;
  }
  Glyph g = text::glyph_at(s, i);
  f.n = g.len;
  auto one = [&](char x) {
    f.buf[0] = x;
    f.len = 1;
    return f;
  };
  switch (g.cls) {
    case Glyph::Class::space: f.space = true; return f;
    case Glyph::Class::invisible: return f;  // nothing
    case Glyph::Class::hyphen: return one('-');
    case Glyph::Class::apostrophe: return one('\'');
    case Glyph::Class::punct: return one(g.punct);
    case Glyph::Class::dash:
      if (g.punct == '-') return one('-');  // the en dash reads as a hyphen ("pages 3–5", "bank–conflict")
      f.bytes = s.substr(i, g.len);
      return f;
    case Glyph::Class::quote:
      if (s.compare(i, 3, "\xE2\x80\x9C") == 0 || s.compare(i, 3, "\xE2\x80\x9D") == 0 || s.compare(i, 3, "\xEF\xBC\x82") == 0) return one('"');
      f.bytes = s.substr(i, g.len);
      return f;
    default:
      f.bytes = g.fold.empty() ? s.substr(i, g.len) : g.fold;
      return f;
  }
}

// ASCII bytes fold through this table: lower case, white space as ' ' (kSpaceByte marks it).
constexpr char kSpaceByte = 0;
struct AsciiFold {
  char to[128];
  constexpr AsciiFold() : to() {
    for (int c = 0; c < 128; ++c) to[c] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    for (char c : {' ', '\t', '\n', '\r', '\f', '\v'}) to[static_cast<int>(c)] = kSpaceByte;
  }
};
constexpr AsciiFold kAscii;

// Folds s; with `checkpoints`, records for every kCheckpointEvery-th folded byte the original
// character it came from and its offset in that character's reading. ASCII, nearly every byte of
// an answer, goes through a table straight into the output; other characters through fold_char.
std::string fold(std::string_view s, std::vector<FoldedText::Checkpoint>* checkpoints) {
  const std::size_t n = s.size();
  std::string out(n, '\0');
  char* o = out.data();
  std::size_t at = 0;  // bytes written
  bool in_space = false;
  // Folding shortens text except for a few characters (a ligature reads as two letters): room is
  // made when the rest might not fit.
  auto room = [&](std::size_t extra, std::size_t i) {
    if (at + extra + (n - i) > out.size()) {
      out.resize(std::max(out.size() * 2, at + extra + (n - i)));
      o = out.data();
    }
  };
  auto put = [&](char c, std::size_t i, std::uint32_t k) {
    if (checkpoints && at % kCheckpointEvery == 0) checkpoints->push_back({i, k});
    o[at++] = c;
  };
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      const char f = kAscii.to[c];
      if (f == kSpaceByte && c != 0) {
        if (!in_space && at > 0) put(' ', i, 0);
        in_space = true;
      } else {
        in_space = false;
        put(f, i, 0);
      }
      ++i;
      continue;
    }
    const Folded f = fold_char(s, i);
    if (f.space) {
      if (!in_space && at > 0) put(' ', i, 0);
      in_space = true;
    } else if (!f.view().empty()) {
      in_space = false;
      const std::string_view part = f.view();
      room(part.size(), i + f.n);
      for (std::size_t k = 0; k < part.size(); ++k) put(part[k], i, static_cast<std::uint32_t>(k));
    }
    i += f.n;
  }
  if (at > 0 && o[at - 1] == ' ') {
    --at;
    if (checkpoints && at % kCheckpointEvery == 0) checkpoints->pop_back();
  }
  out.resize(at);
  // A hyphen between letters joins words as a space does: "bank-conflict" is found by "bank
  // conflict" and the other way round (one byte for one, so the checkpoints stay true).
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80; };
  for (std::size_t i = 1; i + 1 < out.size(); ++i)
    if (out[i] == '-' && letter(out[i - 1]) && letter(out[i + 1])) out[i] = ' ';
  return out;
}

}  // namespace

FoldedText::FoldedText(std::string_view text) : original_(text) { folded_ = fold(text, &checkpoints_); }

std::pair<std::size_t, std::size_t> FoldedText::origin(std::size_t f) const {
  std::size_t j = f / kCheckpointEvery * kCheckpointEvery;
  const Checkpoint& cp = checkpoints_[f / kCheckpointEvery];
  std::size_t i = cp.original;
  std::size_t sub = cp.offset;
  // Fold forward from the checkpoint: folded[j] is byte `sub` of the reading of original[i]. A
  // space there began a run, so the walk starts outside one.
  bool in_space = false;
  while (i < original_.size()) {
    Folded c = fold_char(original_, i);
    std::size_t emitted = c.space ? (in_space ? 0 : 1) : c.view().size();
    in_space = c.space || (in_space && emitted == 0);
    if (emitted > sub && f < j + (emitted - sub)) return {i, i + c.n};
    if (emitted > sub) j += emitted - sub;
    sub = 0;
    i += c.n;
  }
  return {original_.size(), original_.size()};
}

std::optional<std::string> FoldedText::find(std::string_view phrase) const {
  std::string p = fold(phrase, nullptr);
  if (p.empty()) return std::nullopt;
  bool word_start = is_word(static_cast<unsigned char>(p.front()));
  bool word_end = is_word(static_cast<unsigned char>(p.back()));
  // The phrase's last word matches its inflections ("wavefront" finds "wavefronts", "evicted"
  // finds "evicts"), not its derivations ("token" does not find "tokenizer"): search for the part
  // it shares with its inflection key, then compare the whole word of the text by key.
  std::size_t last = p.size();
  while (last > 0 && std::isalpha(static_cast<unsigned char>(p[last - 1]))) --last;
  const std::string word = p.substr(last);
  const std::string key = word.empty() ? std::string() : text::inflection_key(word);
  std::size_t shared = 0;
  while (shared < word.size() && shared < key.size() && word[shared] == key[shared]) ++shared;
  const std::string head = word.empty() || shared == 0 ? p : p.substr(0, last + shared);
  // memmem (glibc's two-way search, vectorised) rather than std::string::find's first-byte scan.
  auto next_at = [&](std::size_t from) -> std::size_t {
    if (from > folded_.size()) return std::string::npos;
    const void* hit = ::memmem(folded_.data() + from, folded_.size() - from, head.data(), head.size());
    return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - folded_.data()) : std::string::npos;
  };
  std::size_t pos = 0;
  while ((pos = next_at(pos)) != std::string::npos) {
    std::size_t end = pos + head.size();
    bool ok_start = !word_start || pos == 0 || !is_word(static_cast<unsigned char>(folded_[pos - 1]));
    bool ok_end = !word_end || end == folded_.size() || !is_word(static_cast<unsigned char>(folded_[end]));
    // Only at a word's start, so each word of the text is scanned once at most: linear.
    if (ok_start && (head.size() < p.size() || (!ok_end && !word.empty()))) {
      std::size_t word_stop = end;
      while (word_stop < folded_.size() && is_word(static_cast<unsigned char>(folded_[word_stop]))) ++word_stop;
      std::string written = folded_.substr(pos + last, word_stop - pos - last);
      ok_end = written == word || text::inflection_key(written) == key;
      end = word_stop;
    }
    if (ok_start && ok_end) {
      std::size_t ob = origin(pos).first, oe = origin(end - 1).second;
      // About 30 bytes either side, widened to whole UTF-8 characters.
      std::size_t sb = text::char_start(original_, ob > 30 ? ob - 30 : 0);
      std::size_t se = std::min(original_.size(), oe + 30);
      if (se < original_.size()) se = text::char_start(original_, se);
      std::string shown;
      bool sp = false;
      for (std::size_t i = sb; i < se;) {
        Folded c = fold_char(original_, i);
        if (c.space) {
          if (!sp) shown += ' ';
          sp = true;
        } else if (c.n > 1 && c.view().empty()) {
          // an invisible character: not shown
        } else {
          // A Windows-1252 byte is shown as the character it stands for ("doesn’t"), in UTF-8.
          std::string_view w1252 =
              static_cast<unsigned char>(original_[i]) >= 0x80 ? text::glyph_at(original_, i).windows1252 : std::string_view();
          shown.append(w1252.empty() ? original_.substr(i, std::min(c.n, se - i)) : w1252);
          sp = false;
        }
        i += c.n;
      }
      return std::string(sb > 0 ? "..." : "") + shown + (se < original_.size() ? "..." : "");
    }
    pos = pos + 1;
  }
  return std::nullopt;
}

// One pass, left to right; every iteration consumes at least one character, so the scan is linear
// in the text whatever it holds. A sign counts only where a number can start ("x = -3", "(-2)"),
// never after a digit, a letter or a dot: "1-3" is a range (1 and 3), "EAGLE-3" a name.
std::vector<double> scan_numbers(std::string_view t) {
  std::vector<double> out;
  const std::size_t n = t.size();
  auto digit = [&](std::size_t k) { return k < n && std::isdigit(static_cast<unsigned char>(t[k])); };
  auto word = [&](std::size_t k) { return k < n && is_word(static_cast<unsigned char>(t[k])); };
  auto sign_may_start = [&](std::size_t k) {
    if (k == 0) return true;
    unsigned char p = static_cast<unsigned char>(t[k - 1]);
    return !is_word(p) && p != '.' && p != '-' && p != '+' && p != ')' && p != ']';
  };
  std::size_t i = 0;
  bool after_number = false;  // the previous token was a number ("3x-4x": the unit, then a range)
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    // A word that starts with a letter is a name, digits and all: "fp32", "H100", and, joined by
    // hyphens or dots, "EAGLE-3", "Llama-3.1-8B", "v2.1". A unit glued to a number ("3x", "5ms")
    // is not joined to what follows its hyphen.
    if (is_word(c) && !std::isdigit(c)) {
      bool unit = after_number;
      ++i;
      while (i < n) {
        if (word(i)) ++i;
        else if (t[i] == '.' && word(i + 1)) i += 2;
        else if (t[i] == '-' && !unit && word(i + 1)) i += 2;
        else break;
      }
      after_number = false;
      continue;
    }
    bool signed_start = (c == '-' || c == '+') && sign_may_start(i) && (digit(i + 1) || (i + 2 < n && t[i + 1] == '.' && digit(i + 2)));
    bool starts = signed_start || digit(i) || (c == '.' && digit(i + 1) && !(i > 0 && word(i - 1)));
    if (!starts) {
      after_number = false;
      ++i;
      continue;
    }
    std::string text;
    if (signed_start) text += t[i++];
    while (digit(i) || (i < n && t[i] == ',' && digit(i + 1) && digit(i + 2) && digit(i + 3) && !digit(i + 4))) {
      if (t[i] != ',') text += t[i];
      ++i;
    }
    if (i < n && t[i] == '.' && digit(i + 1)) {
      text += t[i++];
      while (digit(i)) text += t[i++];
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
      std::size_t k = i + 1;
      if (k < n && (t[k] == '-' || t[k] == '+')) ++k;
      if (digit(k)) {
        text += t.substr(i, k - i);
        i = k;
        while (digit(i)) text += t[i++];
      }
    }
    // Digits run on into more dots ("1.2.3", an address or a version): the rest is not a number.
    while (i < n && t[i] == '.' && digit(i + 1)) {
      ++i;
      while (digit(i)) ++i;
    }
    // "1e999" or 400 digits overflow to infinity: not a number a submission may hand a rubric.
    if (double v = std::strtod(text.c_str(), nullptr); std::isfinite(v)) out.push_back(v);
    after_number = true;
  }
  return out;
}

}  // namespace rubric
