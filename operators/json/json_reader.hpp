#pragma once
// A strict RFC 8259 JSON reader. Malformed input throws OperatorError "name:line:col: what is wrong".
#include <string>
#include <string_view>

#include "operators/json/json_value.hpp"

namespace rubric::json {

// `source_name` is used only in error messages (a file path, or "stdout of run 3").
Value parse(std::string_view text, std::string_view source_name);

// Reads and parses a whole file; an unreadable file is an OperatorError naming it.
Value read_file(const std::string& path);

}  // namespace rubric::json
