#pragma once
// An RFC 8259 JSON reader that also takes Python's non-finite numbers (NaN, Infinity, -Infinity,
// which Python's json module writes by default). Malformed input throws OperatorError
// "name:line:col: what is wrong".
#include <cstdint>
#include <string>
#include <string_view>

#include "operators/json/json_value.hpp"

namespace rubric::json {

// `source_name` is used only in error messages (a file path, or "stdout of run 3"). With
// `max_values` (0: no limit), a document of more values (numbers, strings, arrays, objects...)
// throws "name:line:col: more than N values (the limit for reading JSON)": each value costs tens
// of bytes once read, so the bound is one on memory.
Value parse(std::string_view text, std::string_view source_name, std::size_t max_values = 0);

// JSON Lines: one document per non-blank line, in order; errors name the line in the whole text.
// `max_values` bounds all the lines together.
Array parse_lines(std::string_view text, std::string_view source_name, std::size_t max_values = 0);

// Reads and parses a whole file; an unreadable file is an OperatorError naming it.
// The file must be a regular file of at most `cap` bytes (a FIFO or a larger file throws
// OperatorError naming it, before anything is read).
Value read_file(const std::string& path, std::uint64_t cap = 256ull << 20);

}  // namespace rubric::json
