#pragma once
// A long-lived program in the same sandbox as run_isolated's candidates (whitelist filesystem,
// namespaces, no capabilities, seccomp, memory limit, its own init): the GPU worker uses it.
// The caller talks to it over a descriptor it passes in, and ends it with kill() (the whole
// namespace goes with it) or lets it exit.
#include <sys/types.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "operators/process/run_result.hpp"
#include "operators/process/run_spec.hpp"

namespace rubric::process {

struct SandboxSpec {
  std::vector<std::string> argv;   // argv[0]: an absolute path (added to the whitelist read-only)
  std::vector<std::pair<std::string, std::string>> env;  // the whole environment (nothing is inherited)
  std::string cwd = "/";           // inside the whitelist
  ProcessLimits limits;
  // isolation.read_only_paths / read_write_paths / devices say what the program sees besides the
  // system directories; scratch_copy, hidden_paths and private_tmp do not apply.
  IsolationRequest isolation;
  int stdout_fd = -1, stderr_fd = -1;  // where its output goes (default /dev/null)
  int pass_fd = -1, pass_as = 3;       // a descriptor the program gets as `pass_as` (the worker's channel)
};

class SandboxedProcess {
 public:
  SandboxedProcess() = default;
  ~SandboxedProcess();  // kills and reaps it if still running
  SandboxedProcess(SandboxedProcess&&) noexcept;
  SandboxedProcess& operator=(SandboxedProcess&&) noexcept;

  bool running() const;
  pid_t pid() const;  // the supervisor (init of the sandbox), 0 when none
  const Isolation& isolation() const;
  // SIGKILL to the sandbox: with a PID namespace everything in it dies at once.
  void kill();
  // Reaps it (waiting up to timeout_s, then killing) and says how the program ended:
  // "exited with code 0", "killed by SIGSEGV", "exceeded 4 GiB of memory (killed by SIGKILL)".
  std::string reap(double timeout_s);

  struct State;

 private:
  friend SandboxedProcess spawn_sandboxed(const SandboxSpec& spec);
  std::unique_ptr<State> state_;
};

// Starts the program; throws OperatorError when it cannot (no process, no pipe). What isolation
// it got is in isolation(); a program that cannot be executed shows in reap().
SandboxedProcess spawn_sandboxed(const SandboxSpec& spec);

}  // namespace rubric::process
