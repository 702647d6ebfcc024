#include "operators/json/json_value.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "operators/error.hpp"

namespace rubric::json {

const char* kind_name(const Value& v) {
  static constexpr const char* names[] = {"null", "boolean", "number", "string", "array", "object"};
  return names[v.data.index()];
}

namespace {
template <typename T>
const T& get_as(const Value& v, const char* wanted) {
  if (const T* p = std::get_if<T>(&v.data)) return *p;
  throw OperatorError(fmt::format("expected a JSON {}, found {}", wanted, kind_name(v)));
}
}  // namespace

bool Value::as_bool() const { return get_as<bool>(*this, "boolean"); }
double Value::as_number() const { return get_as<double>(*this, "number"); }
const std::string& Value::as_string() const { return get_as<std::string>(*this, "string"); }
const Array& Value::as_array() const { return get_as<Array>(*this, "array"); }
const Object& Value::as_object() const { return get_as<Object>(*this, "object"); }

const Value* Value::find(std::string_view key) const {
  const Object* obj = std::get_if<Object>(&data);
  if (!obj) return nullptr;
  for (const Member& m : *obj)
    if (m.first == key) return &m.second;
  return nullptr;
}

const Value* find_path(const Value& root, std::string_view dotted_path) {
  const Value* cur = &root;
  std::size_t start = 0;
  while (cur && start <= dotted_path.size()) {
    std::size_t dot = dotted_path.find('.', start);
    std::string_view seg = dotted_path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (const Array* arr = std::get_if<Array>(&cur->data)) {
      std::string s(seg);
      char* end = nullptr;
      unsigned long idx = std::strtoul(s.c_str(), &end, 10);
      cur = (!s.empty() && *end == '\0' && idx < arr->size()) ? &(*arr)[idx] : nullptr;
    } else {
      cur = cur->find(seg);
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return cur;
}

std::string key_list(const Value& object) {
  std::string out;
  if (const Object* obj = std::get_if<Object>(&object.data))
    for (const Member& m : *obj) out += (out.empty() ? "" : ", ") + m.first;
  return out;
}

}  // namespace rubric::json
