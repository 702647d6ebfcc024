#include "grammar/diagnostic.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace rubric {
namespace {

const char* severity_word(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

const char* severity_colour(Severity s) {
  switch (s) {
    case Severity::error: return "\x1b[1;31m";
    case Severity::warning: return "\x1b[1;35m";
    case Severity::note: return "\x1b[1;36m";
  }
  return "";
}

// Tabs are kept in the caret line so the caret stays under the column in any terminal.
std::string caret_line(std::string_view line, std::uint32_t column, std::uint32_t width) {
  std::string out;
  for (std::uint32_t i = 0; i + 1 < column && i < line.size(); ++i) out += line[i] == '\t' ? '\t' : ' ';
  out += '^';
  for (std::uint32_t i = 1; i < width; ++i) out += '~';
  return out;
}

}  // namespace

std::string format_diagnostic(const Diagnostic& d, bool color) {
  const char* bold = color ? "\x1b[1m" : "";
  const char* reset = color ? "\x1b[0m" : "";
  const char* sev_colour = color ? severity_colour(d.severity) : "";
  const char* caret_colour = color ? "\x1b[1;32m" : "";
  std::string out;
  if (d.source && d.range.known()) {
    out += fmt::format("{}{}: {}{}:{} {}{}\n", bold, d.source->location(d.range.begin), sev_colour,
                       severity_word(d.severity), reset, d.message, reset);
    std::string_view line = d.source->line_text(d.range.begin);
    LineColumn lc = d.source->position(d.range.begin);
    // The caret covers the range, cut at the end of the first line.
    std::uint32_t line_left = static_cast<std::uint32_t>(line.size()) >= lc.column - 1
                                  ? static_cast<std::uint32_t>(line.size()) - (lc.column - 1)
                                  : 0;
    std::uint32_t width = std::max<std::uint32_t>(1, std::min(d.range.end > d.range.begin ? d.range.end - d.range.begin : 1u, line_left));
    out += fmt::format("  {}\n  {}{}{}\n", line, caret_colour, caret_line(line, lc.column, width), reset);
  } else if (d.source) {
    out += fmt::format("{}{}: {}{}:{} {}\n", bold, d.source->name(), sev_colour, severity_word(d.severity), reset,
                       d.message);
  } else {
    out += fmt::format("{}{}:{} {}\n", sev_colour, severity_word(d.severity), reset, d.message);
  }
  for (const std::string& n : d.notes) out += fmt::format("  {}note:{} {}\n", color ? "\x1b[1;36m" : "", reset, n);
  return out;
}

std::string format_diagnostics(const std::vector<Diagnostic>& ds, bool color) {
  std::string out;
  for (const Diagnostic& d : ds) out += format_diagnostic(d, color);
  return out;
}

bool has_errors(const std::vector<Diagnostic>& ds) {
  return std::any_of(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.severity == Severity::error; });
}

}  // namespace rubric
