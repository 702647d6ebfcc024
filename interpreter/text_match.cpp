#include "interpreter/text_match.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace rubric {

namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_word(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

constexpr std::size_t kCheckpointEvery = 256;

std::string fold(std::string_view s, std::vector<std::size_t>* checkpoints) {
  std::string out;
  out.reserve(s.size());
  bool in_space = false;
  auto emit = [&](char c, std::size_t i) {
    if (checkpoints && out.size() % kCheckpointEvery == 0) checkpoints->push_back(i);
    out += c;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (is_space(c)) {
      if (!in_space && !out.empty()) emit(' ', i);
      in_space = true;
      continue;
    }
    in_space = false;
    emit(static_cast<char>(std::tolower(c)), i);
  }
  if (!out.empty() && out.back() == ' ') {
    out.pop_back();
    if (checkpoints && out.size() % kCheckpointEvery == 0) checkpoints->pop_back();
  }
  return out;
}

}  // namespace

FoldedText::FoldedText(std::string_view text) : original_(text) { folded_ = fold(text, &checkpoints_); }

std::size_t FoldedText::origin(std::size_t f) const {
  std::size_t j = f / kCheckpointEvery * kCheckpointEvery;
  std::size_t i = checkpoints_[f / kCheckpointEvery];
  // Fold forward from the checkpoint: folded[j] is original[i]; a space there began a run.
  while (j < f) {
    bool space = is_space(static_cast<unsigned char>(original_[i]));
    ++i;
    if (space)
      while (i < original_.size() && is_space(static_cast<unsigned char>(original_[i]))) ++i;
    ++j;
  }
  return i;
}

std::optional<std::string> FoldedText::find(std::string_view phrase) const {
  std::string p = fold(phrase, nullptr);
  if (p.empty()) return std::nullopt;
  bool word_start = is_word(static_cast<unsigned char>(p.front()));
  bool word_end = is_word(static_cast<unsigned char>(p.back()));
  std::size_t pos = 0;
  while ((pos = folded_.find(p, pos)) != std::string::npos) {
    std::size_t end = pos + p.size();
    bool ok_start = !word_start || pos == 0 || !is_word(static_cast<unsigned char>(folded_[pos - 1]));
    bool ok_end = !word_end || end == folded_.size() || !is_word(static_cast<unsigned char>(folded_[end]));
    if (ok_start && ok_end) {
      std::size_t ob = origin(pos), oe = origin(end - 1) + 1;
      std::size_t sb = ob > 30 ? ob - 30 : 0, se = std::min(original_.size(), oe + 30);
      std::string shown;
      bool sp = false;
      for (std::size_t i = sb; i < se; ++i) {
        unsigned char c = static_cast<unsigned char>(original_[i]);
        if (is_space(c)) {
          if (!sp) shown += ' ';
          sp = true;
        } else {
          shown += static_cast<char>(c);
          sp = false;
        }
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
