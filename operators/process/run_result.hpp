#pragma once
// What a run produced and which isolation it actually had.
#include <cstdint>
#include <string>
#include <vector>

namespace rubric::process {

struct Isolation {
  bool process_group = false;
  bool rlimits = false;
  bool pid_namespace = false;   // else: a subreaper supervisor kills every descendant it inherits
  bool subreaper = false;
  bool no_network = false;
  bool hidden_paths = false;    // every requested hidden path was covered
  bool private_tmp = false;     // fresh /tmp, /var/tmp, /dev/shm
  bool scratch_copy = false;
  bool unprivileged = false;    // ran under IsolationRequest::uid (or was never root)
  bool whitelist = false;       // the filesystem was the whitelist (nothing else of the machine visible)
  bool ipc_namespace = false, uts_namespace = false;
  bool seccomp = false;         // the system call filter was installed
  bool no_capabilities = false; // no_new_privs and every capability dropped
  bool own_init = false;        // init of the run is rubric-run-init, not a clone of the grader
  std::string memory_limit;     // what enforced the memory limit: "memory cgroup v1", "RLIMIT_DATA", ""
  std::string process_limit;    // what bounded the process count: "processes 256 (cgroup v1)", "... (RLIMIT_NPROC; ...)"
  std::vector<std::string> notes;  // what was requested but not available, and why

  // "process group, rlimits, pid namespace, no network, whitelist filesystem, ..., memory cgroup v1"
  // followed by "; not available: ..." notes when there are any.
  std::string describe() const;
};

struct RunResult {
  bool exited = false;      // exited normally (then exit_code is valid)
  int exit_code = -1;
  int signal = 0;           // the signal that ended it, else 0
  std::string signal_name;  // "SIGSEGV"
  bool timed_out = false;   // killed at the timeout
  double timeout_seconds = 0;  // the timeout the run had
  bool launch_failed = false;
  // Killed for memory: the cgroup's OOM killer ran, or (RLIMIT_DATA) it failed near the limit.
  bool memory_exceeded = false;
  std::uint64_t memory_limit_bytes = 0;
  std::uint64_t peak_memory_bytes = 0;  // cgroup peak, else the largest process's max RSS
  std::string launch_error; // e.g. "cannot execute 'prog': No such file or directory"
  // The launch failed in the sandbox's own setup (a stage before the program's exec, an exec
  // refused for the machine's resources, a supervisor killed from outside): the grading machine's
  // fault. A program that is missing, not executable or not a program is the submission's.
  bool setup_failed = false;
  // argv[0] is a bare name (no '/') that no folder of the run's PATH holds: a tool the grading
  // machine lacks, never a file of the candidate's folder.
  bool tool_not_in_path = false;
  // The program execve was given, as a path in the original folder (not the scratch copy): argv[0]
  // found in PATH ("/usr/bin/sh") or made absolute against the run folder ("./solve").
  std::string executable;

  std::string stdout_text, stderr_text;
  bool stdout_truncated = false, stderr_truncated = false;

  double wall_seconds = 0;  // fork of the candidate to its exit
  double user_cpu_seconds = 0, system_cpu_seconds = 0;

  Isolation isolation;
  // The scratch copy: data bytes copied (holes excluded), and special files left out
  // ("pipe (named pipe (FIFO))", relative to the run folder).
  std::uint64_t copied_bytes = 0;
  std::vector<std::string> skipped_files;
  std::string scratch_dir;  // set when RunSpec::keep_scratch

  bool succeeded() const { return exited && exit_code == 0 && !timed_out && !launch_failed; }
  // "exit code 0", "killed by SIGSEGV (signal 11)", "timed out after 2 s (killed)", "could not start: ...",
  // "exceeded 4 GiB of memory (killed by SIGKILL, signal 9)"
  std::string status_text() const;
  // The last `max_lines` lines of stderr (at most 2000 bytes), for failure messages.
  std::string stderr_tail(int max_lines = 10) const;
};

// "SIGSEGV" for 11; "signal 77" for unknown numbers.
std::string signal_name(int sig);

}  // namespace rubric::process
