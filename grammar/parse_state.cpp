#include "grammar/parse_state.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "grammar/recovery.hpp"

namespace rubric::grammar {

std::size_t ParseState::error_count() const {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                [](const Diagnostic& d) { return d.severity == Severity::error; }));
}

void ParseState::error(const char* where, std::string message, std::vector<std::string> notes) {
  if (error_count() >= max_errors) throw too_many_errors{};
  Diagnostic d;
  d.source = source;
  d.range = {offset(where), offset(token_end(where, end))};
  // A zero-width range at offset 0 would read as "no location": widen it.
  if (d.range.end == d.range.begin) d.range.end = d.range.begin + (where < end ? 1 : 0);
  d.message = std::move(message);
  d.notes = std::move(notes);
  diagnostics.push_back(std::move(d));
  if (error_count() >= max_errors) {
    diagnostics.back().notes.push_back(fmt::format("stopping after {} errors", max_errors));
    throw too_many_errors{};
  }
}

void ParseState::expectation_error(const char* where, const std::string& which) {
  if (!which.empty() && which[0] == '!') {
    error(where, which.substr(1));
    return;
  }
  error(where, fmt::format("expected {}", which), {fmt::format("found {}", describe_token(where, end))});
}

}  // namespace rubric::grammar
