#pragma once
// JSON string literals for everything rubric writes (reports, request bodies, cache lines): always
// valid UTF-8, since a parser or a server would refuse anything else.
#include <string>
#include <string_view>

namespace rubric::json {

// `s` as a quoted JSON string; invalid UTF-8 bytes become U+FFFD, control characters escaped.
std::string json_quote(std::string_view s);

}  // namespace rubric::json
