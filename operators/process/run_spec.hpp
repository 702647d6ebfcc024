#pragma once
// What to run and how to confine it: the input of run_isolated().
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "operators/files/sparse_copy.hpp"

namespace rubric::process {

// Resource limits set with setrlimit in the candidate before exec. 0 means unlimited.
struct ProcessLimits {
  double cpu_seconds = 600;                        // RLIMIT_CPU (SIGXCPU, then SIGKILL)
  std::uint64_t address_space_bytes = 0;           // RLIMIT_AS; off by default: CUDA reserves TBs of address space
  std::uint64_t file_size_bytes = 4ull << 30;      // RLIMIT_FSIZE (SIGXFSZ)
  std::uint64_t processes = 256;                   // RLIMIT_NPROC; the kernel ignores it for root, see drop_privileges
  // Memory of the whole run (every process, its tmpfs files included): a memory cgroup where the
  // machine allows one, else RLIMIT_DATA per process. RunResult says which held.
  std::uint64_t memory_bytes = 4ull << 30;
};

// Confinement beyond the process group, rlimits and scrubbed environment every run gets.
// Each is applied where the machine allows; RunResult::isolation says what each run actually had.
struct IsolationRequest {
  // The candidate's filesystem is a whitelist (needs the mount namespace): the system directories
  // read-only, a minimal /etc, /dev/{null,zero,full,random,urandom}, its scratch copy and TMPDIR,
  // fresh bounded /tmp, /var/tmp and /dev/shm, its own /proc; nothing else of the machine.
  bool whitelist = true;
  // Added to the whitelist at the same path. The program itself (argv[0] resolved) is always
  // added read-only when it lies outside the whitelist: the file, not its folder.
  std::vector<std::string> read_only_paths;
  std::vector<std::string> read_write_paths;
  std::vector<std::string> devices;          // device nodes added to the whitelist (/dev/nvidia0)
  std::uint64_t tmp_bytes = 512ull << 20;    // size of each fresh /tmp, /var/tmp, /dev/shm (charged to the run's memory)
  bool ipc_namespace = true;   // own SysV IPC and POSIX message queues: nothing kept for a later run
  bool uts_namespace = true;   // own host name ("rubric")
  bool seccomp = true;         // refuse keyctl, ptrace, mount, bpf, perf_event_open, ... (confinement.hpp)
  bool pid_namespace = true;   // the supervisor is init of a new PID namespace: its exit kills every descendant
  bool no_network = true;      // a new network namespace holding only loopback
  bool scratch_copy = true;    // run in a fresh temporary copy of cwd; the original is never written
  std::vector<std::string> hidden_paths;  // made empty/unreadable in a private mount namespace (e.g. the reference root)
  // Fresh empty /tmp, /var/tmp and /dev/shm per run (needs the mount namespace): a run cannot
  // read the host's temp files or leave results there for a later run. Programs and files the
  // run needs must then not live in those directories.
  bool private_tmp = true;
  // When rubric runs as root, run the candidate as this uid/gid: root is exempt from RLIMIT_NPROC,
  // and an unprivileged candidate cannot undo the mounts. The scratch copy is chowned to it.
  bool drop_privileges = true;
  unsigned uid = 65534, gid = 65534;
};

struct RunSpec {
  std::vector<std::string> argv;  // argv[0] without '/' is looked up in the run's PATH
  // Added to the scrubbed environment (PATH, HOME, LANG=C.UTF-8, TMPDIR); a name given here wins.
  std::vector<std::pair<std::string, std::string>> env;
  std::string cwd;                // directory to run in ("" = the current directory)
  double timeout_seconds = 60;
  std::size_t output_cap_bytes = 8u << 20;  // per stream; beyond it output is drained and dropped
  ProcessLimits limits;
  IsolationRequest isolation;
  // The scratch copy's budget per run (data bytes, holes excluded; entries). Past it the run is
  // not started and files::BudgetExceeded (the submission's fault) is thrown.
  files::CopyBudget copy_budget;
  bool keep_scratch = false;      // leave the scratch directory for inspection (RunResult::scratch_dir)

  // A spec running `command` with /bin/sh -c.
  static RunSpec shell(const std::string& command);
};

}  // namespace rubric::process
