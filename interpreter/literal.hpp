#pragma once
// Values of literal expressions (numbers with units, strings without interpolation, lists,
// records, true/false/null, negation), for `--set NAME=VALUE` and host operator defaults.
#include <optional>
#include <string>

#include "grammar/ast.hpp"
#include "interpreter/value.hpp"

namespace rubric {

// nullopt when the expression is not a literal; `why` then says what is not.
std::optional<Value> literal_value(const ast::Expr& e, std::string* why = nullptr);

// Parses text as one rubric literal ("16Ki", "5 ms", "\"fast\"", "[1, 2]").
std::optional<Value> parse_literal(const std::string& text, std::string* why = nullptr);

}  // namespace rubric
