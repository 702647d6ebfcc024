#pragma once
// JSON string literals for what the judge writes (request bodies, cache lines): always valid
// UTF-8, since a server or a later reader would refuse anything else.
#include <string>
#include <string_view>

namespace rubric::judge {

// `s` as a quoted JSON string; invalid UTF-8 bytes become U+FFFD, control characters \uXXXX.
std::string json_quote(std::string_view s);

}  // namespace rubric::judge
