// GPU: `device`, `cuda_fn`, `out`, `call`, `time`, `achieved`, and `matches` on the device for
// large tensors. Binds operators/cuda; candidate code runs only in its worker processes.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstring>
#include <cstdlib>
#include <map>
#include <set>
#include <memory>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/builtins/tensor_compare.hpp"
#include "operators/cuda/gpu_session.hpp"
#include "operators/cuda/plausibility.hpp"
#include "operators/error.hpp"
#include "operators/tensor/cast.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric {

namespace {

using Args = std::vector<Value>;
const char* const kOutOrigin = "out(dtype, shape)";
const char* const kModuleFamily = "cuda module";

// The family's state: one session (workers, scratch folder, compiled modules), started on first
// use so rubrics that never touch the GPU never start a worker.
struct GpuState {
  std::unique_ptr<cuda::GpuSession> session;
  std::map<std::string, cuda::CompiledModule> modules;  // by handle name
  std::set<std::string> sandbox_recorded;  // modules whose worker's isolation the report lists
  cuda::GpuSession& get() {
    if (!session) session = std::make_unique<cuda::GpuSession>();
    return *session;
  }
};
using StatePtr = std::shared_ptr<GpuState>;

Value optional_number(double x, Dimension d = {}) { return x > 0 ? Value::number(x, d) : Value(); }
Value optional_string(const std::string& s) { return s.empty() ? Value() : Value::string(s); }

Value device_record(const cuda::DeviceInfo& d) {
  const Dimension bytes = Dimension::of(Dimension::bytes);
  Record r;
  r.origin = "device";
  bool on = d.available;
  // Without a device, its figures are not missing data but a machine that cannot answer: a check
  // reading them SKIPs with the reason (as `needs gpu` would), never FAILs or ERRORs on a null.
  const std::string why = d.reason.empty() ? "no CUDA device is usable" : d.reason;
  auto figure = [&](Value v) { return on ? v : Value::undecided("needs gpu: " + why, Verdict::skip, Blame::grader_environment); };
  r.fields = {{"available", Value::boolean(on)},
              {"name", figure(optional_string(d.name))},
              {"cc", figure(optional_string(d.cc))},
              {"sm_count", figure(Value::number(d.sm_count))},
              {"memory", figure(optional_number(static_cast<double>(d.memory_bytes), bytes))},
              {"l2", figure(optional_number(static_cast<double>(d.l2_bytes), bytes))},
              {"peak_bandwidth", figure(optional_number(d.peak_bandwidth, bytes / Dimension::of(Dimension::time)))},
              {"clock_mhz", figure(optional_number(d.clock_mhz))},
              {"driver", optional_string(d.driver)},
              {"runtime", optional_string(d.runtime)},
              {"reason", on ? Value() : Value::string(d.reason.empty() ? "no CUDA device is usable" : d.reason)}};
  return Value::record(std::move(r));
}

bool from_submission(const std::string& source) { return source.rfind("submission/", 0) == 0; }

// Tensors travel to the worker as C-order bytes in this machine's byte order.
std::shared_ptr<const tensor::Tensor> contiguous(const std::shared_ptr<const tensor::Tensor>& t) {
  if (t->is_contiguous()) return t;
  return std::make_shared<const tensor::Tensor>(tensor::cast(*t, t->dtype()));
}

struct PreparedArgs {
  std::vector<cuda::CallArg> args;
  std::vector<std::shared_ptr<const tensor::Tensor>> keep_alive;
};

std::optional<Value> prepare_args(CallContext& ctx, const Args& values, std::size_t first, PreparedArgs& out) {
  for (std::size_t i = first; i < values.size(); ++i) {
    const Value& v = values[i];
    if (v.is_error()) return v;
    if (v.is(ValueKind::tensor)) {
      auto t = contiguous(v.as_tensor());
      out.keep_alive.push_back(t);
      cuda::TensorArg a;
      a.dtype = t->dtype();
      a.shape = t->shape();
      a.data = t->data();
      out.args.emplace_back(a);
    } else if (v.is(ValueKind::record) && v.as_record().origin == kOutOrigin) {
      const Record& r = v.as_record();
      cuda::OutputArg o;
      // out() checked both when it built the record.
      o.dtype = *builtins::dtype_arg(*r.find("dtype"));
      builtins::shape_arg(ctx, *r.find("shape"), static_cast<int>(i + 1), o.shape);
      out.args.emplace_back(o);
    } else if (v.is(ValueKind::number) && v.as_quantity().dim.dimensionless()) {
      double x = v.as_number();
      if (x == std::floor(x) && std::fabs(x) < 9.2e18) out.args.emplace_back(static_cast<std::int64_t>(x));
      else out.args.emplace_back(x);
    } else if (v.is(ValueKind::boolean)) {
      out.args.emplace_back(static_cast<std::int64_t>(v.as_bool()));
    } else {
      return ctx.bad_argument(static_cast<int>(i + 1), "a tensor, out(dtype, shape) or a plain number", v);
    }
  }
  return std::nullopt;
}

const cuda::CompiledModule* module_of(GpuState& st, const Value& f) {
  if (!f.is(ValueKind::function) || f.as_function().kind != Function::Kind::builtin) return nullptr;
  const auto& b = f.as_function().builtin;
  if (!b || b->family != kModuleFamily) return nullptr;
  auto it = st.modules.find(b->name);
  return it == st.modules.end() ? nullptr : &it->second;
}

Blame blame_of(const cuda::CompiledModule& m) {
  return from_submission(m.source_name) ? Blame::submission : Blame::rubric;
}

// A failure on the grading machine's side (no usable device, no driver, a toolkit that cannot
// build for it) is never the submission's: SKIP where the device is missing (the criterion
// needs what the grader lacks), otherwise ERROR blamed on the grading environment.
// A module for the CPU stand-in needs no device: its faults are the machine's ERROR, never a SKIP
// saying a GPU is needed.
Value grader_fault(CallContext& ctx, GpuState& st, const std::string& message,
                   cuda::ModuleKind kind = cuda::ModuleKind::cuda) {
  if (kind == cuda::ModuleKind::cpu_standin)
    return ctx.error(fmt::format("grading environment: {}", message), Blame::grader_environment);
  // The session itself may be what the machine cannot provide (no scratch folder under TMPDIR).
  const cuda::DeviceInfo* dp = nullptr;
  try {
    dp = &st.get().device_info();
  } catch (const EnvironmentError&) {
    return ctx.error(fmt::format("grading environment: {}", message), Blame::grader_environment);
  }
  const cuda::DeviceInfo& d = *dp;
  if (!d.available)
    return Value::undecided(fmt::format("needs gpu: {} ({})", d.reason.empty() ? "no CUDA device is usable" : d.reason, message),
                            Verdict::skip, Blame::grader_environment, ctx.location());
  return ctx.error(fmt::format("grading environment: {}", message), Blame::grader_environment);
}

// A request to the module's worker that failed: the grading machine's fault (grader_fault), or
// the module's, blamed on whoever wrote it.
Value failed_request(CallContext& ctx, GpuState& st, const cuda::CompiledModule& m, bool grader_environment,
                     const std::string& message) {
  if (grader_environment) return grader_fault(ctx, st, message, m.kind);
  return ctx.error(message, blame_of(m));
}

// The report lists, once per module, what confined the worker running the candidate's code.
void record_worker_once(CallContext& ctx, GpuState& st, const cuda::CompiledModule& m, const std::string& isolation,
                        double seconds, bool ok) {
  if (!isolation.empty() && st.sandbox_recorded.insert(m.library_path).second)
    ctx.record_run(RunRecord{fmt::format("rubric-gpu-worker: {} from {}", m.entry, m.source_name), isolation, seconds, ok ? 0 : 1});
}

// Runs `request` (a builtin's work on the module's worker): an EnvironmentError is the grading
// machine's fault, any other OperatorError the rubric's, each named "'<builtin>' of <entry>".
template <class Request>
Value on_worker(CallContext& ctx, GpuState& st, const cuda::CompiledModule& m, const char* builtin, Request&& request) {
  try {
    return request();
  } catch (const EnvironmentError& e) {
    return grader_fault(ctx, st, fmt::format("'{}' of {}: {}", builtin, m.entry, e.what()), m.kind);
  } catch (const OperatorError& e) {
    return ctx.error(fmt::format("'{}' of {}: {}", builtin, m.entry, e.what()));
  }
}

// "scale (submission/k.cu) brought into the worker: libcublas.so.13, libcublasLt.so.13"
std::string libraries_text(const cuda::CompiledModule& m, const std::vector<std::string>& libraries) {
  return fmt::format("{} ({}) brought into the worker: {}", m.entry, m.source_name, fmt::join(libraries, ", "));
}

Value call_module(CallContext& ctx, GpuState& st, const cuda::CompiledModule& m, const Args& a, std::size_t first) {
  PreparedArgs prepared;
  if (auto e = prepare_args(ctx, a, first, prepared)) return *e;
  if (auto* p = ctx.progress()) p->activity(fmt::format("call: {}", m.entry));
  return on_worker(ctx, st, m, "call", [&] {
    cuda::CallOutcome r = st.get().call(m, prepared.args);
    record_worker_once(ctx, st, m, r.isolation, r.wall_seconds, r.ok);
    if (!r.ok) return failed_request(ctx, st, m, r.grader_environment, fmt::format("{} ({}): {}", m.entry, m.source_name, r.failure));
    if (!r.libraries.empty()) ctx.note_evidence(libraries_text(m, r.libraries));
    List outs;
    for (std::size_t i = 0; i < r.outputs.size(); ++i) {
      auto& h = r.outputs[i];
      std::vector<std::byte> bytes(h.bytes.size());
      std::memcpy(bytes.data(), h.bytes.data(), h.bytes.size());
      outs.push_back(Value::tensor(std::make_shared<const tensor::Tensor>(tensor::Tensor::from_bytes(
          h.dtype, h.shape, std::move(bytes), fmt::format("output {} of {}", i, m.entry)))));
    }
    return Value::list(std::move(outs));
  });
}

std::string method_text(const cuda::TimingMethod& m) {
  std::string s = fmt::format("{} samples on {}, {}{}{}, device synchronised; stopped: {}", m.samples, m.backend,
                              m.l2_flushed ? fmt::format("L2 flushed ({} MiB)", m.flush_bytes >> 20) : "L2 not flushed",
                              m.fresh_inputs ? ", fresh inputs" : "", m.clock_mhz > 0 ? fmt::format(", SM clock {:.0f} MHz", m.clock_mhz) : "",
                              m.stop_reason);
  if (m.dropped_low_clock) s += fmt::format("; {} samples dropped under 75% clock", m.dropped_low_clock);
  if (m.escaped_stream) s += fmt::format("; {} calls left work running past the stream", m.escaped_stream);
  return s;
}

// Large tensors are compared by the device only past this many elements: below it, shipping the
// data to the worker costs more than the CPU pass, which already runs at memory bandwidth.
std::int64_t device_compare_threshold() {
  // A value that is not a whole number keeps the default (atoll would read junk as 0: every
  // comparison on the device).
  if (const char* env = std::getenv("RUBRIC_GPU_COMPARE_MIN_ELEMENTS"); env && *env) {
    char* end = nullptr;
    long long v = std::strtoll(env, &end, 10);
    if (end && *end == '\0' && v >= 0) return v;
  }
  return std::int64_t{1} << 30;
}

}  // namespace

void open_gpu(Registry& r) {
  const std::string fam = "gpu";
  auto state = std::make_shared<GpuState>();

  r.bind_lazy(
      "device",
      [state] {
        try {
          return device_record(state->get().device_info());
        } catch (const EnvironmentError& e) {
          // No session on this machine (no scratch folder): no usable device, and the reason why.
          cuda::DeviceInfo none;
          none.reason = e.what();
          return device_record(none);
        }
      },
      "The CUDA device: {available, name, cc, sm_count, memory, l2, peak_bandwidth, clock_mhz, driver, runtime, "
      "reason}; available is false (and reason says why) where no CUDA device is usable.");

  r.add("cuda_fn", {P("source"), P("entry"), P("signature"), P("gpu_memory", Value())}, false,
        "Compiles a CUDA source (.cu with nvcc for the device's own architecture, sm_90a on an H100; .cpp with the host compiler runs on the CPU stand-in) with a "
        "generated trampoline checking that `entry` has exactly the C `signature`, e.g. "
        "\"void(const float*, float*, int, cudaStream_t)\". A compile error or mismatch fails with the compiler's message. "
        "The compiler and the module run sandboxed (no reference, no network, nothing kept). gpu_memory = 8 GiB bounds the "
        "device memory its calls may use (default: $RUBRIC_GPU_MEMORY_LIMIT, else 90% of the device).",
        fam, BuiltinNeeds::device(BuiltinNeeds::Gpu::for_cu_source), [state](CallContext& ctx, const Args& a) {
          if (auto e = builtins::want(ctx, a, 0, ValueKind::path, "a path")) return *e;
          if (auto e = builtins::want(ctx, a, 1, ValueKind::string, "a string")) return *e;
          if (auto e = builtins::want(ctx, a, 2, ValueKind::string, "a C signature string")) return *e;
          std::uint64_t gpu_memory = 0;
          if (!a[3].is_null()) {
            const Value& v = a[3];
            if (!v.is(ValueKind::number) || v.as_quantity().dim != Dimension::of(Dimension::bytes) ||
                !(v.as_number() >= 1048576) || !(v.as_number() < 1.8e19))
              return ctx.error(fmt::format("bad argument 'gpu_memory' to 'cuda_fn' (expected a size of at least 1 MiB "
                                           "such as 8 GiB, got {})", v.repr(5)));
            gpu_memory = static_cast<std::uint64_t>(v.as_number());
          }
          const PathValue& p = a[0].as_path();
          Value err;
          auto real = ctx.open_file(p, &err);
          if (!real) return err;
          if (auto* pr = ctx.progress()) pr->activity(fmt::format("compiling {}", p.display()));
          try {
            // The compiler sees a copy of the submission (a source of the submission: its whole folder,
            // for its own headers; else the source's folder), never the reference or the original.
            cuda::CompileSandbox box;
            if (p.root == "submission") box.source_root = p.root_dir;
            for (const char* root : {"reference", "submission"})
              if (auto dir = ctx.root_dir(root)) box.hidden.push_back(*dir);
            cuda::CompileOutcome c = state->get().cuda_fn(*real, a[1].as_string(), a[2].as_string(), p.display(), box);
            if (!c.command.empty()) ctx.record_run(RunRecord{c.command, c.isolation, c.seconds, c.ok ? 0 : 1});
            if (!c.ok && c.grader_environment)
              return grader_fault(ctx, *state, fmt::format("{} cannot be built here: {}", p.display(), c.message),
                                  cuda::module_kind_for(*real));
            if (!c.ok)
              return ctx.error(fmt::format("{} does not build: {}", p.display(), c.message),
                               p.root == "submission" ? Blame::submission : Blame::rubric);
            std::string handle = fmt::format("{}#{}", a[1].as_string(), state->modules.size() + 1);
            c.module.gpu_memory_bytes = gpu_memory;
            state->modules[handle] = c.module;
            Builtin b;
            b.name = handle;
            b.family = kModuleFamily;
            b.variadic = true;
            b.doc = fmt::format("{} from {}", a[2].as_string(), p.display());
            std::weak_ptr<GpuState> weak = state;
            b.fn = [weak, handle](CallContext& c2, const Args& args) {
              auto st = weak.lock();
              if (!st) return c2.error("the GPU session has ended");
              return call_module(c2, *st, st->modules.at(handle), args, 0);
            };
            Function f;
            f.kind = Function::Kind::builtin;
            f.name = a[1].as_string();
            f.builtin = std::make_shared<const Builtin>(std::move(b));
            return Value::function(std::move(f));
          } catch (const EnvironmentError& e) {
            return grader_fault(ctx, *state, fmt::format("'cuda_fn' of {}: {}", p.display(), e.what()), cuda::module_kind_for(*real));
          } catch (const OperatorError& e) {
            return ctx.error(fmt::format("'cuda_fn': {}", e.what()));
          }
        });

  r.add("out", {P("dtype"), P("shape")}, false,
        "Declares an output buffer for `call` and `time`: a fresh device buffer, filled with NaN (0xFF bytes for "
        "integers) before every call, and with a second pattern for a second run, so an element the function never "
        "writes fails the call.",
        fam, BuiltinNeeds::timing(), [](CallContext& ctx, const Args& a) {
          if (!builtins::dtype_arg(a[0])) return ctx.bad_argument(1, "a dtype (f32, bf16, ...)", a[0]);
          std::vector<std::int64_t> shape;
          if (auto e = builtins::shape_arg(ctx, a[1], 2, shape)) return *e;
          Record r;
          r.origin = kOutOrigin;
          r.fields = {{"dtype", a[0]}, {"shape", a[1]}};
          return Value::record(std::move(r));
        });

  r.add("call", {P("f")}, true,
        "Calls a cuda_fn with tensors (uploaded), out(dtype, shape) buffers and numbers; synchronises the whole device, "
        "checks for errors and returns the outputs as a list of tensors. A crash, hang or CUDA fault fails the check.",
        fam, BuiltinNeeds::timing(), [state](CallContext& ctx, const Args& a) {
          const cuda::CompiledModule* m = module_of(*state, a[0]);
          if (!m) return ctx.bad_argument(1, "a function from cuda_fn", a[0]);
          return call_module(ctx, *state, *m, a, 1);
        });

  r.add("time", {P("f"), P("fresh", Value::boolean(false))}, true,
        "Samples of device time of a cuda_fn call, NVBench-style: warm-up, L2 flushed before each sample, events around "
        "the call with the device synchronised, until the noise is under 0.5% after 10 samples and 0.5 s (or 15 s); "
        "samples under 75% of the SM clock dropped; outputs re-checked after the loop. fresh = true draws new inputs "
        "for every sample.",
        fam, BuiltinNeeds::timing(), [state](CallContext& ctx, const Args& a) {
          const cuda::CompiledModule* m = module_of(*state, a[0]);
          if (!m) return ctx.bad_argument(1, "a function from cuda_fn", a[0]);
          if (auto e = builtins::want(ctx, a, 1, ValueKind::boolean, "true or false")) return *e;
          PreparedArgs prepared;
          if (auto e = prepare_args(ctx, a, 2, prepared)) return *e;
          cuda::TimingOptions opt;
          opt.fresh = a[1].as_bool();
          if (auto* p = ctx.progress()) p->activity(fmt::format("timing {} (up to {:.0f} s)", m->entry, opt.max_time_s));
          return on_worker(ctx, *state, *m, "time", [&] {
            cuda::TimeOutcome t = state->get().time(*m, prepared.args, opt);
            record_worker_once(ctx, *state, *m, t.isolation, t.method.elapsed_s, t.ok);
            if (!t.ok) return failed_request(ctx, *state, *m, t.grader_environment, fmt::format("timing {}: {}", m->entry, t.failure));
            SampleSet s;
            s.values = t.samples;
            s.dim = Dimension::of(Dimension::time);
            s.description = fmt::format("time({}): {}", m->entry, method_text(t.method));
            if (!t.libraries.empty()) s.description += "; " + libraries_text(*m, t.libraries);
            return Value::samples_of(std::move(s));
          });
        });

  r.add("libraries", {P("f")}, true,
        "The shared libraries a cuda_fn's module brought into the GPU worker beyond the worker's own, as file "
        "names (\"libcublas.so.13\"): those it links and those it opened in the calls made so far. A \"kernel\" "
        "that hands the work to cuBLAS or to the reference's library shows it here: "
        "`expect not any(libraries(f), l => contains(l, \"cublas\"))`.",
        fam, BuiltinNeeds::timing(), [state](CallContext& ctx, const Args& a) {
          const cuda::CompiledModule* m = module_of(*state, a[0]);
          if (!m) return ctx.bad_argument(1, "a function from cuda_fn", a[0]);
          return on_worker(ctx, *state, *m, "libraries", [&] {
            cuda::LibrariesOutcome r = state->get().libraries(*m);
            if (!r.ok)
              return failed_request(ctx, *state, *m, r.grader_environment,
                                    fmt::format("libraries of {} ({}): {}", m->entry, m->source_name, r.failure));
            List names;
            for (const std::string& l : r.libraries) {
              Value v = Value::string(l);
              v.mark_from_submission();
              names.push_back(std::move(v));
            }
            Value out = Value::list(std::move(names), fmt::format("the libraries {} brought into the GPU worker", m->entry),
                                    fmt::format("{} brought no library into the GPU worker beyond its own", m->entry));
            out.mark_from_submission();
            return out;
          });
        });

  r.add("achieved", {P("t"), P("bytes", Value()), P("flops", Value()), P("precision", Value::string("fp32"))}, false,
        "Achieved bandwidth and FLOP/s of a run taking `t` (its median for samples) that moved `bytes` and performed "
        "`flops`, against the device's peaks: {bandwidth, bandwidth_fraction, flops, flops_fraction, plausible, "
        "explanation}. Above a peak means a broken measurement, not a fast kernel.",
        fam, BuiltinNeeds::device(BuiltinNeeds::Gpu::always), [state](CallContext& ctx, const Args& a) {
          double seconds = 0;
          if (a[0].is(ValueKind::samples)) seconds = a[0].as_samples().point_estimate();
          else if (a[0].is(ValueKind::number)) seconds = a[0].as_number();
          else return ctx.bad_argument(1, "a time or samples of time", a[0]);
          const Dimension time = Dimension::of(Dimension::time);
          if (a[0].is(ValueKind::number) ? a[0].as_quantity().dim != time : a[0].as_samples().dim() != time)
            return ctx.bad_argument(1, "a time or samples of time", a[0]);
          // The arguments first: a bad one is the rubric's (or the candidate's) whatever the machine.
          const std::pair<Dimension, const char*> amounts[] = {{Dimension::of(Dimension::bytes), "a size in bytes such as 1 GB"},
                                                               {Dimension::of(Dimension::operations), "a count such as 2 TFLOP"}};
          for (int i : {1, 2}) {
            const Value& v = a[static_cast<std::size_t>(i)];
            if (v.is_null()) continue;
            if (!v.is(ValueKind::number)) return ctx.bad_argument(i + 1, amounts[i - 1].second, v);
            const Dimension& dim = v.as_quantity().dim;
            if ((!dim.dimensionless() && dim != amounts[i - 1].first) || !(v.as_number() >= 0))
              return ctx.data_error(fmt::format("bad argument #{} to 'achieved' (expected {}, got {})", i + 1, amounts[i - 1].second,
                                                ctx.data_name(i + 1, v, v.to_string())),
                                    v);
          }
          static const std::map<std::string, cuda::Precision> precisions = {
              {"fp64", cuda::Precision::fp64}, {"fp32", cuda::Precision::fp32}, {"tf32", cuda::Precision::tf32},
              {"fp16", cuda::Precision::fp16}, {"bf16", cuda::Precision::bf16}, {"fp8", cuda::Precision::fp8},
              {"int8", cuda::Precision::int8}};
          auto prec = a[3].is(ValueKind::string) ? precisions.find(a[3].as_string()) : precisions.end();
          if (prec == precisions.end()) return ctx.bad_argument(4, "a precision: fp64 fp32 tf32 fp16 bf16 fp8 int8", a[3]);
          const cuda::DeviceInfo* dp = nullptr;
          try {
            dp = &state->get().device_info();
          } catch (const EnvironmentError& e) {
            return ctx.error(fmt::format("grading environment: 'achieved' needs the device's peaks: {}", e.what()),
                             Blame::grader_environment);
          }
          const cuda::DeviceInfo& d = *dp;
          if (!d.available) return grader_fault(ctx, *state, "'achieved' needs the device's peaks");
          cuda::PlausibilityInput in;
          in.seconds = seconds;
          in.peak_bandwidth = d.peak_bandwidth;
          if (!a[1].is_null()) in.bytes = a[1].as_number();
          if (!a[2].is_null()) in.flops = a[2].as_number();
          in.peak_flops = cuda::peak_flops(d.name, prec->second).value_or(0);
          try {
            cuda::PlausibilityVerdict v = cuda::check_plausibility(in);
            Record r;
            r.origin = "achieved()";
            r.fields = {{"bandwidth", Value::number(v.achieved_bandwidth, Dimension::of(Dimension::bytes) / time)},
                        {"bandwidth_fraction", Value::number(v.bandwidth_fraction)},
                        {"flops", Value::number(v.achieved_flops, Dimension::of(Dimension::operations) / time)},
                        {"flops_fraction", Value::number(v.flops_fraction)},
                        {"plausible", Value::boolean(v.plausible)},
                        {"explanation", Value::string(v.explanation)}};
            return Value::record(std::move(r));
          } catch (const OperatorError& e) {
            return ctx.error(fmt::format("'achieved': {}", e.what()));
          }
        });

  // `matches` on very large tensors runs on the device when one is usable (same statistics).
  r.add_matches_hook([state](CallContext&, const Value& a, const Value& b,
                             const MatchTolerance& mt) -> std::optional<CheckOutcome> {
    if (!a.is(ValueKind::tensor) || !b.is(ValueKind::tensor)) return std::nullopt;
    const auto& x = *a.as_tensor();
    const auto& y = *b.as_tensor();
    if (x.shape() != y.shape() || x.size() < device_compare_threshold() || !x.is_contiguous() || !y.is_contiguous())
      return std::nullopt;
    if (mt.form == ast::ToleranceForm::ulp) return std::nullopt;  // ULP distances stay on the CPU path
    numerics::Tolerance tol = tolerance_for(x, y, mt);
    cuda::TensorArg ta{x.dtype(), x.shape(), x.data(), "", 0}, tb{y.dtype(), y.shape(), y.data(), "", 0};
    cuda::CompareOutcome c;
    try {
      // The device only speeds the comparison up: a machine that cannot start the session leaves
      // it to the CPU pass, which decides the same.
      if (!state->get().device_info().available) return std::nullopt;
      c = state->get().compare(ta, tb, tol);
    } catch (const EnvironmentError&) {
      return std::nullopt;
    }
    if (!c.ok) return std::nullopt;  // the CPU pass decides instead
    CheckOutcome o = comparison_outcome(c.stats, x, y, tol, mt);
    o.evidence.push_back(fmt::format("Compared on the device ({}): {:.1f} GB/s", c.backend,
                                     c.kernel_seconds > 0 ? c.bytes / c.kernel_seconds / 1e9 : 0.0));
    return o;
  });
}

}  // namespace rubric
