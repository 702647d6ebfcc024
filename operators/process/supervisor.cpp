#include "operators/process/supervisor.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <net/if.h>
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
    default: return "set up";
  }
}

namespace {

std::int64_t now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void send(int fd, const ReportRecord& r) {
  ssize_t n;
  do { n = write(fd, &r, sizeof r); } while (n < 0 && errno == EINTR);
}

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

// Parent pid from /proc/<pid>/stat: the field after the command, which is wrapped in parentheses
// and may itself contain ") ".
int parent_of(const char* pid_name) {
  char path[64] = "/proc/";
  std::size_t len = 6;
  for (const char* c = pid_name; *c && len < 40; ++c) path[len++] = *c;
  memcpy(path + len, "/stat", 6);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[512];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char* close_paren = strrchr(buf, ')');
  if (!close_paren || close_paren[1] == '\0') return -1;
  const char* p = close_paren + 2;  // state letter
  while (*p && *p != ' ') ++p;
  int ppid = 0;
  while (*p == ' ') ++p;
  while (*p >= '0' && *p <= '9') ppid = ppid * 10 + (*p++ - '0');
  return ppid;
}

// Without a PID namespace: SIGKILL every process reparented to this subreaper until none is left.
void kill_every_descendant(int candidate_pgid) {
  const int self = getpid();
  for (int round = 0; round < 100000; ++round) {
    kill(-candidate_pgid, SIGKILL);
    int reaped;
    while ((reaped = waitpid(-1, nullptr, WNOHANG)) > 0) {}
    if (reaped < 0 && errno == ECHILD) return;  // the common case: nothing left, no /proc scan
    int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      alignas(8) char buf[8192];
      long n;
      while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n;) {
          auto* d = reinterpret_cast<struct dirent64*>(buf + off);
          off += d->d_reclen;
          if (d->d_name[0] < '1' || d->d_name[0] > '9') continue;
          if (parent_of(d->d_name) == self) {
            int pid = 0;
            for (const char* c = d->d_name; *c; ++c) pid = pid * 10 + (*c - '0');
            kill(pid, SIGKILL);
          }
        }
      }
      close(dir);
    }
    int r;
    while ((r = waitpid(-1, nullptr, WNOHANG)) > 0) {}
    if (r < 0 && errno == ECHILD) return;
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, nullptr);
  }
}

// mkdir -p for an absolute path, without allocating.
bool make_dirs(const char* path) {
  char buf[4096];
  std::size_t len = strlen(path);
  if (len >= sizeof buf) return false;
  memcpy(buf, path, len + 1);
  for (std::size_t i = 1; i <= len; ++i) {
    if (buf[i] != '/' && buf[i] != '\0') continue;
    char saved = buf[i];
    buf[i] = '\0';
    if (mkdir(buf, 0711) != 0 && errno != EEXIST) return false;
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

[[noreturn]] void run_candidate(const SupervisorPlan& p) {
  setpgid(0, 0);
  const struct rlimit no_core{0, 0};  // a crashing candidate must not fill the scratch dir with cores
  setrlimit(RLIMIT_CORE, &no_core);
  if (p.cpu.rlim_cur && setrlimit(RLIMIT_CPU, &p.cpu) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  if (p.address_space.rlim_cur && setrlimit(RLIMIT_AS, &p.address_space) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  if (p.file_size.rlim_cur && setrlimit(RLIMIT_FSIZE, &p.file_size) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);
  if (p.processes.rlim_cur && setrlimit(RLIMIT_NPROC, &p.processes) != 0) send_stage(p.report_fd, 'W', Stage::Rlimit, errno);

  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(p.stdout_fd, 1) < 0 || dup2(p.stderr_fd, 2) < 0) {
    send_stage(p.report_fd, 'E', Stage::Stdio, errno);
    _exit(127);
  }
  // Every other descriptor inherited from the host closes at exec (the report pipe already does).
  syscall(SYS_close_range, 3u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */);

  // Default dispositions (exec keeps ignored signals ignored), then unblock: the supervisor ran
  // with every signal blocked.
  for (int sig = 1; sig < NSIG; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);

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
  execve(p.exe, p.argv, p.envp);
  send_stage(p.report_fd, 'E', Stage::Exec, errno);
  _exit(127);
}

}  // namespace

int supervisor_main(void* arg) {
  const SupervisorPlan& p = *static_cast<const SupervisorPlan*>(arg);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
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
  if (p.mount_namespace) {
    // Private propagation first, so nothing mounted here leaks back to the host.
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0) {
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
  if (p.net_namespace && bring_up_loopback()) setup.flags |= kLoopbackUp;
  if (!p.pid_namespace && prctl(PR_SET_CHILD_SUBREAPER, 1) == 0) setup.flags |= kSubreaper;

  const std::int64_t start = now_ns();
  // vfork: the candidate only makes system calls until exec, and this is the cheapest start.
#if defined(RUBRIC_SUPERVISOR_FORK)
  pid_t child = fork();  // sanitizer builds: their vfork interception cannot run on this stack
#else
  pid_t child = vfork();
#endif
  if (child < 0) {
    int err = errno;
    send(p.report_fd, setup);
    send_stage(p.report_fd, 'E', Stage::Fork, err);
    _exit(1);
  }
  if (child == 0) run_candidate(p);
  // One record for setup and start: every message is a wakeup of the host, and they add up under load.
  setup.pid = child;
  send(p.report_fd, setup);

  ReportRecord done;
  done.kind = 'X';
  done.pid = child;
  for (;;) {
    int status = 0;
    struct rusage ru;
    pid_t r = wait4(-1, &status, 0, &ru);
    if (r == child) {
      done.wall_ns = now_ns() - start;
      done.wait_status = status;
      done.user_us = std::int64_t(ru.ru_utime.tv_sec) * 1000000 + ru.ru_utime.tv_usec;
      done.system_us = std::int64_t(ru.ru_stime.tv_sec) * 1000000 + ru.ru_stime.tv_usec;
      break;
    }
    if (r < 0 && errno != EINTR) break;
  }
  // Nothing the candidate started may outlive it. As PID-namespace init, exiting kills them all.
  if (!p.pid_namespace) kill_every_descendant(child);
  send(p.report_fd, done);
  _exit(0);
}

}  // namespace rubric::process::detail
