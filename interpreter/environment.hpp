#pragma once
// Scopes at run time: local bindings (block lets, parameters, loop variables), lazy cells for
// top-level and group `let`s and `param`s, and module aliases. A module's globals environment
// is the root of every scope inside that module.
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/value.hpp"

namespace rubric {

struct Module;
struct ModuleRuntime;
class Environment;

// A `let` or `param` evaluated on first use, once. An error it yields is kept, so every check
// that uses it fails with the same reason while checks that do not use it never see it.
struct LazyCell {
  enum class State { pending, running, done };
  std::string name;
  const ast::Expr* expr = nullptr;
  Environment* env = nullptr;  // owns the cell; outlives it
  State state = State::pending;
  Value value;
};

class Environment {
 public:
  struct Slot {
    Value value;
    std::shared_ptr<LazyCell> lazy;        // set for lazy lets and params
    const ModuleRuntime* alias = nullptr;  // set for `use x as alias`
    // Set for a lambda's parameter bound to a table's row (Evaluator::call_on_row): `value` is
    // null and the row's record is made only where the parameter is used whole.
    const RecordTable* table = nullptr;
    std::size_t row = 0;
    Value bound() const { return table ? table->record(row) : value; }
  };

  Environment(std::shared_ptr<Environment> parent, ModuleRuntime* module) : parent_(std::move(parent)), module_(module) {}

  void define(const std::string& name, Value v) { add(name, Slot{std::move(v), nullptr, nullptr}); }
  void define_lazy(const std::string& name, std::shared_ptr<LazyCell> cell) { add(name, Slot{Value(), std::move(cell), nullptr}); }
  void define_alias(const std::string& name, const ModuleRuntime* m) { add(name, Slot{Value(), nullptr, m}); }
  void define_row(const std::string& name, const RecordTable* t, std::size_t row) {
    add(name, Slot{Value(), nullptr, nullptr, t, row});
  }
  // The scope of one parameter bound to a row (define_row), bound to another row of a table.
  void rebind_row(const RecordTable* t, std::size_t row) {
    slots_.back().second.table = t;
    slots_.back().second.row = row;
  }
  // A scope that outlives its call keeps its rows as records (the table may go before it does).
  void settle_rows() {
    for (auto& s : slots_)
      if (s.second.table) {
        s.second.value = s.second.bound();
        s.second.table = nullptr;
      }
  }

  // This scope only; the latest definition wins (a later `let` shadows an earlier one).
  const Slot* find_local(const std::string& name) const {
    if (!index_.empty()) {
      auto it = index_.find(name);
      return it == index_.end() ? nullptr : &slots_[it->second].second;
    }
    // Compared inline (same_key): a lambda's scope is searched for a name once per item of a list.
    for (auto it = slots_.rbegin(); it != slots_.rend(); ++it)
      if (same_key(it->first, name)) return &it->second;
    return nullptr;
  }
  const std::shared_ptr<Environment>& parent() const { return parent_; }
  ModuleRuntime* module() const { return module_; }

  // Empties the scope for another use under `parent` (a lambda's scope, reused from call to call
  // when nothing kept it), keeping its storage.
  void reset(std::shared_ptr<Environment> parent, ModuleRuntime* module) {
    slots_.clear();
    index_.clear();
    parent_ = std::move(parent);
    module_ = module;
  }

 private:
  // Small scopes scan; large ones (module globals) switch to a hash index.
  void add(const std::string& name, Slot slot) {
    slots_.emplace_back(name, std::move(slot));
    if (slots_.size() == 16)
      for (std::size_t i = 0; i < slots_.size(); ++i) index_[slots_[i].first] = i;
    else if (slots_.size() > 16)
      index_[name] = slots_.size() - 1;
  }

  std::shared_ptr<Environment> parent_;
  ModuleRuntime* module_;
  std::vector<std::pair<std::string, Slot>> slots_;
  std::unordered_map<std::string, std::size_t> index_;
};

using EnvPtr = std::shared_ptr<Environment>;

// A loaded module at run time: its globals, and the modules it uses unqualified.
struct ModuleRuntime {
  const Module* module = nullptr;
  EnvPtr globals;
  std::vector<ModuleRuntime*> unqualified;
};

}  // namespace rubric
