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

enum class Stage : int { None = 0, Stdio, Rlimit, Privileges, Chdir, Exec, Fork, UserNamespace, Whitelist, Seccomp, Cgroup };
const char* stage_description(Stage s);  // "change directory", "execute", ...

// Bits of ReportRecord::flags for what the supervisor set up.
enum SetupFlag : unsigned {
  kHiddenPathsCovered = 1u << 0,
  kProcMounted = 1u << 1,
  kLoopbackUp = 1u << 2,
  kSubreaper = 1u << 3,
  kPrivilegesDropped = 1u << 4,
  kPrivateTmp = 1u << 5,
  kWhitelist = 1u << 6,    // the candidate's root is the whitelist filesystem
  kCgroup = 1u << 7,       // the supervisor (so the candidate) joined the run's memory cgroup
  kInitExec = 1u << 8,     // the supervisor became rubric-run-init before waiting
  kPidsCgroup = 1u << 9,   // the process limit is the run's pids cgroup
};

// One step of building the candidate's root filesystem, prepared by the host (which decides what
// exists and what it is) and carried out by the supervisor in its mount namespace.
enum class MountKind : int { Tmpfs, BindRo, BindRw, BindDev, Symlink, Proc, Dir };
struct MountStep {
  MountKind kind = MountKind::Dir;
  const char* source = nullptr;   // bind source, or the symlink's target text
  const char* target = nullptr;   // absolute path under the new root
  const char* options = nullptr;  // tmpfs options ("size=...,mode=1777")
  bool is_file = false;           // a bind of a file: the mount point is an empty file
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
  std::int64_t max_rss_kb = 0;
  int step = -1;      // for a Whitelist 'W': the index of the MountStep that failed
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
  bool ipc_namespace = false, uts_namespace = false;
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

  // The whitelist filesystem: steps carried out under new_root (a directory the host made), then
  // pivot_root into it. When set, hidden paths and private_tmp are moot: nothing else is there.
  const MountStep* mounts = nullptr;
  int mount_count = 0;
  const char* new_root = nullptr;

  struct rlimit data{};                 // RLIMIT_DATA (the memory limit where no cgroup holds it)
  int cgroup_procs_fd = -1;             // the run's cgroup.procs, opened by the host: "0" joins it
  // The process limit is a pids cgroup: in v1 its own (pids_procs_fd, joined as the memory one),
  // in v2 the memory cgroup itself. RLIMIT_NPROC (`processes`) is set only where joining fails.
  bool pids_cgroup = false;
  int pids_procs_fd = -1;
  const void* seccomp_program = nullptr;  // a struct sock_fprog, installed last before exec
  int init_fd = -1;                     // O_PATH descriptor of rubric-run-init, exec'd after the start
  // A stack for the candidate until its exec (the host's memory, as the supervisor's own): with it
  // the candidate starts sharing the grader's memory (CLONE_VM) instead of as a fork, which copied
  // the page tables of the whole grader (108 ms a run for a 2 GiB grader). Null: fork.
  void* candidate_stack_top = nullptr;
  // For a long-lived sandboxed program (the GPU worker): descriptor `pass_fd` becomes `pass_as`.
  int pass_fd = -1, pass_as = -1;
};

// Entry point of the cloned supervisor; never returns (it _exits).
int supervisor_main(void* plan);

}  // namespace rubric::process::detail
