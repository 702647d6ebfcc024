// Samples and their statistics: samples median mean p stdev cv ci (on samples, or on lists of numbers).
#include <cmath>
#include <fmt/format.h>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/registry.hpp"
#include "operators/error.hpp"
#include "operators/stats/bootstrap.hpp"
#include "operators/stats/summary.hpp"

namespace rubric {

namespace {

// The values of samples (a single leaf set) or of a list of numbers. Derived samples (t0 / t)
// have no values of their own: their statistics go through the point estimate of medians.
std::optional<Value> sample_values(CallContext& ctx, const Value& v, std::vector<double>& xs, Dimension& dim) {
  if (v.is(ValueKind::samples)) {
    const Samples& s = v.as_samples();
    dim = s.dim();
    if (s.expr->op != SampleExpr::Op::leaf)
      return ctx.error(fmt::format("'{}' of derived samples ({}): take it of each measured set instead", ctx.function_name(),
                                   s.description()));
    xs = s.expr->leaf->values;
    return std::nullopt;
  }
  if (v.is(ValueKind::list)) {
    if (auto e = builtins::numbers_of(ctx, v, 1, xs, dim)) return e;
    // A NaN is the fault of whoever wrote it: the item's own blame, or the list's.
    for (std::size_t i = 0; i < xs.size(); ++i)
      if (std::isnan(xs[i])) {
        const Value& item = v.as_list()[i];
        return ctx.data_error(fmt::format("'{}' of a list holding NaN (not a number) at [{}]{}", ctx.function_name(), i,
                                          ctx.data_name(1, v, "")),
                              carries_submission_data(item) ? item : v);
      }
    return std::nullopt;
  }
  return ctx.bad_argument(1, "samples or a list of numbers", v);
}

using Stat = double (*)(const std::vector<double>&);

Value statistic(CallContext& ctx, const std::vector<Value>& a, Stat f, bool keeps_unit) {
  std::vector<double> xs;
  Dimension dim;
  if (a[0].is(ValueKind::samples) && a[0].as_samples().expr->op != SampleExpr::Op::leaf && f == &stats::median)
    return Value::number(a[0].as_samples().point_estimate(), a[0].as_samples().dim());
  if (auto e = sample_values(ctx, a[0], xs, dim)) return *e;
  // A zero mean is a property of the values: the candidate's values in a list the rubric built
  // (cv([j.a, j.b])) FAIL, as a NaN item does. Too few values stays with the list's writer.
  if (f == &stats::cv && xs.size() >= 2 && stats::mean(xs) == 0 && a[0].is(ValueKind::list)) {
    const Value* owner = &a[0];
    for (const Value& item : a[0].as_list())
      if (carries_submission_data(item)) owner = &item;
    return ctx.data_error(fmt::format("'cv' of {}: the mean is 0, the coefficient of variation is undefined",
                                      ctx.data_name(1, a[0], "the data")),
                          *owner);
  }
  try {
    return Value::number(f(xs), keeps_unit ? dim : Dimension{});
  } catch (const OperatorError& e) {
    return ctx.data_error(fmt::format("'{}' of {}: {}", ctx.function_name(), ctx.data_name(1, a[0], "the data"), e.what()), a[0]);
  }
}

}  // namespace

void open_statistics(Registry& r) {
  const std::string fam = "statistics";
  r.mark_keeps_unit({"median", "mean", "stdev", "p"});
  r.add("samples", {P("xs"), P("description", Value::string(""))}, false,
         "Recorded numbers (e.g. a stored baseline) as samples, so comparisons with them are decided statistically; "
         "`samples(xs) as ms` gives them a unit.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           SampleSet s;
           if (auto e = builtins::numbers_of(ctx, a[0], 1, s.values, s.dim)) return *e;
           if (s.values.empty())
             return ctx.data_error(fmt::format("'samples' of an empty list{}", ctx.data_name(1, a[0], "")), a[0]);
           for (std::size_t i = 0; i < s.values.size(); ++i)
             if (!std::isfinite(s.values[i])) {
               const Value& item = a[0].as_list()[i];
               return ctx.data_error(fmt::format("'samples' needs finite numbers, got {}",
                                                 ctx.data_name(1, a[0], fmt::format("{} at [{}]", format_quantity(s.values[i], s.dim), i))),
                                     carries_submission_data(item) ? item : a[0]);
             }
           if (auto e = builtins::want(ctx, a, 1, ValueKind::string, "a string")) return *e;
           s.description = a[1].as_string().empty() ? std::string("recorded values") : a[1].as_string();
           return Value::samples_of(std::move(s));
         });
  r.add("median", {P("s")}, false, "The median of samples or of a list of numbers (keeps the unit).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) { return statistic(ctx, a, &stats::median, true); });
  r.add("mean", {P("s")}, false, "The mean of samples or of a list of numbers (keeps the unit).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) { return statistic(ctx, a, &stats::mean, true); });
  r.add("stdev", {P("s")}, false, "The sample standard deviation (n - 1), keeping the unit; needs 2 samples.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) { return statistic(ctx, a, &stats::stdev, true); });
  r.add("cv", {P("s")}, false, "The coefficient of variation, stdev / |mean| (a plain number).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) { return statistic(ctx, a, &stats::cv, false); });
  r.add("p", {P("s"), P("q")}, false, "The q-th percentile (0..100, numpy's linear interpolation): p(s, 99).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           std::vector<double> xs;
           Dimension dim;
           if (auto e = sample_values(ctx, a[0], xs, dim)) return *e;
           if (auto e = builtins::want_plain(ctx, a, 1)) return *e;
           double q = a[1].as_number();
           if (!(q >= 0 && q <= 100))
             return ctx.data_error(fmt::format("bad argument #2 to 'p' (a percentile in 0..100, got {})", ctx.data_name(2, a[1], format_number(q))),
                                   a[1]);
           try {
             return Value::number(stats::percentile(xs, q), dim);
           } catch (const OperatorError& e) {
             return ctx.data_error(fmt::format("'p' of {}: {}", ctx.data_name(1, a[0], "the data"), e.what()), a[0]);
           }
         });
  r.add("ci", {P("s"), P("level", Value::number(0.95))}, false,
         "The bootstrap confidence interval of the median at `level` (default 95%), seeded from the rubric's seed: "
         "a record {lo, median, hi}.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           std::vector<double> xs;
           Dimension dim;
           if (auto e = sample_values(ctx, a[0], xs, dim)) return *e;
           if (auto e = builtins::want_plain(ctx, a, 1)) return *e;
           double level = a[1].as_number();
           if (!(level > 0 && level < 1))
             return ctx.data_error(fmt::format("bad argument #2 to 'ci' (a level in (0, 1) such as 95%, got {})",
                                               ctx.data_name(2, a[1], format_number(level))),
                                   a[1]);
           try {
             stats::Interval iv = stats::median_interval(xs, level, ctx.seed());
             Record r;
             r.fields = {{"lo", Value::number(iv.lo, dim)}, {"median", Value::number(iv.estimate, dim)}, {"hi", Value::number(iv.hi, dim)}};
             return Value::record(std::move(r));
           } catch (const OperatorError& e) {
             return ctx.data_error(fmt::format("'ci' of {}: {}", ctx.data_name(1, a[0], "the data"), e.what()), a[0]);
           }
         });
}

}  // namespace rubric
