#include "operators/cuda/gpu_session.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "operators/cuda/dtype_info.hpp"
#include "operators/cuda/exchange_files.hpp"
#include "operators/cuda/worker_reply.hpp"
#include "operators/error.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/files/temp_owner.hpp"
#include "operators/tensor/wide_integer_text.hpp"

namespace fs = std::filesystem;

namespace rubric::cuda {

namespace {

std::string num(double v) { return fmt::format("{:.17g}", v); }

std::string shape_text(const std::vector<std::int64_t>& s) { return "[" + join_shape(s) + "]"; }

double double_field(const Message& m, const char* key) {
  try {
    return std::stod(m.get_or(key, "0"));
  } catch (...) {
    return 0;
  }
}

// The worker itself said the machine failed (blame=environment), as opposed to the client finding
// the worker could not start: only the first may come from candidate code.
bool worker_claims_environment(const WorkerReply& r) { return r.grader_environment && r.message.get("blame"); }

// A reply that cannot be read strictly (MalformedReply) came from the worker running the
// candidate's code: that worker is stopped, and the request is the candidate's failure.
template <class Outcome>
Outcome& malformed_reply(WorkerClient& w, const MalformedReply& e, Outcome& out) {
  w.stop();
  out.ok = false;
  out.failure = "malformed reply from the worker running the candidate's code: " + e.reason;
  return out;
}

// A failure before the request was sent (the worker could not start, the arguments could not be
// put in its folder), as the outcome of a request.
template <class Outcome>
Outcome& failed_before_sending(Outcome& out, const WorkerReply& failed) {
  out.failure = failed.failure;
  out.grader_environment = failed.grader_environment;
  return out;
}

// Every directory from / down to `dir` lets others search it.
bool others_can_traverse(const std::string& dir) {
  for (fs::path at = fs::absolute(dir); !at.empty(); at = at.parent_path()) {
    struct stat st;
    if (::stat(at.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || !(st.st_mode & S_IXOTH)) return false;
    if (at == at.root_path()) break;
  }
  return true;
}

}  // namespace

std::uint64_t element_count(const std::vector<std::int64_t>& shape) {
  std::uint64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw OperatorError(fmt::format("shape {} has a negative extent", shape_text(shape)));
    if (d != 0 && n > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(d))
      throw OperatorError(fmt::format("shape {} is too large", shape_text(shape)));
    n *= static_cast<std::uint64_t>(d);
  }
  return n;
}

std::uint64_t SessionOptions::default_gpu_memory_limit() {
  const char* env = std::getenv("RUBRIC_GPU_MEMORY_LIMIT");
  if (!env || !*env) return 0;
  char* end = nullptr;
  double v = std::strtod(env, &end);
  std::string unit = end ? end : "";
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  double scale = 0;
  for (auto [name, factor] : {std::pair<const char*, double>{"", 1}, {"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0},
                              {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
                              {"TB", 1e12}})
    if (unit == name) scale = factor;
  if (!(v > 0) || scale == 0)
    throw EnvironmentError(fmt::format("RUBRIC_GPU_MEMORY_LIMIT='{}' is not a size (bytes, or e.g. 8GiB)", env));
  return static_cast<std::uint64_t>(v * scale);
}

GpuSession::GpuSession(SessionOptions options) : options_(std::move(options)) {
  if (options_.worker_executable.empty()) options_.worker_executable = find_worker_executable();
  std::string parent = options_.scratch_parent;
  if (parent.empty()) {
    parent = files::temp_base();
    // The workers run as another uid when rubric is root: where the sandbox has no private root
    // (the whitelist refused) they must reach their exchange folders through this path.
    if (::geteuid() == 0 && !others_can_traverse(parent)) parent = "/tmp";
  }
  std::string templ = parent + "/rubric-gpu-XXXXXX";
  if (!::mkdtemp(templ.data())) throw EnvironmentError(fmt::format("cannot create a scratch folder in {}", parent));
  scratch_ = templ;
  std::string why;
  owner_ = files::TempOwner::claim(scratch_, &why);
  if (!owner_.held()) {
    ::rmdir(scratch_.c_str());
    throw EnvironmentError(fmt::format("cannot claim a scratch folder in {}: {}", parent, why));
  }
  ::chmod(scratch_.c_str(), 0711);  // workers may pass through to their io-N folder, never list it
}

GpuSession::~GpuSession() {
  module_workers_.clear();
  workers_.clear();
  owner_.remove(scratch_);
}

WorkerClient& GpuSession::worker(ModuleKind kind) {
  auto& w = workers_[kind];
  if (!w) {
    const char* backend = kind == ModuleKind::cuda ? "cuda" : "cpu";
    w = std::make_unique<WorkerClient>(options_.worker_executable, backend,
                                       (fs::path(scratch_) / fmt::format("worker-{}.log", backend)).string(),
                                       sandbox_for(kind, ""));
  }
  return *w;
}

WorkerClient& GpuSession::worker(const CompiledModule& fn) {
  auto it = module_workers_.find(fn.library_path);
  if (it == module_workers_.end()) {
    // Bounded: every CUDA worker holds a context (hundreds of MiB of device memory).
    while (options_.max_module_workers > 0 && module_workers_.size() >= options_.max_module_workers) {
      auto oldest = std::min_element(module_workers_.begin(), module_workers_.end(), [](const auto& a, const auto& b) {
        return a.second.last_used < b.second.last_used;
      });
      module_workers_.erase(oldest);
    }
    const char* backend = fn.kind == ModuleKind::cuda ? "cuda" : "cpu";
    ModuleWorker w;
    w.client = std::make_unique<WorkerClient>(
        options_.worker_executable, backend,
        (fs::path(scratch_) / fmt::format("worker-{}-{}.log", backend, fn.cache_key.substr(0, 12))).string(),
        sandbox_for(fn.kind, fn.library_path));
    it = module_workers_.emplace(fn.library_path, std::move(w)).first;
  }
  it->second.last_used = ++use_counter_;
  return *it->second.client;
}

std::string GpuSession::exchange_input(const TensorArg& t, const std::string& dir, std::string_view stem,
                                       std::vector<std::string>& made) {
  const std::size_t bytes = element_count(t.shape) * element_bytes(t.dtype);
  std::string file = exchange_name(dir, stem);
  made.push_back(file);
  // The worker sees only its exchange folder: a tensor in a file of the grader's crosses as a copy
  // of just its bytes (reflinked where the filesystem can).
  if (t.data) write_exchange_file(file, t.data, bytes);
  else copy_into_exchange(file, t.file, t.file_offset, bytes);
  return file;
}

std::uint64_t GpuSession::gpu_memory_limit(const CompiledModule& fn) const {
  return fn.gpu_memory_bytes ? fn.gpu_memory_bytes : options_.gpu_memory_bytes;
}

void GpuSession::check_device_memory(const CompiledModule& fn, const std::vector<CallArg>& args, bool timed) const {
  const std::uint64_t limit = gpu_memory_limit(fn);
  if (limit == 0) return;
  // What the worker allocates for the request: every tensor against its guard page, and for
  // `time` a pristine copy of each input (restored before every sample).
  const std::uint64_t page = 4096;
  std::uint64_t need = 0;
  for (const CallArg& a : args) {
    std::uint64_t bytes = 0;
    bool input = false;
    if (auto* t = std::get_if<TensorArg>(&a)) bytes = element_count(t->shape) * element_bytes(t->dtype), input = true;
    else if (auto* o = std::get_if<OutputArg>(&a)) bytes = element_count(o->shape) * element_bytes(o->dtype);
    else continue;
    std::uint64_t guarded = (bytes + page - 1) / page * page + 2 * page;
    need += guarded + (timed && input ? bytes : 0);
  }
  if (need > limit)
    throw OperatorError(fmt::format("the tensors of this {} of {} need {} of device memory, more than the GPU memory "
                                    "limit {}", timed ? "time" : "call", fn.entry, files::size_text(need),
                                    files::size_text(limit)));
}

WorkerSandbox GpuSession::sandbox_for(ModuleKind kind, const std::string& module) const {
  WorkerSandbox box;
  box.exchange_parent = scratch_;
  // Only its own module: a worker never sees another candidate's library or the cache's folder.
  if (!module.empty()) box.read_only.push_back(module);
  if (kind == ModuleKind::cuda) {
    box.gpu_devices = true;
    // The toolkit the modules' runpath names (usually under /usr, which every sandbox has).
    const std::string& nvcc = options_.compiler.nvcc;
    if (!nvcc.empty() && nvcc[0] == '/') box.read_only.push_back((fs::path(nvcc).parent_path().parent_path() / "lib64").string());
  }
  box.memory_bytes = options_.worker_memory_bytes;
  return box;
}

std::optional<WorkerReply> GpuSession::start(WorkerClient& w, const std::string& module, std::uint64_t gpu_memory) {
  try {
    // Not yet started: a fresh process, or one that so far answered only device queries.
    if (!w.running() || started_.count(w.pid()) == 0) {
      w.ensure_running();
      Message start = start_message(gpu_memory);
      if (w.own_pid_namespace()) start.set("own_pid_namespace", "1");
      WorkerReply r = w.request(start, options_.start_timeout_s);
      if (r.ok) started_.insert(w.pid());
      if (!r.ok) {
        // A worker that cannot create its context, or dies doing so, is the machine's problem.
        r.grader_environment = true;
        r.failure = "the GPU worker could not start: " + r.failure;
        return r;
      }
      if (!module.empty()) {
        r = w.request(Message().set("op", "load").set("module", module), options_.start_timeout_s);
        if (!r.ok) {  // a module whose static constructors crash is the candidate's
          if (worker_claims_environment(r)) r.grader_environment = confirm_environment(w.backend() == "cuda" ? ModuleKind::cuda : ModuleKind::cpu_standin, r.failure);
          return r;
        }
      }
    }
    return std::nullopt;
  } catch (const OperatorError& e) {
    WorkerReply r;
    r.failure = e.what();
    r.grader_environment = true;  // the worker executable is missing or cannot be started
    return r;
  }
}

Message GpuSession::start_message(std::uint64_t gpu_memory) const {
  Message m;
  m.set("op", "start");
  // The worker refuses candidate allocations past this, and checks the context's use after each
  // request (docs/gpu.md, "Limits"); without one it keeps a tenth of the device free.
  if (gpu_memory) m.set("gpu_memory_limit", std::to_string(gpu_memory));
  return m;
}

WorkerReply GpuSession::send(WorkerClient& w, const Message& m, double timeout_s, const ProgressHandler& on_progress) {
  try {
    return w.request(m, timeout_s, on_progress);
  } catch (const OperatorError& e) {
    WorkerReply r;
    r.failure = e.what();
    r.grader_environment = true;
    return r;
  }
}

const DeviceInfo& GpuSession::device_info() {
  if (device_) return *device_;
  device_ = std::make_unique<DeviceInfo>();
  try {
    WorkerReply r = worker(ModuleKind::cuda).request(Message().set("op", "info"), options_.call_timeout_s);
    if (r.ok) *device_ = device_info_from(r.message);
    else device_->reason = "device query failed: " + r.failure;
  } catch (const OperatorError& e) {
    device_->reason = e.what();
  }
  return *device_;
}

CompileOutcome GpuSession::cuda_fn(const std::string& source_path, std::string_view entry, std::string_view signature,
                                   std::string_view source_name, const CompileSandbox& sandbox) {
  Signature sig = parse_signature(signature);
  ModuleKind kind = module_kind_for(source_path);
  CompilerSettings settings = options_.compiler;
  if (kind == ModuleKind::cuda && settings.arch.empty()) {
    std::lock_guard<std::mutex> lock(target_mutex_);
    if (!target_) {
      // The device's own architecture; with no usable device, the default target (the build still
      // checks the source compiles).
      const DeviceInfo& d = device_info();
      target_ = d.available ? cuda_target_for(d.cc, nvcc_gpu_codes(settings.nvcc)) : CudaTarget{kDefaultCudaArch, ""};
    }
    if (!target_->problem.empty()) {
      CompileOutcome o;
      o.grader_environment = true;
      o.message = fmt::format("cannot build {} for this machine's GPU: {}",
                              source_name.empty() ? fs::path(source_path).filename().string() : std::string(source_name),
                              target_->problem);
      return o;
    }
    settings.arch = target_->arch;
  }
  return compile_module(source_path, entry, sig, kind, settings, source_name, sandbox);
}

Message GpuSession::encode_args(const CompiledModule& fn, const std::vector<CallArg>& args, const std::string& dir,
                                std::vector<std::string>& output_files, std::vector<OutputArg>& outputs,
                                std::vector<std::string>& made) {
  const Signature& sig = fn.signature;
  if (args.size() != sig.caller_arity())
    throw OperatorError(fmt::format("{} takes {} arguments ({}), got {}", fn.entry, sig.caller_arity(), sig.text,
                                    args.size()));
  Message m;
  m.set("module", fn.library_path).set("nargs", std::to_string(sig.params.size()));
  std::size_t next = 0;
  for (std::size_t i = 0; i < sig.params.size(); ++i) {
    const Param& p = sig.params[i];
    std::string key = fmt::format("a{}.", i);
    if (p.kind == ParamKind::stream) {
      m.set(key + "kind", "stream");
      continue;
    }
    std::size_t argno = next + 1;
    const CallArg& a = args[next++];
    auto bad = [&](std::string_view got) {
      return OperatorError(fmt::format("argument {} of {}: parameter '{}' needs {}, got {}", argno, fn.entry, p.c_type,
                                       p.kind == ParamKind::pointer ? "a tensor" : "a number", got));
    };
    if (p.kind == ParamKind::pointer) {
      if (auto* t = std::get_if<TensorArg>(&a)) {
        if (t->dtype != p.dtype)
          throw bad(fmt::format("a {} tensor (the parameter is {})", dtype_label(t->dtype), dtype_label(p.dtype)));
        std::uint64_t count = element_count(t->shape);
        if (!t->data && t->file.empty()) throw bad("a tensor with neither data nor file");
        std::string file = exchange_input(*t, dir, "in", made);
        m.set(key + "kind", "in").set(key + "dtype", std::string(dtype_label(t->dtype)));
        m.set(key + "count", std::to_string(count)).set(key + "file", file).set(key + "offset", "0");
      } else if (auto* o = std::get_if<OutputArg>(&a)) {
        if (o->dtype != p.dtype)
          throw bad(fmt::format("out({}, ...) (the parameter is {})", dtype_label(o->dtype), dtype_label(p.dtype)));
        if (p.is_const) throw bad("an output, but the parameter is const");
        std::string file = exchange_name(dir, "out");
        made.push_back(file);
        output_files.push_back(file);
        outputs.push_back(*o);
        m.set(key + "kind", "out").set(key + "dtype", std::string(dtype_label(o->dtype)));
        m.set(key + "count", std::to_string(element_count(o->shape))).set(key + "file", file);
      } else {
        throw bad("a number");
      }
      continue;
    }
    bool integer_param = p.kind == ParamKind::int32 || p.kind == ParamKind::int64;
    if (std::holds_alternative<TensorArg>(a) || std::holds_alternative<OutputArg>(a)) throw bad("a tensor");
    if (integer_param) {
      std::int64_t v;
      if (auto* i = std::get_if<std::int64_t>(&a)) {
        v = *i;
      } else {
        double d = std::get<double>(a);
        if (d != std::floor(d) || std::fabs(d) > 9.2e18) throw bad(fmt::format("{:g}, not an integer", d));
        v = static_cast<std::int64_t>(d);
      }
      if (p.kind == ParamKind::int32 && (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()))
        throw bad(fmt::format("{}, outside the range of int", v));
      m.set(key + "kind", p.kind == ParamKind::int32 ? "i32" : "i64").set(key + "value", std::to_string(v));
    } else {
      double v = std::holds_alternative<double>(a) ? std::get<double>(a) : static_cast<double>(std::get<std::int64_t>(a));
      m.set(key + "kind", p.kind == ParamKind::float32 ? "f32" : "f64").set(key + "value", num(v));
    }
  }
  return m;
}

GpuSession::WorkerRequest::~WorkerRequest() {
  // The worker's folder goes with the worker; these are this request's files.
  for (const std::string& f : made) ::unlink(f.c_str());
}

std::optional<WorkerReply> GpuSession::prepare(const CompiledModule& fn, const std::vector<CallArg>& args,
                                               WorkerRequest& req) {
  req.worker = &worker(fn);
  if (auto failed = start(*req.worker, fn.library_path, gpu_memory_limit(fn))) return failed;
  try {
    req.message = encode_args(fn, args, req.worker->exchange_dir(), req.output_files, req.outputs, req.made);
  } catch (const ExchangeError& e) {
    WorkerReply r;
    r.failure = e.what();
    return r;
  }
  return std::nullopt;
}

CallOutcome GpuSession::call(const CompiledModule& fn, const std::vector<CallArg>& args) {
  CallOutcome out;
  WorkerRequest req;
  if (auto failed = prepare(fn, args, req)) return failed_before_sending(out, *failed);
  WorkerClient& w = *req.worker;
  Message& m = req.message;
  m.set("op", "call");
  check_device_memory(fn, args, false);
  WorkerReply r = send(w, m, options_.call_timeout_s);
  out.isolation = w.isolation();
  take_status(r, fn.kind, out);
  if (r.ok) {
    try {
      out.wall_seconds = reply_number(r.message, "wall_s", 0, r.seconds + 1);
      out.libraries = reply_library_list(r.message, "libraries");
    } catch (const MalformedReply& e) {
      return malformed_reply(w, e, out);
    }
    try {
      for (std::size_t i = 0; i < req.outputs.size(); ++i) {
        HostTensor t;
        t.dtype = req.outputs[i].dtype;
        t.shape = req.outputs[i].shape;
        t.bytes = read_exchange_file(req.output_files[i], element_count(t.shape) * element_bytes(t.dtype), fmt::format("output {}", i));
        out.outputs.push_back(std::move(t));
      }
    } catch (const ExchangeError& e) {
      out.ok = false;
      out.outputs.clear();
      out.failure = e.what();
    }
  }
  return out;
}

LibrariesOutcome GpuSession::libraries(const CompiledModule& fn) {
  LibrariesOutcome out;
  WorkerClient& w = worker(fn);
  if (auto failed = start(w, fn.library_path, gpu_memory_limit(fn))) return failed_before_sending(out, *failed);
  WorkerReply r = send(w, Message().set("op", "libraries").set("module", fn.library_path), options_.call_timeout_s);
  take_status(r, fn.kind, out);
  if (!r.ok) return out;
  try {
    out.libraries = reply_library_list(r.message, "libraries");
  } catch (const MalformedReply& e) {
    malformed_reply(w, e, out);
  }
  return out;
}

TimeOutcome GpuSession::time(const CompiledModule& fn, const std::vector<CallArg>& args, const TimingOptions& o) {
  TimeOutcome out;
  // No other candidate's process may share the device while this one is timed: a worker left
  // with host threads still launching kernels would slow the samples (or the reference's).
  for (auto& [path, mw] : module_workers_)
    if (path != fn.library_path && mw.client->running()) mw.client->stop();
  WorkerRequest req;
  if (auto failed = prepare(fn, args, req)) return failed_before_sending(out, *failed);
  WorkerClient& w = *req.worker;
  Message& m = req.message;
  m.set("op", "time")
      .set("warmup_s", num(o.warmup_s))
      .set("min_samples", std::to_string(o.min_samples))
      .set("min_time_s", num(o.min_time_s))
      .set("max_time_s", num(o.max_time_s))
      .set("max_noise", num(o.max_noise))
      .set("min_clock_fraction", num(o.min_clock_fraction))
      .set("fresh", o.fresh ? "1" : "0")
      .set("flush_l2", o.flush_l2 ? "1" : "0")
      .set("verify_fraction", num(o.verify_fraction));
  if (o.recheck_tolerance) m.set("recheck_rtol", num(o.recheck_tolerance->rtol)).set("recheck_atol", num(o.recheck_tolerance->atol));
  check_device_memory(fn, args, true);
  // Until the first checked call is done: uploads, pristine copies and (for integer outputs) two
  // calls. After it, the budget follows that call's duration: the loop's limit, the warm-up, and
  // up to 10 calls the loop makes besides its samples (verification, the re-checks).
  double before_first = 2 * options_.call_timeout_s + 30;
  double overhead = options_.time_overhead_s;
  // The worker's own figure for its first call is bounded by what the grader's clock saw: a
  // module cannot buy itself a longer budget by claiming a slow first call.
  WorkerReply r = send(w, m, before_first, [&](const Message& p, double elapsed_s) {
    double first = elapsed_s;
    try {
      first = std::min(elapsed_s, reply_number(p, "first_call_s", 0, elapsed_s + 1));
    } catch (const MalformedReply&) {
    }
    return o.max_time_s + o.warmup_s + 10 * first + overhead;
  });
  out.isolation = w.isolation();
  if (!r.ok) {
    take_status(r, fn.kind, out, Claims::throttling_unconfirmable);
    return out;
  }
  // Read into a copy: a malformed reply leaves nothing of what it said in the outcome.
  TimeOutcome read = out;
  try {
    read_time_reply(r, o, fn, read);
  } catch (const MalformedReply& e) {
    return malformed_reply(w, e, out);
  }
  return read;
}

void GpuSession::read_time_reply(const WorkerReply& r, const TimingOptions& o, const CompiledModule& fn,
                                 TimeOutcome& out) {
  const Message& a = r.message;
  out.samples = reply_seconds_list(a, "samples");
  out.libraries = reply_library_list(a, "libraries");
  const long long most = static_cast<long long>(TimingRules{}.max_samples);
  TimingMethod& t = out.method;
  t.l2_flushed = a.get_or("flushed", "0") == "1";
  t.flush_bytes = static_cast<std::uint64_t>(reply_number(a, "flush_bytes", 0, 1e15));
  t.device_synchronized = true;
  t.fresh_inputs = o.fresh;
  t.warmup_calls = static_cast<int>(reply_count(a, "warmup_calls", 0, most));
  t.samples = static_cast<int>(out.samples.size());
  t.dropped_low_clock = static_cast<int>(reply_count(a, "dropped_low_clock", 0, most));
  t.escaped_stream = static_cast<int>(reply_count(a, "escaped_stream", 0, most));
  t.verified_samples = static_cast<int>(reply_count(a, "verified_samples", 0, most));
  t.first_call_s = reply_number(a, "first_call_s", 0, 1e9);
  t.escape_slack_s = reply_number(a, "escape_slack_s", 0, 1e9);
  t.stream_held = a.get_or("stream_held", "1") == "1";
  t.sustained_clock_mhz = reply_number(a, "sustained_clock_mhz", 0, 1e6);
  t.clock_mhz = reply_number(a, "clock_mhz", 0, 1e6);
  t.nominal_clock_mhz = reply_number(a, "nominal_clock_mhz", 0, 1e6);
  t.noise = reply_number(a, "noise", 0, 1e9);
  t.elapsed_s = reply_number(a, "elapsed_s", 0, 1e9);
  t.stop_reason = a.get_or("stop_reason", "");
  t.backend = fn.kind == ModuleKind::cuda ? "cuda" : "cpu";
  out.recheck_ok = a.get_or("recheck_ok", "0") == "1";
  out.recheck = a.get_or("recheck", "");
  out.ok = out.recheck_ok && !out.samples.empty();
  if (!out.recheck_ok) out.failure = out.recheck;
  else if (out.samples.empty()) out.failure = "no sample was kept";
  if (!out.ok) return;
  // The figures must fit what the grader's own clock saw (docs/gpu.md, "Replies the grader does
  // not take on trust").
  TimingClaim claim{out.samples, t.escaped_stream, t.dropped_low_clock, t.elapsed_s, t.first_call_s};
  TimingRules rules{o.min_samples, o.min_time_s, o.max_time_s, most};
  if (std::string why = timing_claim_problem(claim, rules, r.seconds); !why.empty()) {
    out.ok = false;
    out.recheck_ok = false;
    out.failure = "the timing figures cannot be true: " + why;
  }
}

bool GpuSession::confirm_environment(ModuleKind kind, std::string& failure) {
  // A worker that loaded candidate code may claim anything, "blame=environment" included: the
  // claim stands only when the worker that never loads candidate code finds the device unusable.
  WorkerClient& trusted = worker(kind);
  std::optional<WorkerReply> failed = start(trusted, "", options_.gpu_memory_bytes);
  WorkerReply probe = failed ? *failed : send(trusted, Message().set("op", "health"), options_.call_timeout_s);
  if (!probe.ok) {
    failure += "; a worker without candidate code failed too: " + probe.failure;
    return true;
  }
  failure = fmt::format("the worker running the candidate's code blamed the grading machine ({}), but a worker that "
                        "never loads candidate code found the device working", failure);
  return false;
}

template <class Outcome>
void GpuSession::take_status(const WorkerReply& r, ModuleKind kind, Outcome& out, Claims claims) {
  out.ok = r.ok;
  out.failure = r.failure;
  out.grader_environment = r.grader_environment;
  if (!worker_claims_environment(r)) return;
  // A device that broke is confirmed by the worker without candidate code; a device that
  // throttled during the samples (a non-fatal claim) cannot be re-measured there yet, so the
  // claim stays the machine's and says whose word it is.
  if (claims == Claims::throttling_unconfirmable && r.message.get_or("fatal", "0") != "1")
    out.failure += " (as the worker running the candidate's code reported it)";
  else
    out.grader_environment = confirm_environment(kind, out.failure);
}

CompareOutcome GpuSession::compare(const TensorArg& a, const TensorArg& b, const numerics::Tolerance& tol, bool on_cpu,
                                   bool ulp_stats) {
  if (a.shape != b.shape)
    throw OperatorError(fmt::format("shapes differ: {} and {} (no broadcasting)", shape_text(a.shape), shape_text(b.shape)));
  for (auto [side, t] : {std::pair<const char*, const TensorArg*>{"a", &a}, {"b", &b}})
    if (!t->data && t->file.empty()) throw OperatorError(fmt::format("compare: tensor {} has neither data nor file", side));
  CompareOutcome out;
  out.backend = on_cpu ? "cpu" : "cuda";
  WorkerClient& w = worker(on_cpu ? ModuleKind::cpu_standin : ModuleKind::cuda);
  if (auto failed = start(w, "", options_.gpu_memory_bytes)) return failed_before_sending(out, *failed);
  WorkerRequest req;
  req.worker = &w;
  Message& m = req.message;
  m.set("op", "compare").set("rtol", num(tol.rtol)).set("atol", num(tol.atol)).set("ulp", std::to_string(tol.ulp));
  m.set("ulp_stats", ulp_stats ? "1" : "0");
  try {
    for (auto [side, t] : {std::pair<const char*, const TensorArg*>{"a", &a}, {"b", &b}}) {
      m.set(fmt::format("{}.dtype", side), std::string(dtype_label(t->dtype)))
          .set(fmt::format("{}.count", side), std::to_string(element_count(t->shape)))
          .set(fmt::format("{}.file", side), exchange_input(*t, w.exchange_dir(), side, req.made))
          .set(fmt::format("{}.offset", side), "0");
    }
  } catch (const ExchangeError& e) {
    out.failure = e.what();
    return out;
  }
  // Uploading 2 × 4 GiB from files takes seconds: allow for it beyond the call limit.
  double timeout = options_.call_timeout_s + 60;
  WorkerReply r = send(w, m, timeout);
  out.ok = r.ok;
  out.failure = r.failure;
  out.grader_environment = r.grader_environment;
  if (!r.ok) return out;
  const Message& x = r.message;
  auto i64 = [&](const char* k) { return static_cast<std::int64_t>(std::stoll(x.get_or(k, "0"))); };
  numerics::CompareStats& s = out.stats;
  s.count = i64("count");
  s.mismatches = i64("mismatches");
  s.max_abs = double_field(x, "max_abs");
  s.max_abs_index = i64("max_abs_index");
  s.integers = x.get_or("integers", "0") == "1";
  s.max_abs_integer = tensor::wide_from_string(x.get_or("max_abs_integer", "0"));
  s.max_rel = double_field(x, "max_rel");
  s.max_rel_index = i64("max_rel_index");
  s.first_mismatch_index = i64("first_mismatch_index");
  s.nan_a = i64("nan_a");
  s.nan_b = i64("nan_b");
  s.inf_a = i64("inf_a");
  s.inf_b = i64("inf_b");
  s.sum_sq_diff = double_field(x, "sum_sq_diff");
  s.sum_sq_a = double_field(x, "sum_sq_a");
  s.sum_sq_b = double_field(x, "sum_sq_b");
  s.dot_ab = double_field(x, "dot_ab");
  s.max_abs_b = double_field(x, "max_abs_b");
  s.max_ulp = std::stoull(x.get_or("max_ulp", "0"));
  out.kernel_seconds = double_field(x, "kernel_s");
  out.bytes = static_cast<std::uint64_t>(double_field(x, "bytes"));
  return out;
}

double GpuSession::copy_bandwidth(std::uint64_t bytes, bool on_cpu) {
  WorkerClient& w = worker(on_cpu ? ModuleKind::cpu_standin : ModuleKind::cuda);
  if (auto failed = start(w, "", options_.gpu_memory_bytes)) throw OperatorError("measuring the copy bandwidth failed: " + failed->failure);
  WorkerReply r = send(w, Message().set("op", "copy_bandwidth").set("bytes", std::to_string(bytes)),
                       options_.call_timeout_s + 30);
  if (!r.ok) throw OperatorError("measuring the copy bandwidth failed: " + r.failure);
  return double_field(r.message, "bandwidth");
}

}  // namespace rubric::cuda
