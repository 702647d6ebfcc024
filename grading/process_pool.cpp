#include "grading/process_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
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

// A worker's answer for one piece: this header, then `length` bytes (the output, or why it failed).
struct FrameHeader {
  std::uint64_t index;
  std::uint64_t length;
  std::uint8_t threw;  // 1: the piece threw; the payload is the exception's message
};
constexpr std::size_t kHeaderBytes = 17;

struct Worker {
  pid_t pid = -1;
  int to_worker = -1;    // piece indices, 8 bytes each; closed when the worker is to finish
  int from_worker = -1;  // frames
  unsigned slot = 0;
  std::size_t served = 0;               // pieces handed to it
  std::optional<std::size_t> piece;     // the piece it is grading
  Clock::time_point piece_started;
  bool timed_out = false;
  std::string inbox;                    // bytes read and not yet a whole frame
};

void write_all(int fd, const char* p, std::size_t left) {
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);  // the parent is gone
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// Reads exactly 8 bytes; false at end of input (no more pieces).
bool read_index(int fd, std::uint64_t& index) {
  char* p = reinterpret_cast<char*>(&index);
  std::size_t got = 0;
  while (got < sizeof index) {
    const ssize_t n = ::read(fd, p + got, sizeof index - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

void send_frame(int fd, std::uint64_t index, bool threw, const std::string& payload) {
  char header[kHeaderBytes];
  const std::uint64_t length = payload.size();
  std::memcpy(header, &index, 8);
  std::memcpy(header + 8, &length, 8);
  header[16] = threw ? 1 : 0;
  write_all(fd, header, kHeaderBytes);
  write_all(fd, payload.data(), payload.size());
}

[[noreturn]] void worker_main(int from_parent, int to_parent, unsigned slot, const PoolSettings& settings,
                              const std::function<std::string(std::size_t)>& work, pid_t parent) {
  ::setpgid(0, 0);
  // A batch killed outright (SIGKILL) takes its workers with it.
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
  if (settings.worker_started) settings.worker_started(slot);
  std::uint64_t index = 0;
  while (read_index(from_parent, index)) {
    std::string output;
    bool threw = false;
    try {
      output = work(static_cast<std::size_t>(index));
    } catch (const std::exception& e) {
      threw = true;
      output = e.what();
    } catch (...) {
      threw = true;
      output = "an unknown exception";
    }
    send_frame(to_parent, index, threw, output);
  }
  if (settings.worker_ending) settings.worker_ending();
  ::close(to_parent);
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

// A worker that died leaves its input pipe without a reader: writing to it must fail with EPIPE,
// not end the batch, so SIGPIPE is ignored while the pool runs.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() {
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGPIPE, &sa, &old_);
  }
  ~IgnoreSigpipe() { ::sigaction(SIGPIPE, &old_, nullptr); }

 private:
  struct sigaction old_ {};
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

bool run_pieces(std::size_t count, const PoolSettings& settings, const std::function<std::string(std::size_t)>& work,
                const std::function<void(PieceOutcome&&)>& done) {
  const unsigned jobs = settings.jobs == 0 ? 1 : settings.jobs;
  const std::size_t per_worker = settings.pieces_per_worker == 0 ? 1 : settings.pieces_per_worker;
  std::vector<Worker> workers;  // live ones, retiring ones included
  std::vector<bool> slot_busy(jobs, false);
  std::size_t next = 0;
  std::vector<char> buffer(1 << 16);
  const pid_t parent = ::getpid();
  const IgnoreSigpipe no_sigpipe;

  auto spawn = [&](unsigned slot) -> bool {
    int down[2], up[2];
    if (::pipe2(down, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
    if (::pipe2(up, O_CLOEXEC) != 0) {
      ::close(down[0]);
      ::close(down[1]);
      throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
    }
    std::fflush(nullptr);  // nothing buffered in the parent is written twice
    const pid_t pid = ::fork();
    if (pid < 0) {
      for (int fd : {down[0], down[1], up[0], up[1]}) ::close(fd);
      if (workers.empty()) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
      return false;  // out of processes for now: wait for a worker to end
    }
    if (pid == 0) {
      ::close(down[1]);
      ::close(up[0]);
      // Another worker's pipes held open here would keep it from seeing its end of input.
      for (const Worker& w : workers) {
        if (w.to_worker >= 0) ::close(w.to_worker);
        ::close(w.from_worker);
      }
      worker_main(down[0], up[1], slot, settings, work, parent);
    }
    ::setpgid(pid, pid);  // also set by the worker; whichever runs first wins the race
    ::close(down[0]);
    ::close(up[1]);
    Worker w;
    w.pid = pid;
    w.to_worker = down[1];
    w.from_worker = up[0];
    w.slot = slot;
    workers.push_back(std::move(w));
    slot_busy[slot] = true;
    return true;
  };

  // Hands the worker its next piece, or tells it to finish (its quota is met, or nothing is left).
  auto feed = [&](Worker& w) {
    if (w.to_worker < 0 || w.piece) return;
    if (next < count && w.served < per_worker) {
      const std::uint64_t index = next;
      const ssize_t n = ::write(w.to_worker, &index, sizeof index);  // 8 bytes into an empty pipe: never partial
      if (n == static_cast<ssize_t>(sizeof index)) {
        w.piece = next++;
        w.piece_started = Clock::now();
        ++w.served;
        return;
      }
      // The worker is gone; its end of output says how.
    }
    close_fd(w.to_worker);
    slot_busy[w.slot] = false;  // a replacement may start while this one winds down
  };

  auto outcome_for = [&](Worker& w, const FrameHeader& h, std::string&& payload) {
    PieceOutcome o;
    o.index = static_cast<std::size_t>(h.index);
    o.seconds = std::chrono::duration<double>(Clock::now() - w.piece_started).count();
    if (h.threw) {
      o.failure = fmt::format("grading it failed: {}", payload);
    } else {
      o.ok = true;
      o.output = std::move(payload);
    }
    w.piece.reset();
    done(std::move(o));
  };

  // Whole frames in the worker's inbox become outcomes.
  auto drain = [&](Worker& w) {
    std::size_t at = 0;
    while (w.inbox.size() - at >= kHeaderBytes) {
      FrameHeader h{};
      std::memcpy(&h.index, w.inbox.data() + at, 8);
      std::memcpy(&h.length, w.inbox.data() + at + 8, 8);
      h.threw = static_cast<std::uint8_t>(w.inbox[at + 16]);
      if (w.inbox.size() - at - kHeaderBytes < h.length) break;
      std::string payload = w.inbox.substr(at + kHeaderBytes, h.length);
      at += kHeaderBytes + h.length;
      if (w.piece && *w.piece == h.index) outcome_for(w, h, std::move(payload));
    }
    w.inbox.erase(0, at);
  };

  // The worker's output ended: reap it; a piece it still held failed with it.
  auto reap = [&](std::size_t i) {
    Worker w = std::move(workers[i]);
    workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(i));
    close_fd(w.to_worker);
    close_fd(w.from_worker);
    int status = 0;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    // Programs a piece started may outlive it in the worker's group; a crash leaves them behind.
    ::kill(-w.pid, SIGKILL);
    slot_busy[w.slot] = std::any_of(workers.begin(), workers.end(),
                                    [&](const Worker& o) { return o.slot == w.slot && o.to_worker >= 0; });
    if (w.piece) {
      PieceOutcome o;
      o.index = *w.piece;
      o.seconds = std::chrono::duration<double>(Clock::now() - w.piece_started).count();
      o.failure = w.timed_out
                      ? fmt::format("grading it ran past the time limit of {} s and was killed", settings.timeout_seconds)
                      : describe_status(status);
      done(std::move(o));
    }
  };

  bool stopped = false;
  while (next < count || !workers.empty()) {
    if (settings.stop_requested && settings.stop_requested()) {
      stopped = true;
      for (Worker& w : workers) kill_group(w.pid);
      for (Worker& w : workers) {
        close_fd(w.to_worker);
        close_fd(w.from_worker);
        while (::waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
        }
      }
      workers.clear();
      break;
    }
    for (unsigned slot = 0; slot < jobs && next < count; ++slot)
      if (!slot_busy[slot] && !spawn(slot)) break;
    for (Worker& w : workers) feed(w);

    std::vector<pollfd> polled;
    polled.reserve(workers.size());
    for (const Worker& w : workers) polled.push_back(pollfd{w.from_worker, POLLIN, 0});
    const int ready = ::poll(polled.data(), polled.size(), 100);
    if (ready < 0 && errno != EINTR) throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
    std::vector<std::size_t> ended;
    for (std::size_t i = 0; ready > 0 && i < polled.size(); ++i) {
      if (!(polled[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Worker& w = workers[i];
      const ssize_t n = ::read(w.from_worker, buffer.data(), buffer.size());
      if (n > 0) {
        w.inbox.append(buffer.data(), static_cast<std::size_t>(n));
        drain(w);
        feed(w);
      } else if (n == 0 || errno != EINTR) {
        ended.push_back(i);
      }
    }
    if (settings.timeout_seconds > 0) {
      const auto now = Clock::now();
      for (std::size_t i = 0; i < workers.size(); ++i) {
        Worker& w = workers[i];
        if (!w.piece || w.timed_out) continue;
        if (std::chrono::duration<double>(now - w.piece_started).count() > settings.timeout_seconds) {
          w.timed_out = true;
          kill_group(w.pid);
          ended.push_back(i);
        }
      }
    }
    std::sort(ended.begin(), ended.end());
    ended.erase(std::unique(ended.begin(), ended.end()), ended.end());
    for (auto it = ended.rbegin(); it != ended.rend(); ++it) reap(*it);
    if (settings.tick) settings.tick();
  }
  return !stopped;
}

}  // namespace rubric::grading
