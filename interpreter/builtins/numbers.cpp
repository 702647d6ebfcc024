// Numbers: abs min max clamp round sqrt log exp geomean, and the dtype names.
#include <cmath>
#include <fmt/format.h>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/registry.hpp"

namespace rubric {

namespace {

using builtins::want;
using builtins::want_plain;

// min/max over either one list or several arguments.
Value extremum(CallContext& ctx, const std::vector<Value>& args, bool want_max) {
  std::vector<Value> items;
  if (args.size() == 1 && args[0].is(ValueKind::list)) items = args[0].as_list();
  else items = args;
  if (items.empty())
    return args.empty() ? ctx.error(fmt::format("'{}' of nothing", ctx.function_name()))
                        : ctx.data_error(fmt::format("'{}' of an empty list{}", ctx.function_name(),
                                                     ctx.data_name(1, args[0], "") ), args[0]);
  const Value* best = nullptr;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Value& v = items[i];
    if (v.is_error()) return v;
    if (!v.is(ValueKind::number)) return ctx.bad_argument(static_cast<int>(args.size() == 1 ? 1 : i + 1), "numbers", v);
    if (best && best->as_quantity().dim != v.as_quantity().dim)
      return ctx.error(fmt::format("'{}' of numbers with different dimensions ({} and {})", ctx.function_name(),
                                   best->to_string(), v.to_string()));
    if (std::isnan(v.as_number())) return v;
    if (!best || (want_max ? v.as_number() > best->as_number() : v.as_number() < best->as_number())) best = &v;
  }
  return *best;
}

// A number outside a function's domain (a negative under sqrt, log of 0, a NaN): the submission's
// FAIL naming where it came from when the candidate wrote it, the rubric's ERROR when the rubric did.
Value domain_error(CallContext& ctx, const Value& x, const char* needs) {
  return ctx.data_error(fmt::format("'{}' needs {}, got {}", ctx.function_name(), needs, ctx.data_name(1, x, x.to_string())), x);
}

}  // namespace

void open_numbers(Registry& r) {
  const std::string fam = "numbers";
  r.mark_keeps_unit({"abs", "min", "max", "clamp", "round", "geomean"});
  r.add("abs", {P("x")}, false, "The absolute value; keeps the unit.", fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::number, "a number")) return *e;
           return Value::number(std::fabs(a[0].as_number()), a[0].as_quantity().dim);
         });
  r.add("min", {P("x")}, true, "The least of a list, or of several arguments (same unit).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) { return extremum(ctx, a, false); });
  r.add("max", {P("x")}, true, "The greatest of a list, or of several arguments (same unit).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) { return extremum(ctx, a, true); });
  r.add("clamp", {P("x"), P("lo"), P("hi")}, false, "x limited to [lo, hi] (all of one unit).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           for (std::size_t i = 0; i < 3; ++i)
             if (auto e = want(ctx, a, i, ValueKind::number, "a number")) return *e;
           const Dimension& d = a[0].as_quantity().dim;
           if (a[1].as_quantity().dim != d || a[2].as_quantity().dim != d)
             return ctx.error(fmt::format("'clamp' of {} to [{}, {}]: different dimensions", a[0].to_string(),
                                          a[1].to_string(), a[2].to_string()));
           for (std::size_t i = 0; i < 3; ++i)
             if (std::isnan(a[i].as_number()))
               return ctx.data_error(fmt::format("'clamp' needs numbers, not NaN, got {}", ctx.data_name(static_cast<int>(i + 1), a[i], "NaN")), a[i]);
           // Bounds the wrong way round clamp every x to hi: a bad bound, never a score.
           if (a[1].as_number() > a[2].as_number())
             return ctx.data_error(fmt::format("'clamp' of {} to [{}, {}]: the lower bound is above the upper", a[0].to_string(),
                                               a[1].to_string(), a[2].to_string()),
                                   carries_submission_data(a[1]) ? a[1] : a[2]);
           return Value::number(std::min(std::max(a[0].as_number(), a[1].as_number()), a[2].as_number()), d);
         });
  r.add("round", {P("x"), P("digits", Value::number(0))}, false,
         "x rounded to `digits` decimals (of its value in base units: s, B, tok, ...).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::number, "a number")) return *e;
           if (auto e = want_plain(ctx, a, 1)) return *e;
           const double digits = a[1].as_number();
           if (!(digits == std::floor(digits) && std::fabs(digits) <= 300))
             return ctx.data_error(fmt::format("bad argument #2 to 'round' (a whole number of decimals, got {})",
                                               ctx.data_name(2, a[1], a[1].to_string())),
                                   a[1]);
           double m = std::pow(10.0, digits);
           return Value::number(std::round(a[0].as_number() * m) / m, a[0].as_quantity().dim);
         });
  r.add("sqrt", {P("x")}, false, "The square root; a unit must have even powers (sqrt of s^2 is s).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::number, "a number")) return *e;
           Dimension d = a[0].as_quantity().dim, half;
           for (int i = 0; i < Dimension::count; ++i) {
             if (d.exp[i] % 2) return ctx.error(fmt::format("'sqrt' of {}: its unit has an odd power", a[0].to_string()));
             half.exp[i] = static_cast<std::int8_t>(d.exp[i] / 2);
           }
           if (!(a[0].as_number() >= 0)) return domain_error(ctx, a[0], "a number >= 0");
           return Value::number(std::sqrt(a[0].as_number()), half);
         });
  r.add("log", {P("x")}, false, "The natural logarithm of a plain number.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want_plain(ctx, a, 0)) return *e;
           if (!(a[0].as_number() > 0)) return domain_error(ctx, a[0], "a positive number");
           return Value::number(std::log(a[0].as_number()));
         });
  r.add("exp", {P("x")}, false, "e raised to a plain number.", fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want_plain(ctx, a, 0)) return *e;
           if (std::isnan(a[0].as_number())) return domain_error(ctx, a[0], "a number (not NaN)");
           double r = std::exp(a[0].as_number());
           if (std::isinf(r) && std::isfinite(a[0].as_number())) return domain_error(ctx, a[0], "a number up to 709 (e^x overflows)");
           return Value::number(r);
         });
  r.add("geomean", {P("xs")}, false, "The geometric mean of a list of positive numbers (keeps their unit).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           std::vector<double> xs;
           Dimension d;
           if (auto e = builtins::numbers_of(ctx, a[0], 1, xs, d)) return *e;
           if (xs.empty()) return ctx.data_error(fmt::format("'geomean' of an empty list{}", ctx.data_name(1, a[0], "")), a[0]);
           double s = 0;
           for (std::size_t i = 0; i < xs.size(); ++i) {
             if (!(xs[i] > 0)) {
               // The item's writer answers: the candidate's -3 in a list the rubric built FAILs.
               const Value* item = a[0].is(ValueKind::list) && i < a[0].as_list().size() ? &a[0].as_list()[i] : nullptr;
               return ctx.data_error(fmt::format("'geomean' needs positive numbers, got {}",
                                                 ctx.data_name(1, a[0], fmt::format("{} at [{}]", format_quantity(xs[i], d), i))),
                                     item && carries_submission_data(*item) ? *item : a[0]);
             }
             s += std::log(xs[i]);
           }
           return Value::number(std::exp(s / static_cast<double>(xs.size())), d);
         });

  // dtype names are values so rubrics can pass them around; tensor operators read them by name.
  for (const char* name : {"f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2", "i64", "u64", "i32", "i16", "i8", "u8", "bool"})
    r.bind(name, Value::string(name), "the element type name");
}

}  // namespace rubric
