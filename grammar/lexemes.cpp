#include "grammar/lexemes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
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
  // The digits are read once, with a decimal suffix as a power of ten (70% is 70e-2, 1.5k is
  // 1.5e3), so the value is the double nearest the decimal written; Ki..Ti scale by powers of
  // two, which is exact.
  std::string digits(p, q);
  long exponent = 0;
  if (std::size_t e = digits.find_first_of("eE"); e != std::string::npos) {
    exponent = std::clamp(std::strtol(digits.c_str() + e + 1, nullptr, 10), -100000L, 100000L);
    digits.resize(e);
  }
  struct Suffix {
    std::string_view text;
    int power_of_ten;
    double binary;
  };
  static constexpr Suffix suffixes[] = {
      {"Ki", 0, 1024.0}, {"Mi", 0, 1048576.0}, {"Gi", 0, 1073741824.0}, {"Ti", 0, 1099511627776.0},
      {"k", 3, 1},       {"M", 6, 1},          {"G", 9, 1},             {"T", 12, 1},
      {"%", -2, 1},      {"x", 0, 1},
  };
  double binary = 1;
  bool percent = false;
  for (const Suffix& s : suffixes) {
    std::size_t len = s.text.size();
    if (static_cast<std::size_t>(end - q) < len || std::memcmp(q, s.text.data(), len) != 0) continue;
    if (q + len < end && is_ident_char(q[len])) continue;  // `2GB`: a unit, not G then B
    exponent += s.power_of_ten;
    binary = s.binary;
    percent = s.text == "%";
    q += len;
    break;
  }
  ScannedNumber n;
  n.percent = percent;
  n.value = std::strtod((digits + "e" + std::to_string(exponent)).c_str(), nullptr) * binary;
  if (!std::isfinite(n.value)) n.out_of_range = true;
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
