// Tensors: load random cast, the comparison metrics, summaries, logits metrics, `.shape`
// `.dtype` `.size`, and `matches` on tensors. Binds operators/tensor and operators/numerics.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/per_axis_evidence.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/builtins/tensor_compare.hpp"
#include "operators/error.hpp"
#include "operators/files/bus_guard.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_axis.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/numerics/evidence.hpp"
#include "operators/numerics/logits.hpp"
#include "operators/numerics/summary.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/tensor/cast.hpp"
#include "operators/tensor/index_format.hpp"
#include "operators/tensor/mapped_file.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/random.hpp"
#include "operators/tensor/raw.hpp"
#include "operators/tensor/safetensors.hpp"
#include "operators/tensor/slice.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric {

namespace {

using TensorPtr = std::shared_ptr<const tensor::Tensor>;
using Args = std::vector<Value>;

bool is_tensor(const Value& v) { return v.is(ValueKind::tensor); }

// A tensor read from the submission is the candidate's; errors about it are theirs to answer for.
Blame blame_of(const tensor::Tensor& t) {
  return t.source().rfind("submission/", 0) == 0 ? Blame::submission : Blame::rubric;
}
Blame blame_of(const tensor::Tensor& a, const tensor::Tensor& b) {
  return blame_of(a) == Blame::submission || blame_of(b) == Blame::submission ? Blame::submission : Blame::rubric;
}

std::optional<Value> want_tensor(CallContext& ctx, const Args& a, std::size_t i) {
  return builtins::want(ctx, a, i, ValueKind::tensor, "a tensor");
}

Value shape_value(const tensor::Shape& s) {
  List items;
  for (auto d : s) items.push_back(Value::number(static_cast<double>(d)));
  return Value::list(std::move(items));
}

// Runs an operator on tensors, turning its OperatorError into an error value with the right blame.
template <class Fn>
Value guarded(CallContext& ctx, Blame blame, Fn&& fn) {
  try {
    return fn();
  } catch (const files::FileChanged&) {
    throw;  // blamed on the file that shrank, by the evaluator (interpreter/shrunk_files.hpp)
  } catch (const OperatorError& e) {
    return ctx.error(fmt::format("'{}': {}", ctx.function_name(), e.what()), blame);
  }
}

Value load(CallContext& ctx, const Args& a) {
  if (auto e = builtins::want(ctx, a, 0, ValueKind::path, "a path")) return *e;
  const PathValue& p = a[0].as_path();
  Value err;
  auto real = ctx.resolve_file(p, &err);
  if (!real) return err;
  std::string name = a[1].is(ValueKind::string) ? a[1].as_string() : "";
  std::string key = fmt::format("tensor:{}:{}:{}:{}", *real, name, a[2].to_string(), a[3].to_string());
  if (auto hit = ctx.cached(key)) return Value::tensor(std::static_pointer_cast<const tensor::Tensor>(hit));

  auto ends_with = [&](const char* ext) {
    std::string s = p.relative, x = ext;
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
  };
  try {
    // One mapping per file and run: a safetensors file's tensors share it, and its digest.
    const std::string map_key = "mapped:" + *real;
    std::shared_ptr<const tensor::MappedFile> file;
    if (auto hit = ctx.cached(map_key)) {
      file = std::static_pointer_cast<const tensor::MappedFile>(hit);
    } else {
      file = tensor::MappedFile::open(*real);
      ctx.store(map_key, file);
    }
    std::optional<tensor::Tensor> t;
    if (ends_with(".npy")) {
      t = tensor::load_npy(file);
    } else if (ends_with(".safetensors")) {
      if (name.empty())
        return ctx.error(fmt::format("load({}) needs the tensor's name: load(p, \"weight\")", p.display()));
      t = tensor::load_safetensors(file, name);
    } else {
      if (a[2].is_null() || a[3].is_null())
        return ctx.error(fmt::format("load({}): a raw file needs dtype = and shape = (or use .npy / .safetensors)",
                                     p.display()));
      auto dt = builtins::dtype_arg(a[2]);
      if (!dt) return ctx.bad_argument(3, "a dtype (f32, bf16, ...)", a[2]);
      tensor::Shape shape;
      if (auto e = builtins::shape_arg(ctx, a[3], 4, shape)) return *e;
      t = tensor::load_raw(file, *dt, shape);
    }
    // Hashed only now that the header is checked, on a thread beside the comparison that reads the data.
    ctx.record_mapped_file(p, file, file->data(), file->size(), [file] { return !file->damaged(); }, file->fd());
    // Messages and blame name the file by its root, not by where it lies on this machine.
    std::string source = name.empty() ? p.display() : fmt::format("{}:{}", p.display(), name);
    auto ptr = std::make_shared<const tensor::Tensor>(t->renamed(source, p.display()));
    ctx.store(key, ptr);
    return Value::tensor(ptr);
  } catch (const OperatorError& e) {
    // The reader names the file by where it lies on this machine; the report names it by its root.
    std::string message = e.what();
    for (std::size_t at = message.find(*real); at != std::string::npos; at = message.find(*real, at))
      message.replace(at, real->size(), p.display());
    return ctx.file_error(p, message);
  }
}

// The names of the tensors in a .safetensors file, sorted, from its header alone.
Value tensor_names(CallContext& ctx, const Args& a) {
  if (auto e = builtins::want(ctx, a, 0, ValueKind::path, "a path")) return *e;
  const PathValue& p = a[0].as_path();
  Value err;
  auto real = ctx.resolve_file(p, &err);
  if (!real) return err;
  try {
    const tensor::SafetensorsIndex index = tensor::read_safetensors_index(*real);
    auto file = tensor::MappedFile::open(*real);
    ctx.record_mapped_file(p, file, file->data(), file->size(), [file] { return !file->damaged(); });
    List names;
    for (const std::string& n : index.names()) names.push_back(Value::string(n));
    return Value::list(std::move(names), fmt::format("the tensors in {}", p.display()),
                       fmt::format("{} holds no tensor", p.display()));
  } catch (const OperatorError& e) {
    std::string message = e.what();
    for (std::size_t at = message.find(*real); at != std::string::npos; at = message.find(*real, at))
      message.replace(at, real->size(), p.display());
    return ctx.file_error(p, message);
  }
}

std::optional<CheckOutcome> tensor_matches(CallContext& ctx, const Value& a, const Value& b, const MatchTolerance& mt) {
  if (!is_tensor(a) && !is_tensor(b)) return std::nullopt;
  CheckOutcome o;
  if (!is_tensor(a) || !is_tensor(b)) {
    // The side that is not a tensor answers: the candidate's string FAILs, the rubric's number is its ERROR.
    o.blame = owner_of(is_tensor(a) ? b : a);
    o.verdict = o.blame == Blame::submission ? Verdict::fail : Verdict::error;
    o.explanation = fmt::format("'matches' compares a tensor with a tensor, got a {} and a {}", a.kind_name(), b.kind_name());
    return o;
  }
  const tensor::Tensor& x = *a.as_tensor();
  const tensor::Tensor& y = *b.as_tensor();
  if (x.shape() != y.shape()) {
    o.verdict = Verdict::fail;
    o.evidence = {numerics::shape_mismatch_evidence(x.shape(), y.shape())};
    o.explanation = "shapes differ (no broadcasting)";
    return o;
  }
  numerics::Tolerance tol = tolerance_for(x, y, mt);
  return comparison_outcome(compare_tensors(ctx, x, y, tol, numerics::Figures::shown), x, y, tol, mt);
}

// A two-tensor metric: its name, how one CompareStats gives it, and which way is worse.
struct PairMetric {
  const char* name;
  double (*of)(const numerics::CompareStats&);
  bool larger_is_worse;
  // The metric as an exact integer where it is one (a ULP count; the difference of integer
  // tensors), which a double rounds past 2^53; nullopt otherwise.
  std::optional<tensor::WideUnsigned> (*exact)(const numerics::CompareStats&) = nullptr;
};

// `axis =`: one whole number or a list of them (the axes reduced, as numpy's axis / torch's dim).
std::optional<Value> axes_arg(CallContext& ctx, const Value& v, int argno, std::vector<std::int64_t>& axes) {
  auto whole = [](const Value& x) {
    return x.is(ValueKind::number) && x.as_quantity().dim.dimensionless() && x.as_number() == std::floor(x.as_number()) &&
           std::fabs(x.as_number()) < 1e9;
  };
  if (whole(v)) {
    axes.push_back(static_cast<std::int64_t>(v.as_number()));
    return std::nullopt;
  }
  if (v.is(ValueKind::list) && !v.as_list().empty()) {
    for (const Value& x : v.as_list()) {
      if (!whole(x)) return ctx.bad_argument(argno, "an axis (a whole number) or a list of axes", v);
      axes.push_back(static_cast<std::int64_t>(x.as_number()));
    }
    return std::nullopt;
  }
  return ctx.bad_argument(argno, "an axis (a whole number) or a list of axes", v);
}

// The evidence line of a per-axis metric, remembered with its result so that `max`/`min` of it
// can show the line again when the metric was computed outside the check.
struct AxisMetricNote {
  std::shared_ptr<const tensor::Tensor> result;
  std::string line;
};
std::string axis_note_key(const tensor::Tensor* t) { return fmt::format("axis-metric:{}", static_cast<const void*>(t)); }

Value per_axis_metric(CallContext& ctx, const tensor::Tensor& x, const tensor::Tensor& y, const PairMetric& m,
                      const numerics::Tolerance& tol, const std::vector<std::int64_t>& axes, bool keepdims) {
  // The operands as the rubric wrote them (arguments 1 and 2 of every per-axis metric).
  const std::string a_name = operand_for_evidence(ctx.describe_argument(1), x.source());
  const std::string b_name = operand_for_evidence(ctx.describe_argument(2), y.source());
  const auto reduced = numerics::normalize_axes(axes, x.rank());
  std::string axis_text = axes.size() == 1 ? fmt::format("{}", axes[0]) : fmt::format("[{}]", fmt::join(axes, ", "));
  const std::string args_text = keepdims ? axis_text + ", keepdims = true" : axis_text;
  // Cached per pair, tolerance and axes for tensors from files, as the full comparison is.
  auto from_file = [](const tensor::Tensor& t) {
    return t.source().rfind("submission/", 0) == 0 || t.source().rfind("reference/", 0) == 0;
  };
  std::string key;
  std::shared_ptr<const numerics::AxisStats> stats;
  if (from_file(x) && from_file(y)) {
    key = fmt::format("compare-axis:{}:{}:{}:{}:{}:{}", x.source(), y.source(), tol.rtol, tol.atol, tol.ulp,
                      fmt::join(reduced, ","));
    stats = std::static_pointer_cast<const numerics::AxisStats>(ctx.cached(key));
  }
  if (!stats) {
    stats = std::make_shared<const numerics::AxisStats>(numerics::compare_along(x, y, axes, tol));
    if (!key.empty()) ctx.store(key, stats);
  }
  std::vector<double> values;
  values.reserve(stats->stats.size());
  for (const auto& cs : stats->stats) values.push_back(m.of(cs));
  auto bytes = tensor::allocate_elements(static_cast<std::int64_t>(values.size()), sizeof(double), m.name);
  std::memcpy(bytes.data(), values.data(), values.size() * sizeof(double));
  // keepdims: the reduced axes stay, with length 1 (numpy's keepdims); the order of the values
  // is the same, so only the shape changes.
  tensor::Shape shape = stats->shape;
  if (keepdims) {
    shape.assign(x.shape().begin(), x.shape().end());
    for (std::size_t r : reduced) shape[r] = 1;
  }
  auto result = std::make_shared<const tensor::Tensor>(tensor::Tensor::from_bytes(
      tensor::DType::f64, shape, std::move(bytes),
      fmt::format("{}({}, {}, axis = {})", m.name, x.source(), y.source(), args_text)));
  // Exact metrics are ranked and printed as the integers they are (2^53 + 1 beats 2^53).
  std::vector<tensor::WideUnsigned> exact;
  for (const auto& cs : stats->stats) {
    const auto v = m.exact ? m.exact(cs) : std::nullopt;
    if (!v) break;
    exact.push_back(*v);
  }
  const bool all_exact = !exact.empty() && exact.size() == values.size();
  std::int64_t worst = numerics::worst_position(values, m.larger_is_worse);
  if (all_exact) {
    const auto at = m.larger_is_worse ? std::max_element(exact.begin(), exact.end()) : std::min_element(exact.begin(), exact.end());
    worst = at - exact.begin();
  }
  if (worst >= 0) {
    const auto w = static_cast<std::size_t>(worst);
    PerAxisWorst at{m.name, a_name, b_name, x.shape(), reduced, worst, values.size(), values[w], std::nullopt};
    if (all_exact) at.exact = exact[w];
    std::string line = per_axis_evidence(at);
    ctx.note_evidence(line);
    ctx.store(axis_note_key(result.get()), std::make_shared<const AxisMetricNote>(AxisMetricNote{result, line}));
  }
  Value out = Value::tensor(result);
  if (blame_of(x, y) == Blame::submission) out.mark_from_submission();
  return out;
}

// `keepdims =`: true or false; true only beside `axis =`.
std::optional<Value> keepdims_arg(CallContext& ctx, const Args& a, std::size_t at, bool has_axes, bool& out) {
  if (at >= a.size()) return std::nullopt;
  if (!a[at].is(ValueKind::boolean)) return ctx.bad_argument(static_cast<int>(at + 1), "true or false (keepdims)", a[at]);
  out = a[at].as_bool();
  if (out && !has_axes)
    return ctx.error(fmt::format("'{}': keepdims = true applies to a per-axis metric: give axis = too", ctx.function_name()));
  return std::nullopt;
}

// The two-tensor metrics share one fused pass; with `axis`, one pass per kept position.
Value pair_metric(CallContext& ctx, const Args& a, const PairMetric& m, std::size_t axis_arg = 2) {
  if (auto e = want_tensor(ctx, a, 0)) return *e;
  if (auto e = want_tensor(ctx, a, 1)) return *e;
  const auto& x = *a[0].as_tensor();
  const auto& y = *a[1].as_tensor();
  std::vector<std::int64_t> axes;
  if (axis_arg < a.size() && !a[axis_arg].is_null())
    if (auto e = axes_arg(ctx, a[axis_arg], static_cast<int>(axis_arg + 1), axes)) return *e;
  bool keepdims = false;
  if (auto e = keepdims_arg(ctx, a, axis_arg + 1, !axes.empty(), keepdims)) return *e;
  const numerics::Tolerance tol = numerics::default_tolerance(x.dtype(), y.dtype());
  // A shape mismatch is the blamed side's; a bad axis is the rubric's.
  try {
    numerics::require_same_shape(x, y);
  } catch (const OperatorError& e) {
    return ctx.error(fmt::format("'{}': {}", ctx.function_name(), e.what()), blame_of(x, y));
  }
  if (!axes.empty()) {
    try {
      numerics::normalize_axes(axes, x.rank());
    } catch (const OperatorError& e) {
      // The shapes agree, so an axis past the rank is whoever wrote the axis: the rubric's ERROR.
      return ctx.error(fmt::format("'{}': {} (shape {})", ctx.function_name(), e.what(), tensor::format_shape(x.shape())),
                       owner_of(a[axis_arg]));
    }
    return guarded(ctx, blame_of(x, y), [&] { return per_axis_metric(ctx, x, y, m, tol, axes, keepdims); });
  }
  return guarded(ctx, blame_of(x, y), [&] { return Value::number(m.of(compare_tensors(ctx, x, y, tol))); });
}

Value summary_metric(CallContext& ctx, const Args& a, double numerics::TensorSummary::*field) {
  if (auto e = want_tensor(ctx, a, 0)) return *e;
  const auto& t = *a[0].as_tensor();
  // The max (or min) of a per-axis metric shows where its worst position lies.
  if (auto note = std::static_pointer_cast<const AxisMetricNote>(ctx.cached(axis_note_key(&t))))
    ctx.note_evidence(note->line);
  return guarded(ctx, blame_of(t), [&] { return Value::number(numerics::summarize(t).*field); });
}

Value count_metric(CallContext& ctx, const Args& a, std::int64_t numerics::TensorSummary::*field) {
  if (auto e = want_tensor(ctx, a, 0)) return *e;
  const auto& t = *a[0].as_tensor();
  return guarded(ctx, blame_of(t), [&] { return Value::number(static_cast<double>(numerics::summarize(t).*field)); });
}

// `t[0]`, `t[:, 3]`, `t[1:-1:2, ...]`: a view, no copy. An index past the end of a submission's
// tensor is the submission's failure; a step of 0 or two ellipses is the rubric's error.
std::optional<Value> index_tensor(CallContext& ctx, const Value& obj, const std::vector<SubscriptValue>& subs) {
  if (!is_tensor(obj)) return std::nullopt;
  const auto& t = *obj.as_tensor();
  std::vector<tensor::Subscript> ts;
  for (const auto& s : subs) {
    tensor::Subscript x;
    x.kind = s.kind == ast::Subscript::Kind::index   ? tensor::Subscript::Kind::index
             : s.kind == ast::Subscript::Kind::range ? tensor::Subscript::Kind::range
                                                     : tensor::Subscript::Kind::ellipsis;
    x.index = s.index;
    x.start = s.start;
    x.stop = s.stop;
    x.step = s.step;
    ts.push_back(x);
  }
  const Blame owner = obj.from_submission() ? Blame::submission : blame_of(t);
  try {
    tensor::Tensor view = tensor::slice(t, ts);
    // Every axis indexed by a number gives the element itself, as numpy gives a scalar.
    const bool element = view.rank() == 0 && t.rank() > 0 &&
                         std::all_of(ts.begin(), ts.end(), [](const tensor::Subscript& x) { return x.kind == tensor::Subscript::Kind::index; });
    Value out = element ? Value::number(view.at(0)) : Value::tensor(std::make_shared<const tensor::Tensor>(std::move(view)));
    if (obj.from_submission() || owner == Blame::submission) out.mark_from_submission();
    return out;
  } catch (const tensor::IndexOutOfRange& e) {
    return ctx.error(e.what(), owner);
  } catch (const files::FileChanged&) {
    throw;
  } catch (const OperatorError& e) {
    return ctx.error(e.what(), Blame::rubric);
  }
}

bool first_is_tensor(const Args& a) { return !a.empty() && is_tensor(a[0]); }

}  // namespace

void open_tensors(Registry& r) {
  const std::string fam = "tensors";
  r.add("load", {P("p"), P("name", Value()), P("dtype", Value()), P("shape", Value())}, false,
        "A tensor from a file, memory-mapped: .npy (v1-v3, C or Fortran order, any byte order), .safetensors "
        "(load(p, \"name\")), or raw elements (load(p, dtype = f32, shape = [n, m])).",
        fam, load);
  r.add("tensor_names", {P("p")}, false,
        "The names of the tensors in a .safetensors file, sorted (read from its header): what load(p, name) takes.", fam,
        tensor_names);
  r.add("random", {P("shape"), P("dtype", Value::string("f32")), P("seed", Value())}, false,
        "A deterministic random tensor: floats uniform in [-1, 1), integers over their range; the same seed gives the "
        "same data on every machine (default seed: the rubric's).",
        fam, [](CallContext& ctx, const Args& a) {
          tensor::Shape shape;
          if (auto e = builtins::shape_arg(ctx, a[0], 1, shape)) return *e;
          auto dt = builtins::dtype_arg(a[1]);
          if (!dt) return ctx.bad_argument(2, "a dtype (f32, bf16, ...)", a[1]);
          std::uint64_t seed = ctx.seed();
          if (!a[2].is_null()) {
            if (auto e = builtins::want_plain(ctx, a, 2)) return *e;
            seed = static_cast<std::uint64_t>(std::llround(a[2].as_number()));
          }
          return guarded(ctx, Blame::rubric, [&] {
            auto t = std::make_shared<const tensor::Tensor>(tensor::random_tensor(shape, *dt, seed));
            return Value::tensor(t);
          });
        });
  r.add("cast", {P("t"), P("dtype")}, false,
        "The tensor converted to another dtype (round to nearest even; f16/bf16/e5m2 overflow to inf, e4m3 saturates).",
        fam, [](CallContext& ctx, const Args& a) {
          if (auto e = want_tensor(ctx, a, 0)) return *e;
          auto dt = builtins::dtype_arg(a[1]);
          if (!dt) return ctx.bad_argument(2, "a dtype (f32, bf16, ...)", a[1]);
          return guarded(ctx, blame_of(*a[0].as_tensor()), [&] {
            return Value::tensor(std::make_shared<const tensor::Tensor>(tensor::cast(*a[0].as_tensor(), *dt)));
          });
        });

  static const PairMetric kMaxAbs{"max_abs_err", numerics::max_abs_err, true,
                                  [](const numerics::CompareStats& s) {
                                    return s.integers ? std::optional(s.max_abs_integer) : std::nullopt;
                                  }};
  static const PairMetric kMaxRel{"max_rel_err", numerics::max_rel_err, true};
  static const PairMetric kRelL2{"rel_l2", numerics::rel_l2, true};
  static const PairMetric kCosine{"cosine", numerics::cosine, false};
  static const PairMetric kMaxUlp{"max_ulp",
                                  [](const numerics::CompareStats& s) { return s.integers ? s.max_abs : static_cast<double>(s.max_ulp); },
                                  true, [](const numerics::CompareStats& s) {
                                    // An integer's ULP distance is its difference, past 64 bits too.
                                    return std::optional(s.integers ? s.max_abs_integer : tensor::WideUnsigned{s.max_ulp});
                                  }};
  const std::string per_axis =
      " With axis = k (or a list of axes), a tensor: the metric over the axes named, one value per position of the "
      "others (numpy's axis, torch's dim); the evidence names the worst position. keepdims = true keeps the reduced "
      "axes with length 1, as numpy's keepdims.";
  r.add("max_abs_err", {P("a"), P("b"), P("axis", Value()), P("keepdims", Value::boolean(false))}, false, "Greatest |a - b| (NaN if either holds NaN)." + per_axis,
        fam, [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, kMaxAbs); });
  r.add("max_rel_err", {P("a"), P("b"), P("axis", Value()), P("keepdims", Value::boolean(false))}, false, "Greatest |a - b| / |b|, b the reference." + per_axis,
        fam, [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, kMaxRel); });
  r.add("rel_l2", {P("a"), P("b"), P("axis", Value()), P("keepdims", Value::boolean(false))}, false, "||a - b||_2 / ||b||_2, b the reference." + per_axis, fam,
        [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, kRelL2); });
  r.add("cosine", {P("a"), P("b"), P("axis", Value()), P("keepdims", Value::boolean(false))}, false, "Cosine similarity a.b / (||a|| ||b||)." + per_axis, fam,
        [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, kCosine); });
  r.add("max_ulp", {P("a"), P("b"), P("axis", Value()), P("keepdims", Value::boolean(false))}, false,
        "Greatest distance in units in the last place of a's dtype." + per_axis, fam,
        [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, kMaxUlp); });
  r.add("frac_close", {P("a"), P("b"), P("rtol", Value()), P("atol", Value()), P("axis", Value()),
                       P("keepdims", Value::boolean(false))},
        false,
        "The fraction of elements with |a - b| <= atol + rtol |b| (defaults: the dtypes' tolerances)." + per_axis, fam,
        [](CallContext& ctx, const Args& a) {
          if (auto e = want_tensor(ctx, a, 0)) return *e;
          if (auto e = want_tensor(ctx, a, 1)) return *e;
          const auto& x = *a[0].as_tensor();
          const auto& y = *a[1].as_tensor();
          numerics::Tolerance tol = numerics::default_tolerance(x.dtype(), y.dtype());
          for (std::size_t i : {2u, 3u}) {
            if (a[i].is_null()) continue;
            if (auto e = builtins::want_plain(ctx, a, i)) return *e;
            // A negative, NaN or infinite tolerance: its writer's mistake, never a fraction.
            if (!numerics::is_tolerance_bound(a[i].as_number()))
              return ctx.data_error(fmt::format("bad argument '{}' to 'frac_close' (a finite tolerance of 0 or more, got {})",
                                                i == 2 ? "rtol" : "atol", ctx.data_name(static_cast<int>(i + 1), a[i], a[i].to_string())),
                                    a[i]);
            (i == 2 ? tol.rtol : tol.atol) = a[i].as_number();
          }
          std::vector<std::int64_t> axes;
          if (!a[4].is_null())
            if (auto e = axes_arg(ctx, a[4], 5, axes)) return *e;
          bool keepdims = false;
          if (auto e = keepdims_arg(ctx, a, 5, !axes.empty(), keepdims)) return *e;
          static const PairMetric kFracClose{"frac_close", numerics::frac_close, false};
          try {
            numerics::require_same_shape(x, y);
            if (!axes.empty()) numerics::normalize_axes(axes, x.rank());
          } catch (const OperatorError& e) {
            // Shapes that differ are the blamed tensor's; with equal shapes a bad axis is its writer's.
            if (x.shape() != y.shape()) return ctx.error(fmt::format("'frac_close': {}", e.what()), blame_of(x, y));
            return ctx.error(fmt::format("'frac_close': {} (shape {})", e.what(), tensor::format_shape(x.shape())), owner_of(a[4]));
          }
          return guarded(ctx, blame_of(x, y), [&] {
            if (!axes.empty()) return per_axis_metric(ctx, x, y, kFracClose, tol, axes, keepdims);
            return Value::number(numerics::frac_close(compare_tensors(ctx, x, y, tol, numerics::Figures::shown)));
          });
        });
  r.add("frac_near_zero", {P("t"), P("atol")}, false,
        "The fraction of elements with |x| <= atol: how much of a reference an all-zero output would match to an "
        "absolute tolerance atol.", fam,
        [](CallContext& ctx, const Args& a) {
          if (!first_is_tensor(a)) return ctx.bad_argument(1, "a tensor", a[0]);
          if (auto e = builtins::want_plain(ctx, a, 1)) return *e;
          const double atol = a[1].as_number();
          if (!(atol >= 0)) return ctx.error(fmt::format("'frac_near_zero' needs a tolerance of 0 or more, got {}", a[1].repr(5)), owner_of(a[1]));
          const tensor::Tensor& t = *a[0].as_tensor();
          return guarded(ctx, owner_of(a[0]), [&] {
            return Value::number(t.size() == 0 ? 0.0 : static_cast<double>(numerics::count_within(t, atol)) / static_cast<double>(t.size()));
          });
        });
  r.add("nan_count", {P("t")}, false, "The number of NaN elements.", fam,
        [](CallContext& ctx, const Args& a) { return count_metric(ctx, a, &numerics::TensorSummary::nan_count); });
  r.add("inf_count", {P("t")}, false, "The number of infinite elements.", fam,
        [](CallContext& ctx, const Args& a) { return count_metric(ctx, a, &numerics::TensorSummary::inf_count); });
  r.add("std", {P("t")}, false, "The population standard deviation of a tensor's elements (numpy's default).", fam,
        [](CallContext& ctx, const Args& a) { return summary_metric(ctx, a, &numerics::TensorSummary::std); });

  // min/max/mean of a tensor sit beside the list and sample versions of the same names.
  struct Overload {
    const char* name;
    double numerics::TensorSummary::*field;
    const char* doc;
  };
  for (const Overload& o : {Overload{"min", &numerics::TensorSummary::min, "The smallest element of a tensor."},
                            Overload{"max", &numerics::TensorSummary::max, "The largest element of a tensor."},
                            Overload{"mean", &numerics::TensorSummary::mean, "The mean of a tensor's elements."}}) {
    Builtin b;
    b.name = o.name;
    b.params = {P("t")};
    b.doc = o.doc;
    b.family = fam;
    auto field = o.field;
    b.fn = [field](CallContext& ctx, const Args& a) { return summary_metric(ctx, a, field); };
    b.applies = [](const Args& a) { return a.size() == 1 && first_is_tensor(a); };
    r.add(std::move(b));
  }

  r.add("topk_agree", {P("a"), P("b"), P("k", Value::number(1))}, false,
        "The fraction of rows (slices along the last axis) whose top-k index sets agree.", fam,
        [](CallContext& ctx, const Args& a) {
          if (auto e = want_tensor(ctx, a, 0)) return *e;
          if (auto e = want_tensor(ctx, a, 1)) return *e;
          if (auto e = builtins::want_plain(ctx, a, 2)) return *e;
          const auto& x = *a[0].as_tensor();
          const auto& y = *a[1].as_tensor();
          // k is checked against the reference's last axis: a k it cannot hold is k's writer's mistake
          // (the rubric's ERROR); a candidate tensor of another shape is the candidate's FAIL below.
          const double k = a[2].as_number();
          const double last = y.rank() > 0 ? static_cast<double>(y.shape().back()) : 0;
          if (!(k >= 1 && k == std::floor(k) && (y.rank() == 0 || k <= last)))
            return ctx.data_error(fmt::format("bad argument #3 to 'topk_agree' (k, a whole number in [1, {}] for a last axis of {}, got {})",
                                              format_number(last), format_number(last), ctx.data_name(3, a[2], a[2].to_string())),
                                  a[2]);
          return guarded(ctx, blame_of(x, y), [&] {
            return Value::number(numerics::topk_agree(x, y, static_cast<std::int64_t>(k)));
          });
        });
  r.add("kl_div", {P("p"), P("q")}, false,
        "Mean over rows of KL(softmax(p) || softmax(q)) along the last axis (natural log).", fam,
        [](CallContext& ctx, const Args& a) {
          if (auto e = want_tensor(ctx, a, 0)) return *e;
          if (auto e = want_tensor(ctx, a, 1)) return *e;
          const auto& x = *a[0].as_tensor();
          const auto& y = *a[1].as_tensor();
          return guarded(ctx, blame_of(x, y), [&] { return Value::number(numerics::kl_div(x, y)); });
        });

  r.add_field_hook([](CallContext&, const Value& obj, const std::string& field) -> std::optional<Value> {
    if (!is_tensor(obj)) return std::nullopt;
    const auto& t = *obj.as_tensor();
    if (field == "shape") return shape_value(t.shape());
    if (field == "dtype") return Value::string(std::string(tensor::dtype_name(t.dtype())));
    if (field == "size") return Value::number(static_cast<double>(t.size()));
    if (field == "rank") return Value::number(static_cast<double>(t.rank()));
    return Value::error(fmt::format("a tensor has no field '{}'; fields: shape, dtype, size, rank", field));
  });
  r.add_matches_hook(tensor_matches);
  r.add_index_hook(index_tensor);
}

}  // namespace rubric
