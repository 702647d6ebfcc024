#pragma once
// Builds a json::Value through the calls a streaming writer takes (begin_object, key, value,
// end_object...), so one routine can write a document as text (report::JsonWriter) or hand it
// over as a value, without printing and parsing it again.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "operators/json/json_value.hpp"

namespace rubric::json {

class ValueBuilder {
 public:
  void begin_object() { open(Value{Object{}}); }
  void end_object() { close(); }
  void begin_array() { open(Value{Array{}}); }
  void end_array() { close(); }
  void key(std::string_view name) { key_ = std::string(name); }

  void value(std::string_view s) { put(Value{std::string(s)}); }
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(double d) { put(Value{d}); }  // as JsonWriter: NaN and infinities are written as null
  void value(std::int64_t i) { put(Value{static_cast<double>(i)}); }
  void value(std::uint64_t u) { put(Value{static_cast<double>(u)}); }
  void value(int i) { value(static_cast<std::int64_t>(i)); }
  void value(std::uint32_t u) { value(static_cast<std::uint64_t>(u)); }
  void value(bool b) { put(Value{b}); }
  void null() { put(Value{nullptr}); }
  void value(const std::optional<double>& d) {
    if (d) value(*d);
    else null();
  }
  template <class T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }

  // The document, once its top-level value is closed.
  Value take() { return std::move(root_); }

 private:
  // Where the next value goes: the open container's end, or the root.
  Value& slot(Value v);
  void put(Value v);
  void open(Value container);
  void close() { stack_.pop_back(); }

  Value root_;
  std::vector<Value*> stack_;  // open containers, innermost last
  std::string key_;
};

}  // namespace rubric::json
