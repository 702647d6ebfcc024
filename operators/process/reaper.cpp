#include "operators/process/reaper.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rubric::process::detail {

std::int64_t now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void send(int fd, const ReportRecord& r) {
  ssize_t n;
  do { n = write(fd, &r, sizeof r); } while (n < 0 && errno == EINTR);
}

namespace {

// Parent pid from /proc/<pid>/stat: the field after the command, which is wrapped in parentheses
// and may itself contain ") ".
int parent_of(int proc_fd, const char* pid_name) {
  char path[64];
  std::size_t len = 0;
  for (const char* c = pid_name; *c && len < 40; ++c) path[len++] = *c;
  memcpy(path + len, "/stat", 6);
  int fd = openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
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
void kill_every_descendant(int candidate_pgid, int proc_fd) {
  const int self = getpid();
  for (int round = 0; round < 100000; ++round) {
    kill(-candidate_pgid, SIGKILL);
    int reaped;
    while ((reaped = waitpid(-1, nullptr, WNOHANG)) > 0) {}
    if (reaped < 0 && errno == ECHILD) return;  // the common case: nothing left, no /proc scan
    int dir = openat(proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      alignas(8) char buf[8192];
      long n;
      while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n;) {
          auto* d = reinterpret_cast<struct dirent64*>(buf + off);
          off += d->d_reclen;
          if (d->d_name[0] < '1' || d->d_name[0] > '9') continue;
          if (parent_of(proc_fd, d->d_name) == self) {
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

}  // namespace

[[noreturn]] void reap_and_report(int report_fd, int child, std::int64_t start_ns, bool pid_namespace, int proc_fd) {
  ReportRecord done;
  done.kind = 'X';
  done.pid = child;
  for (;;) {
    int status = 0;
    struct rusage ru;
    pid_t r = wait4(-1, &status, 0, &ru);
    if (r == child) {
      done.wall_ns = now_ns() - start_ns;
      done.wait_status = status;
      done.user_us = std::int64_t(ru.ru_utime.tv_sec) * 1000000 + ru.ru_utime.tv_usec;
      done.system_us = std::int64_t(ru.ru_stime.tv_sec) * 1000000 + ru.ru_stime.tv_usec;
      done.max_rss_kb = ru.ru_maxrss;
      break;
    }
    if (r < 0 && errno != EINTR) break;
  }
  // Nothing the candidate started may outlive it. As PID-namespace init, exiting kills them all.
  if (!pid_namespace) {
    if (proc_fd < 0) proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    kill_every_descendant(child, proc_fd);
  }
  send(report_fd, done);
  _exit(0);
}

}  // namespace rubric::process::detail
