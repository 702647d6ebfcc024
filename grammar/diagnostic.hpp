#pragma once
// A message about a place in a rubric source: "file:line:col: error: message", the line, a caret.
#include <string>
#include <vector>

#include "grammar/source.hpp"

namespace rubric {

enum class Severity { error, warning, note };

struct Diagnostic {
  Severity severity = Severity::error;
  SourcePtr source;    // may be null for diagnostics about no file (usage errors)
  SourceRange range;
  std::string message;
  std::vector<std::string> notes;  // extra lines: "did you mean 'median'?", "expected one of: ..."
};

// "file:line:col: error: message\n  <line>\n  ^~~~\n" (colour codes when `color`).
std::string format_diagnostic(const Diagnostic& d, bool color = false);
std::string format_diagnostics(const std::vector<Diagnostic>& ds, bool color = false);
bool has_errors(const std::vector<Diagnostic>& ds);

}  // namespace rubric
