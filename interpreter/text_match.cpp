#include "interpreter/text_match.hpp"

#include <cctype>
#include <cstdlib>

namespace rubric {

namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_word(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

std::string fold(std::string_view s, std::vector<std::size_t>* origin) {
  std::string out;
  bool in_space = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (is_space(c)) {
      if (!in_space && !out.empty()) {
        out += ' ';
        if (origin) origin->push_back(i);
      }
      in_space = true;
      continue;
    }
    in_space = false;
    out += static_cast<char>(std::tolower(c));
    if (origin) origin->push_back(i);
  }
  if (!out.empty() && out.back() == ' ') {
    out.pop_back();
    if (origin) origin->pop_back();
  }
  return out;
}

}  // namespace

FoldedText::FoldedText(std::string_view text) : original_(text) { folded_ = fold(text, &origin_); }

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
      std::size_t ob = origin_[pos], oe = origin_[end - 1] + 1;
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

std::vector<double> scan_numbers(std::string_view t) {
  std::vector<double> out;
  std::size_t i = 0, n = t.size();
  auto digit = [&](std::size_t k) { return k < n && std::isdigit(static_cast<unsigned char>(t[k])); };
  while (i < n) {
    bool starts = digit(i) || (t[i] == '.' && digit(i + 1)) || ((t[i] == '-' || t[i] == '+') && (digit(i + 1) || (i + 2 < n && t[i + 1] == '.' && digit(i + 2))));
    if (!starts) {
      ++i;
      continue;
    }
    // Digits glued to a word ("fp32", "v2") are names, not numbers.
    if (i > 0 && (std::isalpha(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '_')) {
      while (i < n && (is_word(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
      continue;
    }
    std::size_t b = i;
    std::string text;
    if (t[i] == '-' || t[i] == '+') text += t[i++];
    while (digit(i) || (t[i] == ',' && digit(i + 1) && digit(i + 2) && digit(i + 3) && !digit(i + 4))) {
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
    if (i == b) {
      ++i;
      continue;
    }
    out.push_back(std::strtod(text.c_str(), nullptr));
  }
  return out;
}

}  // namespace rubric
