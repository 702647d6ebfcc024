#pragma once
// A worker's stdout and stderr (the candidate's printf included), drained from a pipe into its
// log file by a thread of the grader's, up to a cap: a module that prints without end fills
// neither the disk nor the worker's pipe (it never blocks on a full one).
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

namespace rubric::cuda {

class WorkerLog {
 public:
  static constexpr std::uint64_t kDefaultCap = 8ull << 20;  // as `run` keeps of a program's output

  // Opens `path` for appending (no links followed) and the pipe; throws EnvironmentError.
  explicit WorkerLog(const std::string& path, std::uint64_t cap = kDefaultCap);
  ~WorkerLog();
  WorkerLog(const WorkerLog&) = delete;
  WorkerLog& operator=(const WorkerLog&) = delete;

  // The pipe's write end, for the worker's stdout and stderr; close it here once it is passed on.
  int write_end() const { return write_fd_; }
  void close_write_end();
  // Drains what is left (the writers are gone once the worker's sandbox is), notes what the cap
  // dropped, and stops. Waits at most `grace_s` for the pipe to close.
  void finish(double grace_s = 1.0);

 private:
  void drain();

  int log_fd_ = -1, read_fd_ = -1, write_fd_ = -1;
  std::uint64_t cap_, kept_ = 0, dropped_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace rubric::cuda
