#pragma once
// The rubric side of the worker: starts rubric-gpu-worker in its own process group, sends one
// request at a time, and turns a crash, a hang or a fatal device error into a failure reason.
// A dead worker is reaped; the next request starts a fresh one.
#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>

#include "operators/cuda/protocol.hpp"

namespace rubric::cuda {

// $RUBRIC_GPU_WORKER, else rubric-gpu-worker next to the running executable, else the path of
// the worker built with this library.
std::string find_worker_executable();

struct WorkerReply {
  bool ok = false;        // the worker answered status=ok
  Message message;        // the answer (when the worker answered at all)
  std::string failure;    // why not ok: the worker's reason, or how the worker died
  bool worker_lost = false;  // the worker was killed or exited; the next request gets a fresh one
  bool grader_environment = false;  // the worker blamed the machine (blame=environment)
};

// Called with each interim `status=progress` message; returns the seconds the rest of the
// request may take from now (the new deadline).
using ProgressHandler = std::function<double(const Message&)>;

class WorkerClient {
 public:
  // backend: "cuda" or "cpu". log_path receives the worker's stdout/stderr (the candidate's too).
  WorkerClient(std::string executable, std::string backend, std::string log_path);
  ~WorkerClient();
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;

  // `timeout_s` until the reply, or until the first progress message when `on_progress` is given.
  WorkerReply request(const Message& m, double timeout_s, const ProgressHandler& on_progress = {});
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // Ends the worker (politely, then SIGKILL to its process group).
  void stop();

 private:
  void start();
  std::string reap(bool kill_first);  // how the worker ended

  std::string executable_, backend_, log_path_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::unique_ptr<MessageReader> reader_;
};

// "SIGSEGV", "SIGKILL", ... (or "signal N").
std::string signal_name(int sig);

}  // namespace rubric::cuda
