#pragma once
// A parsed JSON document as a language value: objects become records (key order kept, `origin`
// naming where each came from for "no key" messages), arrays lists, numbers plain numbers.
#include <string>

#include "interpreter/value.hpp"
#include "operators/json/json_value.hpp"

namespace rubric::builtins {

Value value_from_json(const json::Value& j, const std::string& origin);

}  // namespace rubric::builtins
