#include "operators/json/json_builder.hpp"

#include <cmath>

namespace rubric::json {

Value& ValueBuilder::slot(Value v) {
  if (stack_.empty()) {
    root_ = std::move(v);
    return root_;
  }
  Value& parent = *stack_.back();
  if (auto* object = std::get_if<Object>(&parent.data)) {
    object->emplace_back(std::move(key_), std::move(v));
    key_.clear();
    return object->back().second;
  }
  auto& array = std::get<Array>(parent.data);
  array.push_back(std::move(v));
  return array.back();
}

void ValueBuilder::put(Value v) {
  if (const double* d = std::get_if<double>(&v.data); d && !std::isfinite(*d)) v = Value{nullptr};
  slot(std::move(v));
}

// A container's address stays valid while it is open: only its own members are added meanwhile,
// and an enclosing container grows only after it is closed.
void ValueBuilder::open(Value container) { stack_.push_back(&slot(std::move(container))); }

}  // namespace rubric::json
