#pragma once
// The CUDA backend's front door, what the language's gpu builtins bind to:
//   device_info()                 → the `device` record
//   cuda_fn(source, entry, sig)   → a compiled, type-checked module (or the compiler's complaint)
//   call(fn, args)                → outputs, poisoned first, device synchronised, errors checked
//   time(fn, args, options)       → cold samples with their method and an output re-check
//   compare(a, b, tolerance)      → CompareStats computed on the device
// Candidate code runs only in rubric-gpu-worker processes owned by the session (one per backend
// kind); tensors travel as raw files in the session's private scratch folder.
//
// Failures the candidate causes (compile errors, crashes, hangs, CUDA faults, outputs that do not
// reproduce) come back as values with ok == false and a reason; mistakes of the caller (wrong
// argument count or dtype, unreadable reference files) throw OperatorError.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "operators/error.hpp"
#include "operators/cuda/device_info.hpp"
#include "operators/cuda/module_compiler.hpp"
#include "operators/cuda/worker_client.hpp"
#include "operators/files/temp_owner.hpp"
#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/dtype.hpp"

namespace rubric::cuda {

// An input tensor: bytes in memory (data) or in a file (file, at file_offset), C order.
struct TensorArg {
  tensor::DType dtype = tensor::DType::f32;
  std::vector<std::int64_t> shape;
  const void* data = nullptr;   // borrowed; read during the call only
  std::string file;             // used when data is null
  std::uint64_t file_offset = 0;
};

// An output declared as out(dtype, shape): a fresh buffer, poisoned before the call.
struct OutputArg {
  tensor::DType dtype = tensor::DType::f32;
  std::vector<std::int64_t> shape;
};

// One argument per signature parameter except cudaStream_t (the backend supplies the stream).
// Integers go to int/int64_t parameters, numbers to float/double (an integral double is accepted
// for an integer parameter).
using CallArg = std::variant<TensorArg, OutputArg, std::int64_t, double>;

struct HostTensor {
  tensor::DType dtype = tensor::DType::f32;
  std::vector<std::int64_t> shape;
  std::vector<unsigned char> bytes;  // C order
};

struct CallOutcome {
  bool ok = false;
  std::string failure;               // "worker killed by SIGSEGV", "timed out after 10 s", "cudaErrorIllegalAddress: ..."
  bool grader_environment = false;   // the failure is the grading machine's (no device, no kernel image, ...)
  std::vector<HostTensor> outputs;   // one per OutputArg, in argument order
  double wall_seconds = 0;           // host time of the call including synchronisation
  std::string isolation;             // what confined the worker that ran it (WorkerClient::isolation())
  std::vector<std::string> libraries;  // shared libraries the module brought into the worker
};

struct LibrariesOutcome {
  bool ok = false;
  std::string failure;
  bool grader_environment = false;
  std::vector<std::string> libraries;  // file names ("libcublas.so.13"), sorted
};

struct TimingOptions {
  double warmup_s = 0.025;
  int min_samples = 10;
  double min_time_s = 0.5;
  double max_time_s = 15;
  double max_noise = 0.005;
  double min_clock_fraction = 0.75;
  bool fresh = false;                // new device-generated inputs before every sample, drawn unpredictably
  bool flush_l2 = true;
  // Run-to-run tolerance of the re-checks (timed outputs against the untimed call's); unset: by
  // dtype, wide enough for atomics-based reductions (docs/gpu.md). A rubric's own tolerance for
  // the outputs belongs here.
  std::optional<numerics::Tolerance> recheck_tolerance;
  double verify_fraction = 0.25;     // with fresh inputs: share of samples verified after the first 3
};

// How the samples were taken: the evidence a report shows next to them.
struct TimingMethod {
  bool l2_flushed = false;
  std::uint64_t flush_bytes = 0;
  bool device_synchronized = true;
  bool fresh_inputs = false;
  int warmup_calls = 0;
  int samples = 0;
  int dropped_low_clock = 0;
  int escaped_stream = 0;            // samples whose work escaped the events (never kept)
  int verified_samples = 0;          // timed samples whose outputs were checked
  double escape_slack_s = 0;         // host overhead a sample may show beyond its events
  bool stream_held = true;           // samples behind the blocking kernel (false: the launch synchronises)
  double first_call_s = 0;
  double sustained_clock_mhz = 0;    // the SM clock over the warm-up: the 75% rule's reference
  double clock_mhz = 0;              // median measured SM clock (0: not measurable, CPU stand-in)
  double nominal_clock_mhz = 0;
  double noise = 0;
  double elapsed_s = 0;
  std::string stop_reason;
  std::string backend;               // "cuda" or "cpu"
};

struct TimeOutcome {
  bool ok = false;                   // samples were taken and the re-check passed
  std::string failure;               // crash/hang/fault reason, or the re-check's finding
  bool grader_environment = false;   // the machine spoiled it (throttled device, no device, ...)
  std::vector<double> samples;       // seconds
  TimingMethod method;
  bool recheck_ok = false;
  std::string recheck;
  std::string isolation;             // what confined the worker that ran it
  std::vector<std::string> libraries;  // shared libraries the module brought into the worker
};

struct CompareOutcome {
  bool ok = false;
  std::string failure;
  bool grader_environment = false;
  numerics::CompareStats stats;
  double kernel_seconds = 0;
  std::uint64_t bytes = 0;           // bytes the kernel read
  std::string backend;
};

struct SessionOptions {
  std::string worker_executable;     // default: find_worker_executable()
  CompilerSettings compiler = CompilerSettings::defaults();
  double call_timeout_s = 10;        // per call/compare request (upload and download included)
  double time_overhead_s = 30;       // time requests get max_time_s plus this, plus 10 first calls
  double start_timeout_s = 120;      // a worker's context creation, module load and JIT
  std::size_t max_module_workers = 4;  // live workers with candidate modules (least recently used ends)
  std::string scratch_parent;        // default: $TMPDIR or /tmp
  // Host memory of each worker (a memory cgroup; docs/gpu.md, "The worker's sandbox").
  std::uint64_t worker_memory_bytes = 32ull << 30;
  // Device memory a request may use: the tensors `call`/`time` allocate are checked before they
  // are sent (OperatorError past it), and the CUDA worker refuses candidate allocations past it.
  // 0: no limit. Default: $RUBRIC_GPU_MEMORY_LIMIT (bytes, or "8GiB"), else 0.
  std::uint64_t gpu_memory_bytes = default_gpu_memory_limit();
  static std::uint64_t default_gpu_memory_limit();
};

class GpuSession {
 public:
  explicit GpuSession(SessionOptions options = {});
  ~GpuSession();
  GpuSession(const GpuSession&) = delete;
  GpuSession& operator=(const GpuSession&) = delete;

  // Cached after the first query.
  const DeviceInfo& device_info();

  // Parses the signature (OperatorError if malformed) and compiles (.cu with nvcc, .cpp with the
  // host compiler for the CPU stand-in).
  // The compiler runs in the run sandbox and sees a copy of `sandbox.source_root` (default: the
  // source's folder) and nothing of the reference or the original submission.
  CompileOutcome cuda_fn(const std::string& source_path, std::string_view entry, std::string_view signature,
                         std::string_view source_name = "", const CompileSandbox& sandbox = {});

  CallOutcome call(const CompiledModule& fn, const std::vector<CallArg>& args);
  TimeOutcome time(const CompiledModule& fn, const std::vector<CallArg>& args, const TimingOptions& options = {});
  // The shared libraries the module brought into its worker beyond the worker's own: those it
  // links, and those it opened in the calls made so far.
  LibrariesOutcome libraries(const CompiledModule& fn);
  // Shapes must be equal (OperatorError otherwise). Runs on the CUDA worker; `on_cpu` uses the
  // stand-in's host implementation of the same arithmetic. max_ulp is computed in ULP mode, or
  // with `ulp_stats` (otherwise 0: the ULP distance costs the device more than the rest).
  CompareOutcome compare(const TensorArg& a, const TensorArg& b, const numerics::Tolerance& tol, bool on_cpu = false,
                         bool ulp_stats = false);

  // Measured device-to-device copy bandwidth (bytes read + written per second, best of 3 copies of
  // `bytes`): the yardstick for "runs at memory bandwidth". Throws OperatorError on failure.
  double copy_bandwidth(std::uint64_t bytes, bool on_cpu = false);

  const std::string& scratch_dir() const { return scratch_; }
  // The worker that runs `fn` (one per module, so one candidate's device state, threads or broken
  // stream never reach another's or the reference's timing); started on first use.
  WorkerClient& worker(const CompiledModule& fn);
  // The worker for device queries and comparisons: it never loads candidate code.
  WorkerClient& worker(ModuleKind kind);

 private:
  // Starts the worker's backend (and loads `module`) under start_timeout_s when it is not running,
  // then sends the request. A worker that cannot be started is the grading machine's failure.
  // nullopt when running (started and the module loaded), else the failure.
  std::optional<WorkerReply> start(WorkerClient& w, const std::string& module, std::uint64_t gpu_memory);
  Message start_message(std::uint64_t gpu_memory) const;
  std::uint64_t gpu_memory_limit(const CompiledModule& fn) const;
  WorkerReply send(WorkerClient& w, const Message& m, double timeout_s, const ProgressHandler& on_progress = {});
  // A request to a worker: the worker, the message, where a call's outputs will be, and the
  // exchange files it made (removed when the request is destroyed).
  struct WorkerRequest {
    WorkerClient* worker = nullptr;
    Message message;
    std::vector<std::string> output_files, made;
    std::vector<OutputArg> outputs;
    WorkerRequest() = default;
    WorkerRequest(const WorkerRequest&) = delete;
    WorkerRequest& operator=(const WorkerRequest&) = delete;
    ~WorkerRequest();
  };
  // Starts fn's worker and puts args in its exchange folder: nullopt when `req` is ready, else the
  // failure (the grading machine's when the worker cannot start, the arguments' otherwise).
  std::optional<WorkerReply> prepare(const CompiledModule& fn, const std::vector<CallArg>& args, WorkerRequest& req);
  // Inputs are written into the worker's exchange folder `dir`; `made` lists every file to remove.
  Message encode_args(const CompiledModule& fn, const std::vector<CallArg>& args, const std::string& dir,
                      std::vector<std::string>& output_files, std::vector<OutputArg>& outputs,
                      std::vector<std::string>& made);
  std::string exchange_input(const TensorArg& t, const std::string& dir, std::string_view stem,
                             std::vector<std::string>& made);
  void check_device_memory(const CompiledModule& fn, const std::vector<CallArg>& args, bool timed) const;
  WorkerSandbox sandbox_for(ModuleKind kind, const std::string& module) const;
  // Reads a `time` reply strictly (MalformedReply) and holds its figures to the grader's clock.
  void read_time_reply(const WorkerReply& r, const TimingOptions& o, const CompiledModule& fn, TimeOutcome& out);
  // Whether the worker that never loads candidate code confirms a module worker's claim that the
  // grading machine failed; when it does not, `failure` is rewritten to say so.
  bool confirm_environment(ModuleKind kind, std::string& failure);
  // Whose word a module worker's claim that the machine failed is taken on: every claim is
  // checked by confirm_environment, or (for `time`) a non-fatal one, a device that throttled
  // during the samples, stays the machine's, marked as the worker's report.
  enum class Claims { confirmed, throttling_unconfirmable };
  // The reply's status (ok, failure, whose fault) into a call's, time's or libraries' outcome.
  template <class Outcome>
  void take_status(const WorkerReply& r, ModuleKind kind, Outcome& out, Claims claims = Claims::confirmed);

  SessionOptions options_;
  std::string scratch_;
  files::TempOwner owner_;  // of scratch_: a killed grader's folder is swept by the next
  std::uint64_t next_file_ = 0;
  std::unique_ptr<DeviceInfo> device_;
  std::map<ModuleKind, std::unique_ptr<WorkerClient>> workers_;
  struct ModuleWorker {
    std::unique_ptr<WorkerClient> client;
    std::uint64_t last_used = 0;
  };
  std::map<std::string, ModuleWorker> module_workers_;  // by module library path
  std::uint64_t use_counter_ = 0;
  std::set<pid_t> started_;  // workers whose backend is up (and module loaded)
  std::mutex target_mutex_;
  std::optional<CudaTarget> target_;
};

// Elements of a shape (OperatorError on negative extents or overflow).
std::uint64_t element_count(const std::vector<std::int64_t>& shape);

}  // namespace rubric::cuda
