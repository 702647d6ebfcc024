#pragma once
// The embedding API: everything a C++ host (the `rubric` CLI included) needs to load a rubric,
// register its own operators, bind values, check a submission and receive the report model.
// The CLI uses nothing else from interpreter/.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "grammar/diagnostic.hpp"
#include "interpreter/report_model.hpp"
#include "interpreter/value.hpp"
#include "operators/judge/judge_settings.hpp"

namespace rubric {

class Registry;

// A host's request to stop the check in progress (Ctrl-C in the Python module, its timeout): the
// evaluator polls it at every step, and each criterion still running or yet to run is an ERROR
// giving the reason. Ending the candidate programs the check started is the host's part.
class StopRequest {
 public:
  void request(const std::string& reason);  // the first reason given is kept
  bool requested() const { return state_.load(std::memory_order_acquire) == 2; }
  const std::string& reason() const { return reason_; }  // once requested()
  void reset() { state_.store(0); reason_.clear(); }     // between checks, none running
 private:
  std::atomic<int> state_{0};  // 0 none, 1 the reason being written, 2 requested
  std::string reason_;
};

struct EngineOptions {
  std::vector<std::string> include_dirs;        // -I DIR, searched before RUBRIC_PATH for `use a.b`
  std::map<std::string, std::string> set_params;  // --set NAME=VALUE (VALUE is a rubric literal)
  std::vector<std::string> only;                // --only ID: evaluate just these criteria (and their `after`s)
  std::optional<std::uint64_t> seed;            // --seed N, overrides the header's seed
  ProgressSink* progress = nullptr;             // may be null
  std::uint64_t step_budget = 20'000'000;       // evaluation steps per criterion (ERROR when exceeded)
  int call_depth_limit = 200;                   // nested function calls (ERROR when exceeded)
  judge::JudgeSettings judge;                   // --judge-url, --judge-model, ...; empty: the environment's
  const StopRequest* stop = nullptr;            // may be null; polled while checking
};

// A host-registered operator: name, parameters (for arity checks and `rubric doc`), docs, code.
struct HostOperator {
  std::string name;
  std::vector<std::string> params;  // parameter names; a trailing "=..." marks a default ("tol=5%")
  std::string doc;
  std::function<Value(CallContext&, const std::vector<Value>& args)> fn;
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;

  // Registers an operator before loading; it is then in scope in every rubric and module.
  void register_operator(HostOperator op);
  // Binds a global name (visible like a builtin) to a value.
  void bind(const std::string& name, Value value);
  // The builtin registry, for hosts that add whole families (interpreter/builtins/registry.hpp:
  // builtins with defaults and overloads, and the matches/field/operator hooks for new value kinds).
  Registry& registry();

  // Parses, resolves modules and checks statically. Returns every diagnostic (errors and
  // warnings); the rubric can be checked only when none is an error.
  std::vector<Diagnostic> load(const std::string& rubric_path);
  std::vector<Diagnostic> load_source(SourcePtr source);

  // Evaluates the loaded rubric against a submission. `reference_dir` empty: the rubric's folder.
  // A rubric that did not load gives its report too: ERROR, nothing evaluated, the load's
  // diagnostics as its warnings.
  Report check(const std::string& submission_dir, const std::string& reference_dir = "");

  // The loaded rubric's files and the modules it read from disk (not the embedded stdlib), each
  // with its SHA-256, as check() lists them in the provenance. Empty before a load.
  std::vector<FileRecord> sources() const;

  const EngineOptions& options() const;

  // Notes on what grading the loaded rubric needs beyond a submission, for `rubric lint`: one per
  // criterion that asks the judge (it needs a judge endpoint, or a cache holding its judgements).
  std::vector<Diagnostic> needs_notes() const;
  // Notes for `rubric lint`, one per criterion that declares `needs gpu`: what a machine without a
  // usable CUDA device makes of it (the checker notes criteria that use the GPU without saying so).
  std::vector<Diagnostic> gpu_notes() const;

  // Builtins and stdlib with signatures and `##` docs (for `rubric doc [MODULE]`), as Markdown-ish text;
  // MODULE may also be the grader's own module, found through -I folders and RUBRIC_PATH.
  // Sets *found (when given) to false if `module` names no module or builtin family; the text
  // then says so and lists the known ones.
  std::string doc(const std::string& module = "", bool* found = nullptr) const;

 private:
  Report evaluate(const std::string& submission_dir, const std::string& reference_dir);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rubric
