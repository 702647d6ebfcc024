#pragma once
// The code that runs in the child processes of one isolated run, and the records they send back.
// run_isolated() clones a supervisor (init of a new PID namespace where allowed, else a subreaper);
// the supervisor starts the candidate, waits for it, kills whatever it left behind, and reports.
// Everything here runs after clone(CLONE_VM) in the memory of a possibly multi-threaded host, so
// it uses only system calls and its own stack: no allocation, no locks, no formatting, and no
// writes to memory the host owns.
#include <sys/resource.h>

#include <cstdint>

namespace rubric::process::detail {

enum class Stage : int { None = 0, Stdio, Rlimit, Privileges, Chdir, Exec, Fork, UserNamespace };
const char* stage_description(Stage s);  // "change directory", "execute", ...

// Bits of ReportRecord::flags for what the supervisor set up.
enum SetupFlag : unsigned {
  kHiddenPathsCovered = 1u << 0,
  kProcMounted = 1u << 1,
  kLoopbackUp = 1u << 2,
  kSubreaper = 1u << 3,
  kPrivilegesDropped = 1u << 4,
  kPrivateTmp = 1u << 5,
};

// One fixed-size message on the report pipe (smaller than PIPE_BUF, so each write is atomic).
struct ReportRecord {
  char kind = 0;      // 'S' setup done (flags) and candidate started (pid), 'E' launch failed,
                      // 'W' a limit could not be applied (stage, err), 'X' candidate ended
  int stage = 0;      // Stage for 'E' and 'W'
  int err = 0;        // errno for 'E' and 'W'
  int pid = 0;        // candidate pid in the supervisor's view
  int wait_status = 0;
  unsigned flags = 0;
  std::int64_t wall_ns = 0, user_us = 0, system_us = 0;
};

struct SupervisorPlan {
  const char* exe = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* cwd = nullptr;
  int stdout_fd = -1, stderr_fd = -1, report_fd = -1;  // write ends
  int parent_fds[3] = {-1, -1, -1};                    // read ends, closed in the child
  int parent_pid = 0;

  struct rlimit cpu{}, address_space{}, file_size{}, processes{};
  bool drop_privileges = false;
  unsigned uid = 0, gid = 0;

  bool pid_namespace = false, net_namespace = false, mount_namespace = false, user_namespace = false;
  unsigned outer_uid = 0, outer_gid = 0;  // for the user namespace's one-line id maps
  const char* const* hidden = nullptr;    // absolute paths to cover
  const bool* hidden_is_dir = nullptr;
  int hidden_count = 0;
  // Fresh tmpfs over /tmp, /var/tmp and /dev/shm; the kept directories (the scratch root, the
  // run directory, the executable's directory) that lived under one of them are bound back at
  // their paths, so the run's cwd, TMPDIR and program stay where the plan says.
  bool private_tmp = false;
  const char* const* keep_dirs = nullptr;
  int keep_count = 0;
};

// Entry point of the cloned supervisor; never returns (it _exits).
int supervisor_main(void* plan);

}  // namespace rubric::process::detail
