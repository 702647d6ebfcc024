#include "operators/process/launch.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "operators/error.hpp"

namespace rubric::process::detail {
namespace {

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer keeps per-thread state the supervisor would share and corrupt: copy instead.
constexpr int kShareMemory = 0;
#else
constexpr int kShareMemory = CLONE_VM;
#endif
}  // namespace

struct rlimit make_limit(double value) {
  struct rlimit r{};
  if (value > 0) r.rlim_cur = r.rlim_max = static_cast<rlim_t>(std::ceil(value));
  return r;
}

// Clones the supervisor with as many namespaces as the machine grants; records what it got.
pid_t start_supervisor(SupervisorPlan& plan, const IsolationRequest& req, bool need_mounts, Isolation& iso,
                       void* stack_top) {
  const bool root = ::geteuid() == 0;
  int wanted = 0;
  if (req.pid_namespace) wanted |= CLONE_NEWPID;
  if (req.no_network) wanted |= CLONE_NEWNET;
  if (need_mounts) wanted |= CLONE_NEWNS;
  if (req.ipc_namespace) wanted |= CLONE_NEWIPC;
  if (req.uts_namespace) wanted |= CLONE_NEWUTS;
  std::vector<int> attempts;
  if (wanted) {
    attempts.push_back(root ? wanted : wanted | CLONE_NEWUSER);
    if (root) attempts.push_back(wanted | CLONE_NEWUSER);
  }
  attempts.push_back(0);
  int first_error = 0;
  for (int flags : attempts) {
    plan.pid_namespace = flags & CLONE_NEWPID;
    plan.net_namespace = flags & CLONE_NEWNET;
    plan.mount_namespace = flags & CLONE_NEWNS;
    plan.user_namespace = flags & CLONE_NEWUSER;
    plan.ipc_namespace = flags & CLONE_NEWIPC;
    plan.uts_namespace = flags & CLONE_NEWUTS;
    // With a user namespace the candidate is already unprivileged outside it.
    if (plan.user_namespace) plan.drop_privileges = false;
    // CLONE_VM: the supervisor shares the host's memory instead of copying its page tables, which
    // halves the cost of a run. It only reads the plan (alive until we reap it) and writes its own
    // stack; the one shared thing it writes is this thread's errno, so the loop below never
    // relies on errno while it runs.
    // The supervisor starts with every signal blocked (restored below for this thread): it
    // inherits this process's handlers, which must never run in it.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = ::clone(supervisor_main, stack_top, flags | kShareMemory | SIGCHLD, &plan);
    const int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = clone_errno;
    if (pid > 0) {
      iso.pid_namespace = plan.pid_namespace;
      iso.no_network = plan.net_namespace;
      iso.ipc_namespace = plan.ipc_namespace;
      iso.uts_namespace = plan.uts_namespace;
      if (wanted && flags == 0)
        iso.notes.push_back(fmt::format("namespaces (clone: {})", std::strerror(first_error)));
      return pid;
    }
    if (!first_error) first_error = errno;
  }
  throw OperatorError(fmt::format("cannot start a process: {}", std::strerror(errno)));
}


}  // namespace rubric::process::detail
