#pragma once
// The rubric side of the worker: starts rubric-gpu-worker inside the same sandbox as `run`'s
// candidates (operators/process/sandbox.hpp), sends one request at a time, and turns a crash, a
// hang or a fatal device error into a failure reason. A dead worker is reaped; the next request
// starts a fresh one, with a fresh exchange folder.
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "operators/cuda/protocol.hpp"
#include "operators/cuda/worker_log.hpp"
#include "operators/process/sandbox.hpp"

namespace rubric::cuda {

// $RUBRIC_GPU_WORKER, else rubric-gpu-worker next to the running executable, else the path of
// the worker built with this library.
std::string find_worker_executable();

struct WorkerReply {
  bool ok = false;        // the worker answered status=ok
  Message message;        // the answer (when the worker answered at all)
  std::string failure;    // why not ok: the worker's reason, or how the worker died
  bool worker_lost = false;  // the worker was killed or exited; the next request gets a fresh one
  // The worker blamed the machine (blame=environment), or the worker could not be started. A
  // worker that loaded candidate code may claim it falsely: GpuSession confirms it.
  bool grader_environment = false;
  bool forged = false;    // a message on the channel did not come from the worker's reply code
  double seconds = 0;     // the request's wall time by the grader's clock, sent to answered
};

// What the worker's sandbox holds besides the system directories (docs/gpu.md, "The worker's
// sandbox"). The exchange folder is made fresh at every start, under `exchange_parent`.
struct WorkerSandbox {
  std::string exchange_parent;             // a folder of the grader's; each start makes <parent>/io-N here
  std::vector<std::string> read_only;      // the module (the file itself), toolkit libraries, ...
  bool gpu_devices = false;                // add /dev/nvidia* and /dev/nvidia-caps/* (those that exist)
  std::uint64_t memory_bytes = 32ull << 30;  // host memory of the whole worker (cgroup; see worker_client.cpp)
};

// Called with the request's one interim `status=progress` message and the seconds the grader's
// clock saw pass since the request was sent; returns the seconds the rest of the request may take
// from now (the new deadline).
using ProgressHandler = std::function<double(const Message&, double elapsed_s)>;

class WorkerClient {
 public:
  // backend: "cuda" or "cpu". log_path receives the worker's stdout/stderr (the candidate's too);
  // it lives outside anything the worker can write.
  WorkerClient(std::string executable, std::string backend, std::string log_path, WorkerSandbox sandbox = {});
  ~WorkerClient();
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;

  // `timeout_s` until the reply, or until the progress message when `on_progress` is given. Each
  // request carries a fresh nonce that every message answering it must start with: a message
  // without it, a second progress message, or a malformed one ends the worker (reply.forged, or
  // "malformed"), the candidate's failure.
  WorkerReply request(const Message& m, double timeout_s, const ProgressHandler& on_progress = {});
  // Starts the worker when it is not running (OperatorError when it cannot be started).
  void ensure_running();
  const std::string& backend() const { return backend_; }  // "cuda" or "cpu"
  bool running() const { return process_ && process_->running(); }
  pid_t pid() const { return process_ ? process_->pid() : 0; }  // the sandbox's init; 0 when not running
  // The folder the worker reads its inputs from and writes its outputs to: the only place of the
  // machine it can write that the grader reads. Fresh at each start; "" when not running.
  const std::string& exchange_dir() const { return exchange_; }
  // What isolation the last start got ("process group, rlimits, pid namespace, ..."), and what
  // bounded the worker's host memory.
  std::string isolation() const;
  // The worker is alone in a PID namespace of its own (it may then end every other process in it).
  bool own_pid_namespace() const { return process_ && process_->isolation().pid_namespace; }
  // Ends the worker (politely, then SIGKILL to its sandbox).
  void stop();

 private:
  void start();
  std::string reap(bool kill_first);  // how the worker ended

  std::string executable_, backend_, log_path_;
  WorkerSandbox sandbox_;
  std::optional<process::SandboxedProcess> process_;
  std::string exchange_;
  int fd_ = -1;
  std::unique_ptr<MessageReader> reader_;
  std::unique_ptr<WorkerLog> log_;  // the running worker's stdout and stderr, capped
};

// "SIGSEGV", "SIGKILL", ... (or "signal N").
std::string signal_name(int sig);

// The GPU device nodes present on this machine (/dev/nvidiactl, /dev/nvidia0, /dev/nvidia-uvm,
// /dev/nvidia-caps/..., ...): what a CUDA worker's sandbox adds.
std::vector<std::string> gpu_device_nodes();

}  // namespace rubric::cuda
