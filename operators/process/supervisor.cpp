#include "operators/process/supervisor.hpp"

#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/statfs.h>

#include <dirent.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>

#include "operators/process/reaper.hpp"

namespace rubric::process::detail {

const char* stage_description(Stage s) {
  switch (s) {
    case Stage::Stdio: return "set up stdin/stdout/stderr";
    case Stage::Rlimit: return "set a resource limit";
    case Stage::Privileges: return "drop privileges";
    case Stage::Chdir: return "change to the run directory";
    case Stage::Exec: return "execute";
    case Stage::Fork: return "start the candidate process";
    case Stage::UserNamespace: return "map ids in the user namespace";
    case Stage::Whitelist: return "build the whitelist filesystem";
    case Stage::Seccomp: return "install the system call filter";
    case Stage::Cgroup: return "join the memory cgroup";
    default: return "set up";
  }
}

namespace {

void send_stage(int fd, char kind, Stage stage, int err) {
  ReportRecord r;
  r.kind = kind;
  r.stage = int(stage);
  r.err = err;
  send(fd, r);
}

bool write_file(const char* path, const char* text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text, strlen(text)) == ssize_t(strlen(text));
  close(fd);
  return ok;
}

// "0 <id> 1\n" without snprintf (which may allocate).
void id_map_line(char* buf, unsigned id) {
  char digits[16];
  int n = 0;
  do { digits[n++] = char('0' + id % 10); id /= 10; } while (id);
  char* p = buf;
  *p++ = '0';
  *p++ = ' ';
  while (n) *p++ = digits[--n];
  memcpy(p, " 1\n", 4);
}

bool bring_up_loopback() {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return false;
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  memcpy(ifr.ifr_name, "lo", 3);
  bool ok = ioctl(s, SIOCGIFFLAGS, &ifr) == 0;
  ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
  ok = ok && ioctl(s, SIOCSIFFLAGS, &ifr) == 0;
  close(s);
  return ok;
}

// mkdir -p for an absolute path, without allocating.
bool make_dirs(const char* path, mode_t mode = 0711) {
  char buf[4096];
  std::size_t len = strlen(path);
  if (len >= sizeof buf) return false;
  memcpy(buf, path, len + 1);
  for (std::size_t i = 1; i <= len; ++i) {
    if (buf[i] != '/' && buf[i] != '\0') continue;
    char saved = buf[i];
    buf[i] = '\0';
    if (mkdir(buf, mode) != 0 && errno != EEXIST) return false;
    buf[i] = saved;
  }
  return true;
}

// Gives the run empty world-writable temp dirs, so nothing a run leaves there reaches later runs
// (results cached between runs) and nothing of the host's is there to read. The kept directories
// are held open across the mounts and bound back at the same paths.
bool make_private_tmp(const char* const* keep_dirs, int keep_count) {
  int kept[4];
  const int n_keep = keep_count < 4 ? keep_count : 4;
  for (int i = 0; i < n_keep; ++i) kept[i] = open(keep_dirs[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
  bool ok = true;
  for (const char* dir : {"/tmp", "/var/tmp", "/dev/shm"}) {
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    ok = mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") == 0 && ok;
  }
  for (int i = 0; i < n_keep; ++i) {
    struct stat st;
    if (kept[i] < 0 || stat(keep_dirs[i], &st) == 0) continue;  // absent before, or not under a temp dir
    char fd_path[64] = "/proc/self/fd/";
    std::size_t n = 14;
    char digits[16];
    int d = 0, fd = kept[i];
    do { digits[d++] = char('0' + fd % 10); fd /= 10; } while (fd);
    while (d) fd_path[n++] = digits[--d];
    fd_path[n] = '\0';
    ok = make_dirs(keep_dirs[i]) && mount(fd_path, keep_dirs[i], nullptr, MS_BIND, nullptr) == 0 && ok;
  }
  for (int i = 0; i < n_keep; ++i)
    if (kept[i] >= 0) close(kept[i]);
  return ok;
}

// An empty file to bind a file over.
bool make_file(const char* path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0444);
  if (fd < 0) return errno == EEXIST;
  close(fd);
  return true;
}

// The parent directories of path (not path itself).
bool make_parents(const char* path) {
  char buf[4096];
  std::size_t len = strlen(path);
  if (len >= sizeof buf) return false;
  memcpy(buf, path, len + 1);
  char* slash = strrchr(buf, '/');
  if (!slash || slash == buf) return true;
  *slash = '\0';
  return make_dirs(buf);
}

// Bind, then remount with the flags wanted, keeping the flags the kernel locks on the source
// (noexec, atime modes): a remount that drops them is refused in a user namespace.
bool bind(const char* source, const char* target, unsigned long extra) {
  if (mount(source, target, nullptr, MS_BIND | MS_REC, nullptr) != 0) return false;
  struct statfs sf;
  if (statfs(target, &sf) != 0) return false;
  const unsigned long kept = (unsigned long)sf.f_flags & (MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | MS_NODIRATIME | MS_RELATIME);
  return mount(nullptr, target, nullptr, MS_BIND | MS_REMOUNT | kept | extra, nullptr) == 0;
}

// Builds the candidate's root under p.new_root and pivots into it. Returns the index of the step
// that failed (mount_count for the pivot), or -1.
int build_whitelist_root(const SupervisorPlan& p) {
  if (mount("tmpfs", p.new_root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0) return 0;
  for (int i = 0; i < p.mount_count; ++i) {
    const MountStep& m = p.mounts[i];
    bool ok = true;
    switch (m.kind) {
      case MountKind::Dir: ok = make_dirs(m.target, 0755); break;
      case MountKind::Symlink: ok = make_parents(m.target) && symlink(m.source, m.target) == 0; break;
      case MountKind::Tmpfs:
        ok = make_dirs(m.target, 0755) && mount("tmpfs", m.target, "tmpfs", MS_NOSUID | MS_NODEV, m.options) == 0;
        break;
      case MountKind::Proc:
        ok = make_dirs(m.target, 0755) && mount("proc", m.target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
        break;
      case MountKind::BindRo:
      case MountKind::BindRw:
      case MountKind::BindDev: {
        ok = m.is_file ? make_parents(m.target) && make_file(m.target)
                       : make_dirs(m.target, m.kind == MountKind::BindRw ? 0711 : 0755);
        unsigned long flags = MS_NOSUID;
        if (m.kind != MountKind::BindDev) flags |= MS_NODEV;
        if (m.kind != MountKind::BindRw) flags |= MS_RDONLY;
        // Device nodes stay exec-mappable: drivers (NVIDIA's among them) map their nodes with PROT_EXEC,
        // which a noexec mount refuses; a device node cannot be executed as a program anyway.
        ok = ok && bind(m.source, m.target, flags);
        break;
      }
    }
    if (!ok) return i;
  }
  // pivot_root(".", "."): the old root ends up under the new one, and is then detached whole.
  if (chdir(p.new_root) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 ||
      chdir("/") != 0)
    return p.mount_count;
  // The root itself (mount points only) is read-only: the candidate writes only where it was given.
  if (mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
    return p.mount_count;
  return -1;
}

// Every capability gone for good: the bounding set (so exec cannot regain any), the ambient set,
// and the current sets.
void drop_capabilities() {
  for (int cap = 0; cap <= 63; ++cap) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  syscall(SYS_capset, &header, data);
}

[[noreturn]] void run_candidate(const SupervisorPlan& p) {
  setpgid(0, 0);
  const struct rlimit no_core{0, 0};  // a crashing candidate must not fill the scratch dir with cores
  setrlimit(RLIMIT_CORE, &no_core);
  if (p.cpu.rlim_cur && setrlimit(RLIMIT_CPU, &p.cpu) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  if (p.address_space.rlim_cur && setrlimit(RLIMIT_AS, &p.address_space) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  if (p.file_size.rlim_cur && setrlimit(RLIMIT_FSIZE, &p.file_size) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  // With a pids cgroup the supervisor already holds RLIMIT_NPROC where joining it failed: the
  // limit of the shared uid is never set for a run the cgroup bounds.
  if (!p.pids_cgroup && p.processes.rlim_cur && setrlimit(RLIMIT_NPROC, &p.processes) != 0)
    send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  if (p.data.rlim_cur && setrlimit(RLIMIT_DATA, &p.data) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);

  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(p.stdout_fd, 1) < 0 || dup2(p.stderr_fd, 2) < 0) {
    send_stage(p.report_fd, 'E', Stage::Stdio, errno);
    _exit(127);
  }
  if (p.pass_fd >= 0 && dup2(p.pass_fd, p.pass_as) < 0) {
    send_stage(p.report_fd, 'E', Stage::Stdio, errno);
    _exit(127);
  }
  // Every other descriptor inherited from the host closes at exec (the report pipe already does).
  syscall(SYS_close_range, p.pass_as >= 3 ? unsigned(p.pass_as) + 1 : 3u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */);
  if (p.pass_as > 3) syscall(SYS_close_range, 3u, unsigned(p.pass_as) - 1, 4u);

  // Default dispositions (exec keeps ignored signals ignored), then unblock: the supervisor ran
  // with every signal blocked.
  for (int sig = 1; sig < NSIG; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);

  // Before the uid changes: dropping the bounding set needs CAP_SETPCAP.
  for (int cap = 0; cap <= 63; ++cap) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  if (p.drop_privileges) {
    // Raw system calls: glibc's setuid would try to signal the host's other threads.
    if (syscall(SYS_setgroups, 0, nullptr) != 0 || syscall(SYS_setresgid, p.gid, p.gid, p.gid) != 0 ||
        syscall(SYS_setresuid, p.uid, p.uid, p.uid) != 0) {
      send_stage(p.report_fd, 'E', Stage::Privileges, errno);
      _exit(127);
    }
  }
  if (p.cwd && chdir(p.cwd) != 0) {
    send_stage(p.report_fd, 'E', Stage::Chdir, errno);
    _exit(127);
  }
  // No exec may gain privileges (setuid binaries, file capabilities); no capability is left.
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  drop_capabilities();
  if (p.seccomp_program &&
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, static_cast<const struct sock_fprog*>(p.seccomp_program)) != 0) {
    send_stage(p.report_fd, 'E', Stage::Seccomp, errno);
    _exit(127);
  }
  execve(p.exe, p.argv, p.envp);
  send_stage(p.report_fd, 'E', Stage::Exec, errno);
  _exit(127);
}

// The candidate started with CLONE_VM: on its own stack, waits at the gate, then sets itself up.
struct CandidateStart {
  const SupervisorPlan* plan;
  int gate_read, gate_write;
};

void wait_at_gate(int gate_read, int gate_write) {
  close(gate_write);
  char c;
  while (read(gate_read, &c, 1) < 0 && errno == EINTR) {
  }
  close(gate_read);
}

[[maybe_unused]] int candidate_main(void* arg) {
  const CandidateStart go = *static_cast<const CandidateStart*>(arg);
  wait_at_gate(go.gate_read, go.gate_write);
  run_candidate(*go.plan);
}

// "<n>" into buf without snprintf.
void decimal(char* buf, std::int64_t v) {
  char digits[24];
  int n = 0;
  bool neg = v < 0;
  std::uint64_t u = neg ? std::uint64_t(-v) : std::uint64_t(v);
  do { digits[n++] = char('0' + u % 10); u /= 10; } while (u);
  char* p = buf;
  if (neg) *p++ = '-';
  while (n) *p++ = digits[--n];
  *p = '\0';
}

}  // namespace

int supervisor_main(void* arg) {
  const SupervisorPlan& p = *static_cast<const SupervisorPlan*>(arg);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The folders made below (mount points, the paths to the run's folders) must be passable by the
  // candidate's uid whatever the grader's umask (077 made every run 'could not change to the run
  // directory'); the program inherits 022 too, so a run is the same on every grading machine. The
  // supervisor has its own copy of the umask (no CLONE_FS), the grader's is untouched.
  umask(022);
  // The host died before the line above (in a PID namespace the parent is outside it: ppid 0).
  if (!p.pid_namespace && getppid() != p.parent_pid) _exit(1);
  for (int fd : p.parent_fds)
    if (fd >= 0) close(fd);

  ReportRecord setup;
  setup.kind = 'S';
  if (p.user_namespace) {
    char line[32];
    write_file("/proc/self/setgroups", "deny");
    id_map_line(line, p.outer_uid);
    bool ok = write_file("/proc/self/uid_map", line);
    id_map_line(line, p.outer_gid);
    ok = write_file("/proc/self/gid_map", line) && ok;
    if (!ok) send_stage(p.report_fd, 'W', Stage::UserNamespace, errno);
  }
  if (p.cgroup_procs_fd >= 0) {
    // "0" moves the writer itself; the candidate, started below, inherits the cgroup.
    if (write(p.cgroup_procs_fd, "0", 1) == 1) setup.flags |= kCgroup;
    else send_stage(p.report_fd, 'W', Stage::Cgroup, errno);
    close(p.cgroup_procs_fd);
  }
  if (p.pids_cgroup) {
    bool joined = p.pids_procs_fd >= 0 ? write(p.pids_procs_fd, "0", 1) == 1 : (setup.flags & kCgroup) != 0;
    if (p.pids_procs_fd >= 0) {
      if (!joined) send_stage(p.report_fd, 'W', Stage::Cgroup, errno);
      close(p.pids_procs_fd);
    }
    if (joined) setup.flags |= kPidsCgroup;
    // Not joined: the uid's limit after all, inherited by the candidate (root itself is exempt).
    else if (p.processes.rlim_cur && setrlimit(RLIMIT_NPROC, &p.processes) != 0)
      send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  }
  // Without a PID namespace the reaper finds leftover processes in the host's /proc, which the
  // whitelist root does not have: keep a descriptor of it.
  int proc_fd = p.pid_namespace ? -1 : open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (p.mount_namespace) {
    // Private propagation first, so nothing mounted here leaks back to the host.
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0) {
      if (p.new_root) {
        const int failed = build_whitelist_root(p);
        if (failed >= 0) {
          ReportRecord w;
          w.kind = 'W';
          w.stage = int(Stage::Whitelist);
          w.err = errno;
          w.step = failed;
          send(p.report_fd, w);
          _exit(1);  // the host retries without the whitelist and says why
        }
        setup.flags |= kWhitelist | kHiddenPathsCovered | kPrivateTmp;
        if (p.pid_namespace) setup.flags |= kProcMounted;
      } else {
        bool all = p.hidden_count > 0;
        for (int i = 0; i < p.hidden_count; ++i) {
          int r = p.hidden_is_dir[i]
                      ? mount("tmpfs", p.hidden[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0")
                      : mount("/dev/null", p.hidden[i], nullptr, MS_BIND, nullptr);
          all = all && r == 0;
        }
        if (all) setup.flags |= kHiddenPathsCovered;
        if (p.private_tmp && make_private_tmp(p.keep_dirs, p.keep_count)) setup.flags |= kPrivateTmp;
        if (p.pid_namespace && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0)
          setup.flags |= kProcMounted;
      }
    }
  }
  if (p.uts_namespace) sethostname("rubric", 6);
  if (p.net_namespace && bring_up_loopback()) setup.flags |= kLoopbackUp;
  if (!p.pid_namespace && prctl(PR_SET_CHILD_SUBREAPER, 1) == 0) setup.flags |= kSubreaper;

  const std::int64_t start = now_ns();
  // The candidate must not run before the supervisor has become rubric-run-init: until then /proc/1
  // is this clone of the grader, command line included. With an init to exec, the child is held on
  // a pipe whose write end closes at that exec, so it cannot be a vfork (which would hold the
  // supervisor instead). It shares the grader's memory on a stack of its own (CLONE_VM, as the
  // supervisor does): a fork would copy the page tables of the whole grader and write-protect its
  // memory, a cost that grows with the grader (108 ms a run at 2 GiB). Only rubric's own code runs
  // there; the exec gives the candidate its own memory.
  int gate[2] = {-1, -1};
  const bool gated = p.init_fd >= 0 && pipe2(gate, O_CLOEXEC) == 0;
  // vfork otherwise: the candidate only makes system calls until exec, and this is the cheapest start.
#if defined(RUBRIC_SUPERVISOR_FORK)
  pid_t child = fork();  // sanitizer builds: their vfork interception cannot run on this stack
#else
  CandidateStart go{&p, gate[0], gate[1]};
  pid_t child = !gated                   ? vfork()
                : p.candidate_stack_top ? clone(candidate_main, p.candidate_stack_top, CLONE_VM | SIGCHLD, &go)
                                         : fork();
#endif
  if (child < 0) {
    int err = errno;
    send(p.report_fd, setup);
    send_stage(p.report_fd, 'E', Stage::Fork, err);
    _exit(1);
  }
  if (child == 0) {  // fork or vfork (the CLONE_VM start runs candidate_main instead)
    if (gated) wait_at_gate(gate[0], gate[1]);
    run_candidate(p);
  }
  if (gated) close(gate[0]);
  if (p.init_fd >= 0) setup.flags |= kInitExec;
  // One record for setup and start: every message is a wakeup of the host, and they add up under load.
  setup.pid = child;
  send(p.report_fd, setup);

  if (p.init_fd >= 0) {
    // Become rubric-run-init: from here the candidate's init is a program of its own, holding
    // nothing of the grader's memory, command line or environment.
    char fd_text[24], child_text[24], start_text[24];
    decimal(fd_text, p.report_fd);
    decimal(child_text, child);
    decimal(start_text, start);
    char pidns_text[2] = {p.pid_namespace ? '1' : '0', '\0'};
    char proc_text[24];
    decimal(proc_text, proc_fd);
    char name[] = "rubric-run-init";
    char* const argv[] = {name, fd_text, child_text, start_text, pidns_text, proc_text, nullptr};
    char* const envp[] = {nullptr};
    fcntl(p.report_fd, F_SETFD, 0);  // the report pipe (and /proc) are the descriptors that cross
    if (proc_fd >= 0) fcntl(proc_fd, F_SETFD, 0);
    syscall(SYS_execveat, p.init_fd, "", argv, envp, AT_EMPTY_PATH);
    fcntl(p.report_fd, F_SETFD, FD_CLOEXEC);  // exec failed: report from here
  }
  if (gated) close(gate[1]);  // no init after all: release the candidate
  reap_and_report(p.report_fd, child, start, p.pid_namespace, proc_fd);
}

}  // namespace rubric::process::detail
