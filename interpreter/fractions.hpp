#pragma once
// Where the language means a fraction (a header's `pass`, a def parameter whose default is written
// as a percentage) a plain number above 1 is almost always a percentage written without its `%`:
// `pass: 70` would ask for 7000%. The checker and the evaluator say so in the same words.
#include <optional>
#include <string>

#include "grammar/ast.hpp"

namespace rubric {

// The header fields with a numeric range (language.md §2), their range and default as printed.
struct HeaderFieldRange {
  double lo = 0, hi = 1;
  bool fraction = false;    // a fraction, written as a percentage (`pass: 70%`)
  const char* default_text;  // "100%"
};
std::optional<HeaderFieldRange> header_field_range(const std::string& key);

// "header field 'pass' must be a plain number in [0, 1]; got 70; using the default 100%".
std::string header_field_problem(const std::string& key, const HeaderFieldRange& range, const std::string& got);

// A fraction written as a plain number above 1 (`70`): the note "write 70% (70 means 7000%)";
// nullopt for a value that reads as a fraction.
std::optional<std::string> percent_hint(double value);

// A def parameter is a fraction when its default is written as a percentage (`tol = 5%`);
// `source` is the file that declares the def.
bool is_fraction_param(const ast::DefParam& p, const SourceFile& source);

// The value of a plain number literal as written (`70`, `-3`), else nullopt: what the checker
// can know about a fraction without evaluating anything.
std::optional<double> plain_literal(const ast::Expr& e);

}  // namespace rubric
