#pragma once
// A parsed JSON document: numbers are doubles, objects keep their keys in file order.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace rubric::json {

struct Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;
using Object = std::vector<Member>;  // key order as written; keys are unique (the reader rejects duplicates)

struct Value {
  std::variant<std::nullptr_t, bool, double, std::string, Array, Object> data;

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(data); }
  bool is_bool() const { return std::holds_alternative<bool>(data); }
  bool is_number() const { return std::holds_alternative<double>(data); }
  bool is_string() const { return std::holds_alternative<std::string>(data); }
  bool is_array() const { return std::holds_alternative<Array>(data); }
  bool is_object() const { return std::holds_alternative<Object>(data); }

  // Accessors throw OperatorError naming the expected and actual kind.
  bool as_bool() const;
  double as_number() const;
  const std::string& as_string() const;
  const Array& as_array() const;
  const Object& as_object() const;

  // Member of an object by key; nullptr when absent or when this is not an object.
  const Value* find(std::string_view key) const;
};

// "null", "boolean", "number", "string", "array" or "object".
const char* kind_name(const Value& v);

// Follows a dotted path ("metrics.output_throughput"; a numeric segment indexes an array).
// Returns nullptr when any segment is missing.
const Value* find_path(const Value& root, std::string_view dotted_path);

// The keys of an object joined with ", " (for messages such as "no key 'x'; keys: a, b").
std::string key_list(const Value& object);

}  // namespace rubric::json
