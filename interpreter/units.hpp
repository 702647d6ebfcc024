#pragma once
// Physical dimensions of numbers (time, bytes, tokens, requests, operations), the unit table of
// language.md §5, parsing of unit text ("tok/s", "GB/s") and printing with a readable scale.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace rubric {

// Exponents over the base units s, B, tok, req, FLOP. All zero: dimensionless.
struct Dimension {
  enum Base { time, bytes, tokens, requests, operations, count };
  std::array<std::int8_t, count> exp{};

  bool dimensionless() const;
  Dimension operator*(const Dimension& o) const;
  Dimension operator/(const Dimension& o) const;
  // Compared exponent by exponent: std::array's == called memcmp for five bytes, once per
  // comparison of two numbers.
  bool operator==(const Dimension& o) const {
    for (std::size_t i = 0; i < exp.size(); ++i)
      if (exp[i] != o.exp[i]) return false;
    return true;
  }
  bool operator!=(const Dimension& o) const { return !(*this == o); }

  static Dimension of(Base b, int power = 1);
};

// The base-unit spelling of a dimension: "s", "tok/s", "B/s", "s/tok", "" when dimensionless.
std::string dimension_name(const Dimension& d);
// Like dimension_name, but "dimensionless" instead of "" (for messages).
std::string dimension_description(const Dimension& d);

// A unit as written: how many base units one of it is, and its dimension. "GB/s" → {1e9, B/s}.
struct Unit {
  double scale = 1;
  Dimension dim;
};

// Parses unit text: atoms of the §5 table joined by '/' and '*' (left to right, so "a/b/c" is
// a/(b·c)). nullopt for an unknown atom; `error` then says which.
std::optional<Unit> parse_unit(std::string_view text, std::string* error = nullptr);

// The known unit atoms, for "did you mean" messages and docs.
const std::array<std::string_view, 31>& unit_atoms();

// Formats a plain number: its decimal in full when it has at most 12 significant digits
// (decimal.hpp), others with 6 significant digits.
std::string format_number(double v);

// A fraction as a percentage of its magnitude, with two or three significant digits:
// 0.25 → "25%", -0.015 → "1.5%", 0.00012 → "0.012%".
std::string percent_text(double fraction);

// Formats a quantity given in base units with a readable scale: 0.00123 s → "1.23 ms",
// 1.25e10 B/s → "12.5 GB/s", 4294967296 B → "4 GiB", 11234.5 tok/s → "11234.5 tok/s".
std::string format_quantity(double base_value, const Dimension& d);

// Formats `v` with `digits` significant digits: its decimal in full when that has at most
// max(digits, 12) significant digits, else integers (|v| < 1e15) in full, others in fixed
// notation when 1e-4 <= |v| < 1e15 (never fewer digits than the integer part, trailing zeros
// dropped), else in scientific notation.
std::string format_number(double v, int digits);

// Two quantities of one dimension as the two sides of a comparison: one unit for both (the one
// the smaller reads best in) and enough significant digits (at least 6) that their difference
// shows in both: 10.000001 vs 10.0000001 → "10.000001", "10.0000001";
// 2097152 B vs 2202009.6 B → "2 MiB", "2.1 MiB"; 2097152 vs 2202009.6 → "2097152", "2202009.6".
std::pair<std::string, std::string> format_quantity_pair(double a, double b, const Dimension& d);

}  // namespace rubric
