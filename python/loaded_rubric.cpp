#include "python/loaded_rubric.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "interpreter/builtins/registry.hpp"

namespace rubric::python {
namespace {

std::string params_key(const std::map<std::string, std::string>& params) {
  std::string key;
  for (const auto& [name, value] : params) key += name + '\0' + value + '\n';
  return key;
}

}  // namespace

LoadedRubric::LoadedRubric(std::string path, std::vector<std::string> include_dirs, std::map<std::string, std::string> params,
                           std::map<std::string, Value> inputs)
    : path_(std::move(path)), include_dirs_(std::move(include_dirs)), params_(std::move(params)), inputs_(std::move(inputs)) {
  std::unique_ptr<Slot> first = load_slot(params_, &diagnostics_);
  give_back(params_key(params_), std::move(first));
}

std::unique_ptr<LoadedRubric::Slot> LoadedRubric::load_slot(const std::map<std::string, std::string>& params,
                                                            std::vector<Diagnostic>* diagnostics_out) const {
  auto slot = std::make_unique<Slot>();
  EngineOptions options;
  options.include_dirs = include_dirs_;
  options.set_params = params;
  options.stop = &slot->stop;
  slot->engine = std::make_unique<Engine>(options);
  // Bound before the load, so the checker knows the names; a name the engine gives a meaning
  // (the roots, a builtin, `device`) is refused rather than hidden.
  for (const auto& [name, value] : inputs_) {
    const Registry& registry = slot->engine->registry();
    if (name == "submission" || name == "reference" || registry.find(name) || registry.has_binding(name))
      throw std::invalid_argument(fmt::format("input '{}' would hide the rubric's own '{}': name it otherwise", name, name));
    slot->engine->bind(name, value);
  }
  std::vector<Diagnostic> diagnostics = slot->engine->load(path_);
  if (has_errors(diagnostics)) throw LoadFailed{std::move(diagnostics)};
  if (diagnostics_out) *diagnostics_out = std::move(diagnostics);
  return slot;
}

std::unique_ptr<LoadedRubric::Lease> LoadedRubric::borrow(const std::map<std::string, std::string>& params) {
  std::map<std::string, std::string> merged = params_;
  for (const auto& [name, value] : params) merged[name] = value;
  std::string key = params_key(merged);
  std::unique_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = idle_.find(key); it != idle_.end()) {
      slot = std::move(it->second);
      idle_.erase(it);
    }
  }
  if (!slot) slot = load_slot(merged);
  slot->stop.reset();
  return std::make_unique<Lease>(*this, std::move(key), std::move(slot));
}

void LoadedRubric::give_back(std::string key, std::unique_ptr<Slot> slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_.emplace(std::move(key), std::move(slot));
}

LoadedRubric::Lease::~Lease() {
  for (const auto& [name, value] : owner_.inputs_) slot_->engine->bind(name, value);
  owner_.give_back(std::move(key_), std::move(slot_));
}

}  // namespace rubric::python
