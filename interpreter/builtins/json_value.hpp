#pragma once
// A parsed JSON document as a language value: objects become records (key order kept, `origin`
// naming where each came from for "no key" messages), arrays lists, numbers plain numbers.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "interpreter/value.hpp"
#include "operators/json/json_value.hpp"

namespace rubric::builtins {

Value value_from_json(const json::Value& j, const std::string& origin);
// The same, releasing the document's parts as they are converted (a document parsed for this).
Value value_from_json(json::Value&& j, const std::string& origin);

// A document's text as a value, read straight from the fast reader when it takes the text;
// nullopt otherwise (json::parse then reads it, or says what is wrong with it).
std::optional<Value> value_from_json_text(const std::string& text, const std::string& origin, std::size_t max_values);

// json() and jsonl() read at most this many values a file: a value costs about 80 bytes while
// it is read and converted, so a read stays under about 650 MB (a 64 MiB file of "1," took 2.5 GB).
constexpr std::size_t kJsonValueCap = 8'000'000;

}  // namespace rubric::builtins
