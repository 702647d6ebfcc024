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
  const std::string& dir() const { return dir_; }
  bool v2() const { return v2_; }

 private:
  std::string dir_, why_;
  bool v2_ = false;
};

// The run's process count limit as a pids cgroup: RLIMIT_NPROC counts every process of the
// candidate's uid, which all runs share (65534), so one run's fork storm failed the forks of every
// other run at the same time (`rubric grade --jobs N`). In cgroup v1 a cgroup of its own in the
// pids hierarchy, removed on destruction; in v2 the memory cgroup's directory (a process is in one
// v2 cgroup), where the pids controller is delegated. `ok()` false (with `why()`) elsewhere: the
// run then falls back to RLIMIT_NPROC.
class PidsCgroup {
 public:
  PidsCgroup(std::uint64_t max_processes, const MemoryCgroup* memory);
  ~PidsCgroup();
  PidsCgroup(const PidsCgroup&) = delete;
  PidsCgroup& operator=(const PidsCgroup&) = delete;

  bool ok() const { return !dir_.empty(); }
  const std::string& why() const { return why_; }
  const char* version() const { return own_ ? "cgroup v1" : "cgroup v2"; }
  // cgroup.procs of its own cgroup to join (caller owns it); -1 when it shares the memory cgroup's.
  int open_procs() const;
  // A fork of the run was refused at the limit.
  bool limit_hit() const;

 private:
  std::string dir_, why_;
  bool own_ = false;
};

}  // namespace rubric::process
