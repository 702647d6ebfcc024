// Units: unit_of convert.
#include <fmt/format.h>

#include "interpreter/builtins/args.hpp"
#include "interpreter/decimal.hpp"
#include "interpreter/builtins/registry.hpp"

namespace rubric {

void open_units(Registry& r) {
  const std::string fam = "units";
  r.add("unit_of", {P("x")}, false, "The base-unit name of a number's dimension (\"tok/s\", \"s\", \"\" when plain).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (a[0].is(ValueKind::samples)) return Value::string(dimension_name(a[0].as_samples().dim()));
           if (auto e = builtins::want(ctx, a, 0, ValueKind::number, "a number")) return *e;
           return Value::string(dimension_name(a[0].as_quantity().dim));
         });
  r.add("convert", {P("x"), P("unit")}, false,
         "x as a plain number in the given unit: convert(2.5 ms, \"us\") is 2500. The unit must match x's dimension.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = builtins::want(ctx, a, 0, ValueKind::number, "a number")) return *e;
           if (auto e = builtins::want(ctx, a, 1, ValueKind::string, "a unit string")) return *e;
           std::string why;
           auto u = parse_unit(a[1].as_string(), &why);
           // A unit string the candidate wrote (its JSON names its own unit) is its FAIL when it is
           // not a unit or not one of x's dimension; a unit the rubric wrote is the rubric's ERROR.
           if (!u) return ctx.data_error(fmt::format("bad argument #2 to 'convert' ({}{})", why, ctx.data_name(2, a[1], "")), a[1]);
           if (u->dim != a[0].as_quantity().dim)
             return ctx.data_error(fmt::format("cannot convert {} ({}) to {}{} ({})", a[0].to_string(),
                                               dimension_description(a[0].as_quantity().dim), a[1].as_string(),
                                               ctx.data_name(2, a[1], ""), dimension_description(u->dim)),
                                   a[1]);
           return Value::number(decimal::div(a[0].as_number(), u->scale));
         });
}

}  // namespace rubric
