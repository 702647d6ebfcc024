#pragma once
// Starting a supervisor: shared by run_isolated (one run to its end) and spawn_sandboxed (a
// long-lived sandboxed program such as the GPU worker).
#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "operators/process/run_result.hpp"
#include "operators/process/run_spec.hpp"
#include "operators/process/supervisor.hpp"

namespace rubric::process::detail {

constexpr std::size_t kSupervisorStack = 256 * 1024;

// NULL-terminated char* arrays over owned strings, built before the clone.
struct CStrings {
  std::vector<std::string> owned;
  std::vector<char*> ptrs;
  explicit CStrings(std::vector<std::string> s) : owned(std::move(s)) {
    for (auto& x : owned) ptrs.push_back(x.data());
    ptrs.push_back(nullptr);
  }
};

// An rlimit of `value` (rounded up), or unlimited (0) for value <= 0.
struct rlimit make_limit(double value);

// Clones the supervisor with as many namespaces as the machine grants; records what it got in
// `iso` and in the plan's namespace flags. Throws OperatorError when no process can be started.
pid_t start_supervisor(SupervisorPlan& plan, const IsolationRequest& req, bool need_mounts, Isolation& iso,
                       void* stack_top);

}  // namespace rubric::process::detail
