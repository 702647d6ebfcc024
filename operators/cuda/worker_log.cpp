#include "operators/cuda/worker_log.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "operators/error.hpp"
#include "operators/files/safe_open.hpp"

namespace rubric::cuda {

namespace {

void write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // a full disk loses log lines, never the grading
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace

WorkerLog::WorkerLog(const std::string& path, std::uint64_t cap) : cap_(cap) {
  // The log sits in the grader's own folder, never in one the worker can write (no planted links).
  log_fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
  int p[2];
  if (log_fd_ < 0 || ::pipe2(p, O_CLOEXEC) != 0) {
    std::string why = std::strerror(errno);
    if (log_fd_ >= 0) ::close(log_fd_);
    throw EnvironmentError(fmt::format("cannot open the GPU worker's log {}: {}", path, why));
  }
  read_fd_ = p[0];
  write_fd_ = p[1];
  thread_ = std::thread([this] { drain(); });
}

WorkerLog::~WorkerLog() {
  finish(0);
  if (log_fd_ >= 0) ::close(log_fd_);
}

void WorkerLog::close_write_end() {
  if (write_fd_ >= 0) ::close(write_fd_);
  write_fd_ = -1;
}

void WorkerLog::finish(double grace_s) {
  close_write_end();
  if (!thread_.joinable()) return;
  // The drain ends by itself at end of file; past the grace, whatever still holds the pipe is not
  // waited for.
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace_s);
  while (!stop_.load() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  stop_ = true;
  thread_.join();
  ::close(read_fd_);
  read_fd_ = -1;
}

void WorkerLog::drain() {
  char chunk[65536];
  while (!stop_.load()) {
    pollfd p{read_fd_, POLLIN, 0};
    int r = ::poll(&p, 1, 50);
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    ssize_t n = ::read(read_fd_, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;  // every writer is gone
    std::uint64_t keep = std::min<std::uint64_t>(static_cast<std::uint64_t>(n), cap_ - kept_);
    if (keep) write_all(log_fd_, chunk, keep);
    kept_ += keep;
    dropped_ += static_cast<std::uint64_t>(n) - keep;
  }
  if (dropped_) {
    std::string note = fmt::format("\n[rubric: the worker wrote {} more bytes; this log keeps the first {}]\n", dropped_,
                                   files::size_text(cap_));
    write_all(log_fd_, note.data(), note.size());
  }
  stop_ = true;
}

}  // namespace rubric::cuda
