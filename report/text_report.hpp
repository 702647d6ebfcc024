#pragma once
// The human-readable report (language.md §10): header, each criterion with its checks and
// evidence, then the summary. Deterministic: no timings or absolute paths unless `verbose`.
#include <string>

#include "interpreter/report_model.hpp"

namespace rubric::report {

struct TextOptions {
  bool colour = false;   // ANSI colours (the CLI decides: terminal, --no-color, NO_COLOR)
  bool verbose = false;  // adds one line with timings, start time and provenance counts
  // Column at which each check's `file:line:col` ends (right-aligned); longer lines just get two spaces.
  std::size_t location_column = 100;
};

std::string format_text(const Report& report, const TextOptions& options = {});

}  // namespace rubric::report
