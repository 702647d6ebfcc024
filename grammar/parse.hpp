#pragma once
// The grammar's X3-free facade: source text in, syntax tree and diagnostics out.
#include <memory>
#include <vector>

#include "grammar/ast.hpp"
#include "grammar/diagnostic.hpp"

namespace rubric {

struct ParseResult {
  // Always set: on errors it holds every declaration that did parse (recovery at the next
  // statement keyword), so later stages can still report on them.
  std::shared_ptr<const ast::File> file;
  std::vector<Diagnostic> diagnostics;  // at most 20 errors
  bool ok() const { return !has_errors(diagnostics); }
};

ParseResult parse_file(SourcePtr source);

struct ExpressionParseResult {
  ast::ExprPtr expr;  // null on error
  std::vector<Diagnostic> diagnostics;
};

// One expression filling the whole source (for `--set NAME=VALUE`, which takes a rubric literal).
ExpressionParseResult parse_expression(SourcePtr source);

}  // namespace rubric
