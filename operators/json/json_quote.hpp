#pragma once
// JSON string literals for everything rubric writes (reports, request bodies, cache lines): always
// valid UTF-8, since a parser or a server would refuse anything else.
#include <cstddef>
#include <string>
#include <string_view>

namespace rubric::json {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when the bytes there are invalid
// (stray continuation bytes, overlong forms, encoded surrogates, code points past U+10FFFF). The
// reports' printers use it too (operators/text/utf8.hpp).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// Appends code point `cp` (at most U+10FFFF, no surrogate) to `out` as UTF-8.
void append_utf8(std::string& out, char32_t cp);

// `s` as a quoted JSON string; invalid UTF-8 bytes become U+FFFD, control characters escaped.
std::string json_quote(std::string_view s);

}  // namespace rubric::json
