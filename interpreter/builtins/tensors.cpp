// Tensors: load random cast, the comparison metrics, summaries, logits metrics, `.shape`
// `.dtype` `.size`, and `matches` on tensors. Binds operators/tensor and operators/numerics.
#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/builtins/tensor_compare.hpp"
#include "operators/error.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/numerics/evidence.hpp"
#include "operators/numerics/logits.hpp"
#include "operators/numerics/summary.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/tensor/cast.hpp"
#include "operators/tensor/index_format.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/random.hpp"
#include "operators/tensor/raw.hpp"
#include "operators/tensor/safetensors.hpp"
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
  } catch (const OperatorError& e) {
    return ctx.error(fmt::format("'{}': {}", ctx.function_name(), e.what()), blame);
  }
}

Value load(CallContext& ctx, const Args& a) {
  if (auto e = builtins::want(ctx, a, 0, ValueKind::path, "a path")) return *e;
  const PathValue& p = a[0].as_path();
  Value err;
  auto real = ctx.open_file(p, &err);
  if (!real) return err;
  std::string name = a[1].is(ValueKind::string) ? a[1].as_string() : "";
  std::string key = fmt::format("tensor:{}:{}:{}:{}", *real, name, a[2].to_string(), a[3].to_string());
  if (auto hit = ctx.cached(key)) return Value::tensor(std::static_pointer_cast<const tensor::Tensor>(hit));

  auto ends_with = [&](const char* ext) {
    std::string s = p.relative, x = ext;
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
  };
  try {
    std::optional<tensor::Tensor> t;
    if (ends_with(".npy")) {
      t = tensor::load_npy(*real);
    } else if (ends_with(".safetensors")) {
      if (name.empty())
        return ctx.error(fmt::format("load({}) needs the tensor's name: load(p, \"weight\")", p.display()));
      t = tensor::load_safetensors(*real, name);
    } else {
      if (a[2].is_null() || a[3].is_null())
        return ctx.error(fmt::format("load({}): a raw file needs dtype = and shape = (or use .npy / .safetensors)",
                                     p.display()));
      auto dt = builtins::dtype_arg(a[2]);
      if (!dt) return ctx.bad_argument(3, "a dtype (f32, bf16, ...)", a[2]);
      tensor::Shape shape;
      if (auto e = builtins::shape_arg(ctx, a[3], 4, shape)) return *e;
      t = tensor::load_raw(*real, *dt, shape);
    }
    // Messages and blame name the file by its root, not by where it lies on this machine.
    std::string source = name.empty() ? p.display() : fmt::format("{}:{}", p.display(), name);
    auto ptr = std::make_shared<const tensor::Tensor>(t->dtype(), t->shape(), t->data(), t->byte_strides(),
                                                      t->byte_swapped(), std::make_shared<tensor::Tensor>(*t), source);
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

std::optional<CheckOutcome> tensor_matches(CallContext& ctx, const Value& a, const Value& b, const MatchTolerance& mt) {
  if (!is_tensor(a) && !is_tensor(b)) return std::nullopt;
  CheckOutcome o;
  if (!is_tensor(a) || !is_tensor(b)) {
    o.verdict = Verdict::error;
    o.blame = Blame::rubric;
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
  return comparison_outcome(compare_tensors(ctx, x, y, tol), x, y, tol, mt);
}

// The two-tensor metrics share one fused pass; `metric` picks the number from it.
Value pair_metric(CallContext& ctx, const Args& a, double (*metric)(const numerics::CompareStats&)) {
  if (auto e = want_tensor(ctx, a, 0)) return *e;
  if (auto e = want_tensor(ctx, a, 1)) return *e;
  const auto& x = *a[0].as_tensor();
  const auto& y = *a[1].as_tensor();
  return guarded(ctx, blame_of(x, y), [&] {
    numerics::require_same_shape(x, y);
    return Value::number(metric(compare_tensors(ctx, x, y, numerics::default_tolerance(x.dtype(), y.dtype()))));
  });
}

Value summary_metric(CallContext& ctx, const Args& a, double numerics::TensorSummary::*field) {
  if (auto e = want_tensor(ctx, a, 0)) return *e;
  const auto& t = *a[0].as_tensor();
  return guarded(ctx, blame_of(t), [&] { return Value::number(numerics::summarize(t).*field); });
}

Value count_metric(CallContext& ctx, const Args& a, std::int64_t numerics::TensorSummary::*field) {
  if (auto e = want_tensor(ctx, a, 0)) return *e;
  const auto& t = *a[0].as_tensor();
  return guarded(ctx, blame_of(t), [&] { return Value::number(static_cast<double>(numerics::summarize(t).*field)); });
}

bool first_is_tensor(const Args& a) { return !a.empty() && is_tensor(a[0]); }

}  // namespace

void open_tensors(Registry& r) {
  const std::string fam = "tensors";
  r.add("load", {P("p"), P("name", Value()), P("dtype", Value()), P("shape", Value())}, false,
        "A tensor from a file, memory-mapped: .npy (v1-v3, C or Fortran order, any byte order), .safetensors "
        "(load(p, \"name\")), or raw elements (load(p, dtype = f32, shape = [n, m])).",
        fam, load);
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

  r.add("max_abs_err", {P("a"), P("b")}, false, "Greatest |a - b| (NaN if either holds NaN).", fam,
        [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, numerics::max_abs_err); });
  r.add("max_rel_err", {P("a"), P("b")}, false, "Greatest |a - b| / |b|, b the reference.", fam,
        [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, numerics::max_rel_err); });
  r.add("rel_l2", {P("a"), P("b")}, false, "||a - b||_2 / ||b||_2, b the reference.", fam,
        [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, numerics::rel_l2); });
  r.add("cosine", {P("a"), P("b")}, false, "Cosine similarity a.b / (||a|| ||b||).", fam,
        [](CallContext& ctx, const Args& a) { return pair_metric(ctx, a, numerics::cosine); });
  r.add("max_ulp", {P("a"), P("b")}, false, "Greatest distance in units in the last place of a's dtype.", fam,
        [](CallContext& ctx, const Args& a) {
          return pair_metric(ctx, a, [](const numerics::CompareStats& s) { return static_cast<double>(s.max_ulp); });
        });
  r.add("frac_close", {P("a"), P("b"), P("rtol", Value()), P("atol", Value())}, false,
        "The fraction of elements with |a - b| <= atol + rtol |b| (defaults: the dtypes' tolerances).", fam,
        [](CallContext& ctx, const Args& a) {
          if (auto e = want_tensor(ctx, a, 0)) return *e;
          if (auto e = want_tensor(ctx, a, 1)) return *e;
          const auto& x = *a[0].as_tensor();
          const auto& y = *a[1].as_tensor();
          numerics::Tolerance tol = numerics::default_tolerance(x.dtype(), y.dtype());
          for (std::size_t i : {2u, 3u}) {
            if (a[i].is_null()) continue;
            if (auto e = builtins::want_plain(ctx, a, i)) return *e;
            (i == 2 ? tol.rtol : tol.atol) = a[i].as_number();
          }
          return guarded(ctx, blame_of(x, y), [&] {
            numerics::require_same_shape(x, y);
            return Value::number(numerics::frac_close(compare_tensors(ctx, x, y, tol)));
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
          return guarded(ctx, blame_of(x, y), [&] {
            return Value::number(numerics::topk_agree(x, y, static_cast<std::int64_t>(a[2].as_number())));
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
}

}  // namespace rubric
