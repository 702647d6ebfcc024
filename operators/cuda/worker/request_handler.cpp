#include "operators/cuda/worker/request_handler.hpp"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include <fmt/format.h>

#include "operators/cuda/dtype_info.hpp"
#include "operators/cuda/worker/allocation_limit.hpp"
#include "operators/cuda/worker/host_threads.hpp"
#include "operators/cuda/worker/prepared_call.hpp"
#include "operators/cuda/worker/tensor_files.hpp"
#include "operators/cuda/worker/timing_loop.hpp"
#include "operators/error.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/tensor/wide_integer_text.hpp"

namespace rubric::cuda::worker {

namespace {

Message failure(const std::string& reason) {
  Message m;
  m.set("status", "fail").set("reason", reason);
  return m;
}

std::string num(double v) { return fmt::format("{:.17g}", v); }

}  // namespace

// A backend that cannot start throws EnvironmentFault: the worker exits and the next request
// tries again in a fresh process (a busy or briefly unavailable device is not remembered).
Backend& RequestHandler::backend() {
  if (!backend_) backend_ = backend_name_ == "cpu" ? make_cpu_backend() : make_cuda_backend();
  return *backend_;
}

RequestHandler::Entry RequestHandler::load(const std::string& module_path) {
  auto it = modules_.find(module_path);
  if (it != modules_.end()) return it->second;
  // Modules stay loaded until the worker exits; a crash in a static constructor kills only us.
  void* handle = dlopen(module_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw RequestFailure(fmt::format("cannot load module {}: {}", module_path, why ? why : "unknown error"));
  }
  auto entry = reinterpret_cast<Entry>(dlsym(handle, "rubric_call"));
  if (!entry) throw RequestFailure(fmt::format("module {} has no rubric_call entry", module_path));
  modules_[module_path] = entry;
  if (link_map* lm = nullptr; dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
    module_paths_.insert(lm->l_name);
  module_paths_.insert(module_path);
  return entry;
}

Message RequestHandler::handle(const Message& request) {
  std::string op = request.get_or("op", "");
  try {
    if (op == "info") {
      Message m;
      m.set("status", "ok").set("backend", backend_name_);
      // The driver library the query opens is the worker's own, not a module's.
      const bool before_modules = modules_.empty();
      describe_device([&](const std::string& k, const std::string& v) { m.set(k, v); });
      if (before_modules) own_libraries_.merge(loaded_libraries());
      return m;
    }
    if (op == "ping") return Message().set("status", "ok").set("pid", std::to_string(::getpid()));
    // Whether the device works for a worker that never loaded candidate code: what confirms a
    // module worker's claim that the grading machine failed (upload, a kernel, a download).
    if (op == "health") {
      Backend& b = backend();
      const float ones[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
      DeviceBuffer x(b, sizeof ones), y(b, sizeof ones);
      b.upload(x.get(), ones, sizeof ones);
      b.upload(y.get(), ones, sizeof ones);
      double seconds = 0;
      numerics::CompareStats s = b.compare(x.get(), tensor::DType::f32, y.get(), tensor::DType::f32, 16, math::Rule{0, 0, 0}, seconds);
      if (s.count != 16 || s.mismatches != 0) return failure("the device compared 16 equal floats wrongly");
      return Message().set("status", "ok");
    }
    // Context creation (and, for `load`, loading the module with its kernels) under their own
    // generous timeouts, so no call's budget pays for them.
    if (op == "start") {
      Backend& b = backend();
      std::uint64_t limit = std::stoull(request.get_or("gpu_memory_limit", "0"));
      // Without a limit from the rubric, a tenth of the device stays free for the grader's own
      // workers (the comparison, the reference's module).
      if (limit == 0) limit = b.device_memory_total() / 10 * 9;
      set_device_memory_limit(limit);
      baseline_used_ = b.device_memory_used();
      own_libraries_.merge(loaded_libraries());
      end_strays_ = request.get_or("own_pid_namespace", "0") == "1" && !std::getenv("RUBRIC_GPU_MEMCHECK_ACTIVE");
      return Message().set("status", "ok").set("backend", b.name()).set("gpu_memory_limit", std::to_string(limit));
    }
    if (op == "load") {
      backend();
      load(request.require("module"));
      end_strays();
      return Message().set("status", "ok");
    }
    if (op == "call") {
      Message m = call(request);
      end_strays();
      return m;
    }
    if (op == "time") {
      Message m = time(request);
      end_strays();
      return m;
    }
    // What a module brought into the worker (linked, or opened while it ran): a "kernel" that
    // calls cuBLAS or the reference's library shows it here.
    if (op == "libraries") {
      load(request.require("module"));
      end_strays();
      return Message().set("status", "ok").set("libraries", libraries_brought_in());
    }
    if (op == "compare") return compare(request);
    if (op == "copy_bandwidth") {
      std::size_t bytes = std::stoull(request.require("bytes"));
      double seconds = backend().copy_seconds(bytes);
      // A copy reads and writes every byte.
      return Message().set("status", "ok").set("seconds", num(seconds)).set("bandwidth", num(2.0 * bytes / seconds));
    }
    return failure(fmt::format("unknown request '{}'", op));
  } catch (const RequestFailure& e) {
    end_strays();
    return failure(e.what());
  } catch (const OperatorError& e) {
    end_strays();
    return failure(e.what());
  } catch (const std::bad_alloc&) {
    end_strays();
    return failure("out of host memory in the worker");
  }
}

std::string RequestHandler::memory_problem() {
  const std::uint64_t limit = device_memory_limit();
  std::string refused = take_refusal();
  if (limit == 0) return {};
  if (!refused.empty()) return fmt::format("exceeded GPU memory limit {}: {}", files::size_text(limit), refused);
  const std::uint64_t used = backend_ ? backend_->device_memory_used() : 0;
  if (used > baseline_used_ && used - baseline_used_ > limit)
    return fmt::format("exceeded GPU memory limit {}: {} more device memory in use after the call than when the "
                       "worker started", files::size_text(limit), files::size_text(used - baseline_used_));
  return {};
}

std::string RequestHandler::libraries_brought_in() {
  return libraries_added(own_libraries_, loaded_libraries(), module_paths_);
}

void RequestHandler::end_strays() {
  // kill(-1) reaches every process this one may signal except itself and init; in the worker's
  // own PID namespace that is exactly what the candidate started.
  if (end_strays_) ::kill(-1, SIGKILL);
}

Message RequestHandler::call(const Message& request) {
  Backend& b = backend();
  Entry entry = load(request.require("module"));
  PreparedCall prepared(b, parse_args(request));
  // Outputs are checked with a second call, which must see the same inputs.
  prepared.keep_pristine_inputs();
  CheckedCall r = run_checked_call(b, prepared, [&] { entry(prepared.argv()); });
  if (!r.problem.empty()) return failure(r.problem);
  if (std::string why = memory_problem(); !why.empty()) return failure(why);
  prepared.write_outputs();
  Message m;
  m.set("status", "ok").set("wall_s", num(r.seconds)).set("libraries", libraries_brought_in());
  return m;
}

Message RequestHandler::time(const Message& request) {
  Backend& b = backend();
  Entry entry = load(request.require("module"));
  PreparedCall prepared(b, parse_args(request));
  TimingSettings s;
  s.warmup_s = std::stod(request.get_or("warmup_s", num(s.warmup_s)));
  s.min_samples = std::stoi(request.get_or("min_samples", std::to_string(s.min_samples)));
  s.min_time_s = std::stod(request.get_or("min_time_s", num(s.min_time_s)));
  s.max_time_s = std::stod(request.get_or("max_time_s", num(s.max_time_s)));
  s.max_noise = std::stod(request.get_or("max_noise", num(s.max_noise)));
  s.min_clock_fraction = std::stod(request.get_or("min_clock_fraction", num(s.min_clock_fraction)));
  s.fresh = request.get_or("fresh", "0") == "1";
  s.flush_l2 = request.get_or("flush_l2", "1") == "1";
  s.max_samples = std::stoull(request.get_or("max_samples", std::to_string(s.max_samples)));
  if (request.get("recheck_rtol") || request.get("recheck_atol"))
    s.recheck_rule = math::Rule{std::stod(request.get_or("recheck_rtol", "0")),
                                std::stod(request.get_or("recheck_atol", "0")), 0};
  s.verify_fraction = std::stod(request.get_or("verify_fraction", num(s.verify_fraction)));
  TimingReport r = run_timing(b, prepared, [&] { entry(prepared.argv()); }, s, [&](double first_call_s) {
    if (send_) send_(Message().set("status", "progress").set("first_call_s", num(first_call_s)));
  });
  if (std::string why = memory_problem(); !why.empty()) return failure(why);
  if (r.grader_environment)
    return failure(r.environment_reason).set("blame", "environment");
  std::string samples;
  for (double x : r.samples) samples += (samples.empty() ? "" : ",") + num(x);
  Message m;
  m.set("status", "ok")
      .set("samples", samples)
      .set("libraries", libraries_brought_in())
      .set("warmup_calls", std::to_string(r.warmup_calls))
      .set("dropped_low_clock", std::to_string(r.dropped_low_clock))
      .set("escaped_stream", std::to_string(r.escaped_stream))
      .set("verified_samples", std::to_string(r.verified_samples))
      .set("escape_slack_s", num(r.escape_slack_s))
      .set("stream_held", r.stream_held ? "1" : "0")
      .set("first_call_s", num(r.first_call_s))
      .set("clock_mhz", num(r.clock_mhz))
      .set("sustained_clock_mhz", num(r.sustained_clock_mhz))
      .set("nominal_clock_mhz", num(r.nominal_clock_mhz))
      .set("noise", num(r.noise))
      .set("elapsed_s", num(r.elapsed_s))
      .set("stop_reason", r.stop_reason)
      .set("flushed", r.flushed ? "1" : "0")
      .set("flush_bytes", std::to_string(r.flush_bytes))
      .set("recheck_ok", r.recheck_ok ? "1" : "0")
      .set("recheck", r.recheck);
  return m;
}

Message RequestHandler::compare(const Message& request) {
  Backend& b = backend();
  auto side = [&](const char* p, tensor::DType& t, std::size_t& count) -> DeviceBuffer {
    auto dt = dtype_from_label(request.require(fmt::format("{}.dtype", p)));
    if (!dt) throw OperatorError(fmt::format("worker request: unknown dtype for {}", p));
    t = *dt;
    count = std::stoull(request.require(fmt::format("{}.count", p)));
    std::size_t bytes = count * element_bytes(t);
    MappedInput in(request.require(fmt::format("{}.file", p)), std::stoull(request.get_or(fmt::format("{}.offset", p), "0")),
                   bytes);
    DeviceBuffer buf(b, bytes);
    if (bytes) b.upload(buf.get(), in.data(), bytes);
    return buf;
  };
  tensor::DType ta, tb;
  std::size_t na = 0, nb = 0;
  DeviceBuffer a = side("a", ta, na);
  DeviceBuffer bb = side("b", tb, nb);
  if (na != nb) throw RequestFailure(fmt::format("element counts differ: {} and {}", na, nb));
  math::Rule rule{std::stod(request.get_or("rtol", "0")), std::stod(request.get_or("atol", "0")),
                  std::stoll(request.get_or("ulp", "0"))};
  rule.ulp_stats = request.get_or("ulp_stats", "0") == "1";  // max_ulp outside ULP mode: only when asked
  double seconds = 0;
  numerics::CompareStats s = b.compare(a.get(), ta, bb.get(), tb, na, rule, seconds);
  Message m;
  m.set("status", "ok")
      .set("kernel_s", num(seconds))
      .set("bytes", std::to_string(na * element_bytes(ta) + nb * element_bytes(tb)))
      .set("count", std::to_string(s.count))
      .set("mismatches", std::to_string(s.mismatches))
      .set("max_abs", num(s.max_abs))
      .set("max_abs_index", std::to_string(s.max_abs_index))
      .set("integers", s.integers ? "1" : "0")
      .set("max_abs_integer", tensor::wide_to_string(s.max_abs_integer))
      .set("max_rel", num(s.max_rel))
      .set("max_rel_index", std::to_string(s.max_rel_index))
      .set("first_mismatch_index", std::to_string(s.first_mismatch_index))
      .set("nan_a", std::to_string(s.nan_a))
      .set("nan_b", std::to_string(s.nan_b))
      .set("inf_a", std::to_string(s.inf_a))
      .set("inf_b", std::to_string(s.inf_b))
      .set("sum_sq_diff", num(s.sum_sq_diff))
      .set("sum_sq_a", num(s.sum_sq_a))
      .set("sum_sq_b", num(s.sum_sq_b))
      .set("dot_ab", num(s.dot_ab))
      .set("max_abs_b", num(s.max_abs_b))
      .set("max_ulp", std::to_string(s.max_ulp));
  return m;
}

}  // namespace rubric::cuda::worker
