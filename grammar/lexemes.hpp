#pragma once
// Hand-written scanners for the two tokens whose rules are easiest to state as code: number
// literals (digits, scale suffix, unit) and unit text. X3-free; the grammar wraps them.
#include <optional>
#include <string>
#include <string_view>

namespace rubric::grammar {

// The reserved words (docs/grammar.md lists them): none can name a let, param, def or criterion.
inline constexpr const char* keywords_list[] = {
    "rubric", "use",    "import", "as",    "param",    "let",   "def",      "criterion", "group",   "weight",
    "penalty", "required", "after", "needs", "expect", "else",  "note",     "score",     "check",   "for",
    "in",     "if",     "then",   "and",   "or",       "not",   "true",     "false",     "null",    "within",
    "of",     "matches", "to",    "mentions", "affirms", "denies"};
bool is_keyword(std::string_view word);

inline bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Scans a unit at p: atoms (ns us µs ms s min h B kB KB MB GB TB KiB MiB GiB TiB tok req FLOP
// GFLOP TFLOP PFLOP), each not followed by an identifier character, joined by '/' or '*' (blanks
// allowed around them) only where another atom follows. On success advances p and returns the
// text normalised: no spaces, `µs` written "us".
std::optional<std::string> scan_unit(const char*& p, const char* end);

struct ScannedNumber {
  double value = 0;   // scale suffix applied
  std::string unit;   // normalised unit text, or empty
  bool out_of_range = false;
  bool percent = false;  // the suffix was `%`
};

// Scans a number literal at p (which must be a digit): digits, optional fraction and exponent,
// an optional scale suffix against the digits (k M G T Ki Mi Gi Ti % x), then an optional unit
// after blanks (not newlines). A suffix followed by an identifier character is read as the
// start of a unit instead (`2GB` is 2 GB), or not at all.
std::optional<ScannedNumber> scan_number(const char*& p, const char* end);

}  // namespace rubric::grammar
