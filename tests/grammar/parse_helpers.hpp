#pragma once
// Shared helpers for the grammar tests: parse text and print the result as S-expressions.
#include <string>

#include <doctest/doctest.h>

#include "grammar/ast_print.hpp"
#include "grammar/parse.hpp"

namespace rubric::test {

inline SourcePtr source_of(std::string text, std::string name = "test.rubric") {
  return std::make_shared<const SourceFile>(std::move(name), std::move(text));
}

inline ParseResult parse_text(const std::string& text, std::string name = "test.rubric") {
  return parse_file(source_of(text, std::move(name)));
}

// The S-expression of one expression; records a test failure (with the diagnostics) on errors.
inline std::string expr(const std::string& text) {
  ExpressionParseResult r = parse_expression(source_of(text, "expr"));
  INFO("expression: ", text, "\n", format_diagnostics(r.diagnostics));
  CHECK(r.diagnostics.empty());
  return r.expr ? ast::to_sexpr(*r.expr) : "<error>";
}

// The first error message of an expression that must not parse.
inline std::string expr_error(const std::string& text) {
  ExpressionParseResult r = parse_expression(source_of(text, "expr"));
  INFO("expression: ", text);
  REQUIRE(!r.diagnostics.empty());
  CHECK(!r.expr);
  return r.diagnostics.front().message;
}

// The S-expression of a criterion body holding `statements`.
inline std::string body(const std::string& statements) {
  ParseResult r = parse_text("criterion c \"t\" {\n" + statements + "\n}\n");
  INFO("body: ", statements, "\n", format_diagnostics(r.diagnostics));
  CHECK(r.ok());
  REQUIRE(r.file->items.size() == 1);
  return ast::to_sexpr(std::get<ast::Criterion>(r.file->items[0]).body);
}

// The S-expressions of a file's items; records a failure on errors.
inline std::string file_sexpr(const std::string& text) {
  ParseResult r = parse_text(text);
  INFO("file:\n", text, "\n", format_diagnostics(r.diagnostics));
  CHECK(r.ok());
  return ast::to_sexpr(*r.file);
}

}  // namespace rubric::test
