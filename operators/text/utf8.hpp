#pragma once
// UTF-8 helpers for whatever prints submission text (reports, messages): evidence can hold arbitrary bytes from a candidate's output, and
// column alignment must count characters, not bytes.
#include <cstddef>
#include <string>
#include <string_view>

#include "operators/json/json_quote.hpp"

namespace rubric::text {

// Length of the valid UTF-8 sequence at text[i], or 0: the one JSON output keeps (json_quote.hpp).
using json::utf8_sequence_length;
// Appends a code point as UTF-8 (json_quote.hpp).
using json::append_utf8;

// The code point of the valid sequence of `length` bytes at text[i].
char32_t utf8_code_point(std::string_view text, std::size_t i, std::size_t length);

// Valid UTF-8 passes through unchanged; each invalid byte becomes U+FFFD.
std::string sanitize_utf8(std::string_view text);

// Number of code points (a fair terminal width for the text the reports hold).
std::size_t display_width(std::string_view text);

// At most `width` code points of `text`; ends with "…" when something was cut.
std::string truncate_to_width(std::string_view text, std::size_t width);

// Runs of white space (newlines, form feeds included) folded to one space, ends trimmed: a multi-line
// source text shown on one report line.
std::string fold_whitespace(std::string_view text);

}  // namespace rubric::text
