#pragma once
// What to run and how to confine it: the input of run_isolated().
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rubric::process {

// Resource limits set with setrlimit in the candidate before exec. 0 means unlimited.
struct ProcessLimits {
  double cpu_seconds = 600;                        // RLIMIT_CPU (SIGXCPU, then SIGKILL)
  std::uint64_t address_space_bytes = 0;           // RLIMIT_AS; off by default: CUDA reserves TBs of address space
  std::uint64_t file_size_bytes = 4ull << 30;      // RLIMIT_FSIZE (SIGXFSZ)
  std::uint64_t processes = 256;                   // RLIMIT_NPROC; the kernel ignores it for root, see drop_privileges
};

// Confinement beyond the process group, rlimits and scrubbed environment every run gets.
// Each is applied where the machine allows; RunResult::isolation says what each run actually had.
struct IsolationRequest {
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
  bool keep_scratch = false;      // leave the scratch directory for inspection (RunResult::scratch_dir)

  // A spec running `command` with /bin/sh -c.
  static RunSpec shell(const std::string& command);
};

}  // namespace rubric::process
