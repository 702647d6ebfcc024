#include "cli/stop_cleanup.hpp"

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

#include "operators/files/temp_owner.hpp"

extern char** environ;

namespace rubric::cli {

namespace {

char g_exe[PATH_MAX];

extern "C" void on_stop(int sig) {
  char num[4] = {static_cast<char>('0' + sig / 10 % 10), static_cast<char>('0' + sig % 10), 0, 0};
  char verb[] = "__stopped";
  char* argv[] = {g_exe, verb, num, nullptr};
  ::execve(g_exe, argv, environ);
  ::_exit(128 + sig);  // could not re-execute: stop without cleaning (the next start-up sweeps)
}

// This process's children, from every thread's list (/proc/self/task/*/children).
std::vector<pid_t> children() {
  std::vector<pid_t> out;
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream in(std::string("/proc/self/task/") + e->d_name + "/children");
    for (pid_t p; in >> p;) out.push_back(p);
  }
  ::closedir(d);
  return out;
}

}  // namespace

void install_stop_cleanup() {
  ssize_t n = ::readlink("/proc/self/exe", g_exe, sizeof g_exe - 1);
  if (n <= 0) return;  // no way back in: the default action, and the next start-up sweeps
  g_exe[n] = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

int run_stopped(const std::string& sig_text) {
  const int sig = std::atoi(sig_text.c_str());
  // The children share the owner locks of the folders they work in: end them first.
  for (pid_t p : children()) ::kill(p, SIGKILL);
  for (pid_t p : children()) ::waitpid(p, nullptr, 0);
  // Grandchildren (a sandbox's processes) end as their parents do, a moment later.
  for (int i = 0; i < 20; ++i) {
    files::SweepReport r = files::sweep_stale_temp_dirs(files::owned_temp_bases());
    if (r.kept_live == 0 && r.unfinished == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (sig > 0 && sig < 65) {
    ::signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);  // the handler's mask survives the exec
    ::raise(sig);
  }
  return 128 + sig;
}

}  // namespace rubric::cli
