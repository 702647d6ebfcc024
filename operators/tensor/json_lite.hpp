#pragma once
// A small strict JSON reader for safetensors headers (objects, arrays, strings, numbers,
// true/false/null). Keeps object keys in file order so errors can name the first offender.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rubric::tensor::json_lite {

struct Value {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool boolean = false;
  double number = 0;
  bool is_integer = false;      // written without fraction or exponent
  std::int64_t integer = 0;     // valid when is_integer
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;

  const Value* find(std::string_view key) const;
};

// Throws OperatorError "<what>: bad JSON at byte N: ..." on malformed text.
Value parse(std::string_view text, const std::string& what);

}  // namespace rubric::tensor::json_lite
