#include "interpreter/builtins/registry.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace rubric {

std::size_t Builtin::required_count() const {
  std::size_t n = 0;
  for (const auto& p : params)
    if (!p.default_value) ++n;
  return n;
}

std::string Builtin::signature() const {
  std::string s = name + "(";
  bool first = true;
  for (const auto& p : params) {
    if (!first) s += ", ";
    first = false;
    s += p.name;
    if (p.default_value) s += " = " + p.default_value->repr(4);
  }
  if (variadic) s += first ? "args..." : ", args...";
  return s + ")";
}

void Registry::add(Builtin b) {
  auto it = builtins_.find(b.name);
  if (it != builtins_.end()) b.next = it->second;
  std::string name = b.name;
  builtins_[name] = std::make_shared<const Builtin>(std::move(b));
}

void Registry::add(std::string name, std::vector<ParamSpec> params, bool variadic, std::string doc, std::string family,
                   BuiltinFn fn) {
  add(std::move(name), std::move(params), variadic, std::move(doc), std::move(family), BuiltinNeeds{}, std::move(fn));
}

void Registry::add(std::string name, std::vector<ParamSpec> params, bool variadic, std::string doc, std::string family,
                   BuiltinNeeds needs, BuiltinFn fn) {
  Builtin b;
  b.name = std::move(name);
  b.params = std::move(params);
  b.variadic = variadic;
  b.doc = std::move(doc);
  b.family = std::move(family);
  b.needs = needs;
  b.fn = std::move(fn);
  add(std::move(b));
}

void Registry::bind(const std::string& name, Value value, std::string doc) {
  lazy_.erase(name);
  bindings_[name] = {std::move(value), std::move(doc)};
}

void Registry::bind_lazy(const std::string& name, std::function<Value()> compute, std::string doc) {
  bindings_.erase(name);
  lazy_[name] = LazyBinding{std::move(compute), std::move(doc), std::nullopt};
}

const Value* Registry::evaluated_binding(const std::string& name) const {
  if (auto it = bindings_.find(name); it != bindings_.end()) return &it->second.first;
  auto lz = lazy_.find(name);
  return lz != lazy_.end() && lz->second.value ? &*lz->second.value : nullptr;
}

std::map<std::string, std::string> Registry::lazy_binding_docs() const {
  std::map<std::string, std::string> out;
  for (const auto& [name, b] : lazy_) out[name] = b.doc;
  return out;
}

std::shared_ptr<const Builtin> Registry::find(const std::string& name) const {
  auto it = builtins_.find(name);
  return it == builtins_.end() ? nullptr : it->second;
}

const Value* Registry::find_binding(const std::string& name) const {
  if (auto it = bindings_.find(name); it != bindings_.end()) return &it->second.first;
  auto lz = lazy_.find(name);
  if (lz == lazy_.end()) return nullptr;
  if (!lz->second.value) lz->second.value = lz->second.compute();
  return &*lz->second.value;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& b : builtins_) out.push_back(b.first);
  for (const auto& b : bindings_) out.push_back(b.first);
  for (const auto& b : lazy_) out.push_back(b.first);
  return out;
}

const Builtin* select_overload(const Builtin& b, const std::vector<Value>& args) {
  for (const Builtin* cur = &b; cur; cur = cur->next.get())
    if (!cur->applies || cur->applies(args)) return cur;
  return nullptr;
}

void open_core(Registry& r, const judge::JudgeSettings& judge_settings) {
  open_numbers(r);
  open_lists(r);
  open_text(r);
  open_files(r);
  open_tables(r);
  open_units(r);
  open_statistics(r);
  open_tensors(r);  // after lists and statistics: its min/max/mean overload theirs
  open_programs(r);
  open_gpu(r);  // after tensors: its device `matches` is tried first, for very large tensors
  open_judge(r, judge_settings);
}

}  // namespace rubric
