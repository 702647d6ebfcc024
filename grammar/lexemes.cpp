#include "grammar/lexemes.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace rubric::grammar {
namespace {

struct UnitAtom {
  std::string_view written;
  std::string_view normalised;
};

// Longer spellings first so that "min" wins over a shorter prefix and "KiB" over "K...".
constexpr UnitAtom unit_atoms[] = {
    {"GFLOP", "GFLOP"}, {"TFLOP", "TFLOP"}, {"PFLOP", "PFLOP"}, {"FLOP", "FLOP"},
    {"KiB", "KiB"},     {"MiB", "MiB"},     {"GiB", "GiB"},     {"TiB", "TiB"},
    {"\xC2\xB5s", "us"}, {"\xCE\xBCs", "us"},  // micro sign and Greek mu
    {"min", "min"},     {"tok", "tok"},     {"req", "req"},     {"ns", "ns"},
    {"us", "us"},       {"ms", "ms"},       {"kB", "kB"},       {"KB", "KB"},
    {"MB", "MB"},       {"GB", "GB"},       {"TB", "TB"},       {"s", "s"},
    {"GHz", "GHz"},     {"MHz", "MHz"},     {"kHz", "kHz"},     {"Hz", "Hz"},
    {"h", "h"},         {"B", "B"},
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::optional<std::string_view> scan_atom(const char*& p, const char* end) {
  for (const UnitAtom& a : unit_atoms) {
    std::size_t n = a.written.size();
    if (static_cast<std::size_t>(end - p) < n || std::memcmp(p, a.written.data(), n) != 0) continue;
    if (p + n < end && is_ident_char(p[n])) continue;
    p += n;
    return a.normalised;
  }
  return std::nullopt;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<std::string> scan_unit(const char*& p, const char* end) {
  const char* q = p;
  auto first = scan_atom(q, end);
  if (!first) return std::nullopt;
  std::string text(*first);
  for (;;) {
    const char* r = q;
    while (r < end && is_blank(*r)) ++r;
    if (r == end || (*r != '/' && *r != '*')) break;
    char op = *r++;
    while (r < end && is_blank(*r)) ++r;
    auto next = scan_atom(r, end);
    if (!next) break;
    text += op;
    text += *next;
    q = r;
  }
  p = q;
  return text;
}

std::optional<ScannedNumber> scan_number(const char*& p, const char* end) {
  const char* q = p;
  if (q == end || !is_digit(*q)) return std::nullopt;
  while (q < end && is_digit(*q)) ++q;
  if (q + 1 < end && *q == '.' && is_digit(q[1])) {
    ++q;
    while (q < end && is_digit(*q)) ++q;
  }
  if (q < end && (*q == 'e' || *q == 'E')) {
    const char* r = q + 1;
    if (r < end && (*r == '+' || *r == '-')) ++r;
    if (r < end && is_digit(*r)) {
      while (r < end && is_digit(*r)) ++r;
      q = r;
    }
  }
  ScannedNumber n;
  n.value = std::strtod(std::string(p, q).c_str(), nullptr);
  if (!std::isfinite(n.value)) n.out_of_range = true;

  struct Suffix {
    std::string_view text;
    double scale;
  };
  static constexpr Suffix suffixes[] = {
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
      {"k", 1e3},     {"M", 1e6},        {"G", 1e9},           {"T", 1e12},
      {"%", 0.01},    {"x", 1.0},
  };
  for (const Suffix& s : suffixes) {
    std::size_t len = s.text.size();
    if (static_cast<std::size_t>(end - q) < len || std::memcmp(q, s.text.data(), len) != 0) continue;
    if (q + len < end && is_ident_char(q[len])) continue;  // `2GB`: a unit, not G then B
    // Percent divides so that 70% is exactly 0.7 (70 * 0.01 is not).
    n.value = s.text == "%" ? n.value / 100.0 : n.value * s.scale;
    n.percent = s.text == "%";
    q += len;
    break;
  }
  const char* r = q;
  while (r < end && is_blank(*r)) ++r;
  if (auto unit = scan_unit(r, end)) {
    n.unit = std::move(*unit);
    q = r;
  }
  p = q;
  return n;
}

bool is_keyword(std::string_view word) {
  for (const char* k : keywords_list)
    if (word == k) return true;
  return false;
}

}  // namespace rubric::grammar
