#include "grading/process_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

namespace rubric::grading {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  std::size_t index;
  pid_t pid;
  int fd;
  Clock::time_point started;
  std::string output;
  bool timed_out = false;
};

void write_all(int fd, const std::string& s) {
  const char* p = s.data();
  std::size_t left = s.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

[[noreturn]] void child_main(int fd, std::size_t index, const std::function<std::string(std::size_t)>& work,
                             pid_t parent) {
  ::setpgid(0, 0);
  // A batch killed outright (SIGKILL) takes its grading processes with it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(5);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGPIPE, SIG_DFL);
  const int null = ::open("/dev/null", O_RDONLY);
  if (null >= 0) {
    ::dup2(null, STDIN_FILENO);
    ::close(null);
  }
  std::string output;
  try {
    output = work(index);
  } catch (const std::exception& e) {
    write_all(STDERR_FILENO, fmt::format("rubric grade: {}\n", e.what()));
    ::_exit(4);
  } catch (...) {
    ::_exit(4);
  }
  write_all(fd, output);
  ::close(fd);
  // _exit: the parent's buffers, atexit handlers and destructors belong to the parent.
  ::_exit(0);
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return fmt::format("the grading process was killed by signal {} ({})", sig, ::strsignal(sig));
  }
  if (WIFEXITED(status)) return fmt::format("the grading process exited with status {}", WEXITSTATUS(status));
  return "the grading process ended abnormally";
}

void kill_group(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
}

}  // namespace

bool run_pieces(std::size_t count, const PoolSettings& settings, const std::function<std::string(std::size_t)>& work,
                const std::function<void(PieceOutcome&&)>& done) {
  const unsigned jobs = settings.jobs == 0 ? 1 : settings.jobs;
  std::vector<Running> running;
  std::size_t next = 0;
  bool stopped = false;
  std::vector<char> buffer(1 << 16);
  const pid_t parent = ::getpid();

  auto finish = [&](std::size_t slot) {
    Running r = std::move(running[slot]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(slot));
    ::close(r.fd);
    int status = 0;
    while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
    }
    // Programs the piece started may outlive it in its group; they are its to clean up, but a
    // crash leaves them behind, so the group goes too.
    ::kill(-r.pid, SIGKILL);
    PieceOutcome o;
    o.index = r.index;
    o.seconds = std::chrono::duration<double>(Clock::now() - r.started).count();
    if (r.timed_out) {
      o.failure = fmt::format("grading it ran past the time limit of {} s and was killed", settings.timeout_seconds);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      o.ok = true;
      o.output = std::move(r.output);
    } else {
      o.failure = describe_status(status);
    }
    done(std::move(o));
  };

  while (next < count || !running.empty()) {
    if (!stopped && settings.stop_requested && settings.stop_requested()) {
      stopped = true;
      for (Running& r : running) kill_group(r.pid);
      for (Running& r : running) {
        ::close(r.fd);
        while (::waitpid(r.pid, nullptr, 0) < 0 && errno == EINTR) {
        }
      }
      running.clear();
      break;
    }
    while (next < count && running.size() < jobs) {
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
      std::fflush(nullptr);  // nothing buffered in the parent is written twice
      const pid_t pid = ::fork();
      if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        if (running.empty()) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
        break;  // out of processes for now: wait for one to finish
      }
      if (pid == 0) {
        ::close(fds[0]);
        for (const Running& r : running) ::close(r.fd);
        child_main(fds[1], next, work, parent);
      }
      ::setpgid(pid, pid);  // also set by the child; whichever runs first wins the race
      ::close(fds[1]);
      running.push_back(Running{next, pid, fds[0], Clock::now(), {}, false});
      ++next;
    }

    std::vector<pollfd> polled;
    for (const Running& r : running) polled.push_back(pollfd{r.fd, POLLIN, 0});
    const int ready = ::poll(polled.data(), polled.size(), 100);
    if (ready < 0 && errno != EINTR) throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
    std::vector<std::size_t> ended;
    for (std::size_t i = 0; ready > 0 && i < polled.size(); ++i) {
      if (!(polled[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(running[i].fd, buffer.data(), buffer.size());
      if (n > 0) running[i].output.append(buffer.data(), static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR) ended.push_back(i);
    }
    if (settings.timeout_seconds > 0) {
      const auto now = Clock::now();
      for (std::size_t i = 0; i < running.size(); ++i) {
        if (running[i].timed_out) continue;
        if (std::chrono::duration<double>(now - running[i].started).count() > settings.timeout_seconds) {
          running[i].timed_out = true;
          kill_group(running[i].pid);
          ended.push_back(i);
        }
      }
    }
    std::sort(ended.begin(), ended.end());
    ended.erase(std::unique(ended.begin(), ended.end()), ended.end());
    for (auto it = ended.rbegin(); it != ended.rend(); ++it) finish(*it);
    if (settings.tick) settings.tick();
  }
  return !stopped;
}

}  // namespace rubric::grading
