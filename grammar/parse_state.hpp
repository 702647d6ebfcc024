#pragma once
// The mutable state of one parse, threaded through the X3 context (never global): the source,
// collected diagnostics and the nesting depth. X3-free so the recovery scanner can use it too.
#include <cstdint>
#include <string>
#include <vector>

#include "grammar/diagnostic.hpp"
#include "grammar/source.hpp"

namespace rubric::grammar {

inline constexpr int max_nesting_depth = 200;
inline constexpr std::size_t max_errors = 20;

// Thrown once 20 errors are recorded: the parse stops and keeps what it has.
struct too_many_errors {};

struct ParseState {
  SourcePtr source;
  const char* begin = nullptr;  // the source text's first byte
  const char* end = nullptr;
  std::vector<Diagnostic> diagnostics;
  int depth = 0;

  std::uint32_t offset(const char* p) const { return static_cast<std::uint32_t>(p - begin); }
  std::size_t error_count() const;
  // Records an error at [where, where + token length); throws too_many_errors at the limit.
  void error(const char* where, std::string message, std::vector<std::string> notes = {});
  // Records the error of a failed expectation: `which` is what was expected, or (starting with
  // '!') a complete message.
  void expectation_error(const char* where, const std::string& which);
};

}  // namespace rubric::grammar
