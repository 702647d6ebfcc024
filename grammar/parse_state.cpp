#include "grammar/parse_state.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "grammar/lexemes.hpp"
#include "grammar/recovery.hpp"
#include "grammar/suggest.hpp"

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

namespace {

// What the author most likely meant where an expectation failed on the token at `where`: a
// keyword where a name was wanted, a mistyped keyword, a backslash-quote inside an interpolation.
std::vector<std::string> hints(const char* where, const char* end, const std::string& which) {
  std::vector<std::string> out;
  if (end - where >= 2 && where[0] == '\\' && where[1] == '"')
    out.push_back("inside '{...}' in a string, quotes need no backslash: write {m[\"key\"]}, not {m[\\\"key\\\"]}");
  const char* q = where;
  while (q < end && is_ident_char(*q)) ++q;
  const std::string word(where, q);
  if (word.empty() || (word[0] >= '0' && word[0] <= '9')) return out;
  if (is_keyword(word)) {
    if (which.find("name") != std::string::npos || which.find(" id ") != std::string::npos) {
      std::string all;
      for (const char* k : keywords_list) all += (all.empty() ? "" : " ") + std::string(k);
      out.push_back(fmt::format("'{}' is a keyword, and a keyword cannot be a name; the keywords are: {}", word, all));
    }
    return out;
  }
  if (word.size() >= 4) {
    const std::string best = nearest_name(word, std::vector<std::string>(std::begin(keywords_list), std::end(keywords_list)));
    if (!best.empty()) out.push_back(fmt::format("did you mean '{}'?", best));
  }
  return out;
}

}  // namespace

void ParseState::expectation_error(const char* where, const std::string& which) {
  if (!which.empty() && which[0] == '!') {
    error(where, which.substr(1));
    return;
  }
  std::vector<std::string> notes{fmt::format("found {}", describe_token(where, end))};
  for (std::string& h : hints(where, end, which)) notes.push_back(std::move(h));
  error(where, fmt::format("expected {}", which), std::move(notes));
}

}  // namespace rubric::grammar
