#pragma once
// An RFC 8259 JSON reader that also takes Python's non-finite numbers (NaN, Infinity, -Infinity,
// which Python's json module writes by default). Malformed input throws OperatorError
// "name:line:col: what is wrong".
#include <cstdint>
#include <string>
#include <string_view>

#include "operators/json/json_value.hpp"

namespace rubric::json {

// `source_name` is used only in error messages (a file path, or "stdout of run 3").
Value parse(std::string_view text, std::string_view source_name);

// JSON Lines: one document per non-blank line, in order; errors name the line in the whole text.
Array parse_lines(std::string_view text, std::string_view source_name);

// Reads and parses a whole file; an unreadable file is an OperatorError naming it.
// The file must be a regular file of at most `cap` bytes (a FIFO or a larger file throws
// OperatorError naming it, before anything is read).
Value read_file(const std::string& path, std::uint64_t cap = 256ull << 20);

}  // namespace rubric::json
