#pragma once
// A rubric loaded for Python: checked against any number of submissions, from several threads at
// once. An Engine evaluates one submission at a time, so each concurrent check borrows an engine
// of its own from a pool, loaded with that check's params (its `--set`s) and with the rubric's
// named inputs bound; a check with params no idle engine has loads one.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/engine.hpp"

namespace rubric::python {

// A load with errors; `diagnostics` holds every diagnostic of it, errors and warnings.
struct LoadFailed {
  std::vector<Diagnostic> diagnostics;
};

class LoadedRubric {
 public:
  // Loads `path` once (throws LoadFailed). `params` are rubric literals by param name (as --set);
  // `inputs` are global names the rubric reads, with the values they have unless a check gives others.
  LoadedRubric(std::string path, std::vector<std::string> include_dirs, std::map<std::string, std::string> params,
               std::map<std::string, Value> inputs);

  // An engine ready to check: loaded with the load's params overridden by `params`, its stop reset.
  struct Lease;
  std::unique_ptr<Lease> borrow(const std::map<std::string, std::string>& params);

  const std::string& path() const { return path_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::map<std::string, Value>& inputs() const { return inputs_; }

 private:
  struct Slot {
    StopRequest stop;
    std::unique_ptr<Engine> engine;
  };
  std::unique_ptr<Slot> load_slot(const std::map<std::string, std::string>& params,
                                  std::vector<Diagnostic>* diagnostics = nullptr) const;
  void give_back(std::string key, std::unique_ptr<Slot> slot);

  std::string path_;
  std::vector<std::string> include_dirs_;
  std::map<std::string, std::string> params_;
  std::map<std::string, Value> inputs_;
  std::vector<Diagnostic> diagnostics_;
  std::mutex mutex_;
  std::multimap<std::string, std::unique_ptr<Slot>> idle_;  // by the params' key
};

// An engine borrowed for one check; going out of scope returns it to the pool with the rubric's
// own input values bound again (so a check's arrays are not held past it).
struct LoadedRubric::Lease {
  Lease(LoadedRubric& owner, std::string key, std::unique_ptr<Slot> slot)
      : owner_(owner), key_(std::move(key)), slot_(std::move(slot)) {}
  ~Lease();
  Engine& engine() { return *slot_->engine; }
  StopRequest& stop() { return slot_->stop; }

 private:
  LoadedRubric& owner_;
  std::string key_;
  std::unique_ptr<Slot> slot_;
};

}  // namespace rubric::python
