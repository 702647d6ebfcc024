#pragma once
// Host-side pieces of a run's confinement that are prepared once or per run before the clone:
// the system call filter, the init program the supervisor becomes, the memory cgroup.
#include <cstdint>
#include <optional>
#include <string>

namespace rubric::process {

// The seccomp filter every candidate gets (a struct sock_fprog, built once with libseccomp):
// keyctl/add_key/request_key (a keyring outlives the run), ptrace and process_vm_* (no peeking at
// other processes), mount/umount/pivot_root/unshare/setns, bpf, perf_event_open, kernel module
// and kexec calls, reboot, swap, clock setting. They fail with EPERM. nullptr where it could not
// be built (the reason in *why).
const void* seccomp_program(std::string* why);
// The system calls the filter refuses, for docs and messages.
const char* const* refused_syscalls();

// rubric-run-init: $RUBRIC_RUN_INIT, else next to the running executable, else where the build
// put it. nullopt when none is executable.
std::optional<std::string> run_init_executable();

// A memory cgroup for one run (cgroup v2, or v1's memory controller), removed on destruction.
class MemoryCgroup {
 public:
  // Creates the cgroup with its limit; `ok()` false (with `why()`) where the machine does not allow it.
  explicit MemoryCgroup(std::uint64_t limit_bytes);
  ~MemoryCgroup();
  MemoryCgroup(const MemoryCgroup&) = delete;
  MemoryCgroup& operator=(const MemoryCgroup&) = delete;

  bool ok() const { return !dir_.empty(); }
  const std::string& why() const { return why_; }
  const char* version() const { return v2_ ? "cgroup v2" : "cgroup v1"; }
  // An open descriptor of cgroup.procs for the supervisor to join with; -1 when !ok(). Owned by
  // the caller after the call.
  int open_procs() const;
  // The kernel killed a process of the run for memory (its OOM killer ran in this cgroup).
  bool oom_killed() const;
  // Peak usage in bytes (0 where not known).
  std::uint64_t peak() const;

 private:
  std::string dir_, why_;
  bool v2_ = false;
};

}  // namespace rubric::process
