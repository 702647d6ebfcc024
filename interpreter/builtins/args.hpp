#pragma once
// Small argument checks shared by the builtin families: each returns the Lua-style error value
// ("bad argument #2 to 'files' (expected a string, got number)") or nullopt when the argument fits.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/value.hpp"
#include "operators/tensor/dtype.hpp"

namespace rubric::builtins {

inline std::optional<Value> want(CallContext& ctx, const std::vector<Value>& args, std::size_t i, ValueKind k,
                                 const char* expected) {
  if (i < args.size() && args[i].is(k)) return std::nullopt;
  return ctx.bad_argument(static_cast<int>(i + 1), expected, i < args.size() ? args[i] : Value());
}

// A dimensionless number.
inline std::optional<Value> want_plain(CallContext& ctx, const std::vector<Value>& args, std::size_t i) {
  if (i < args.size() && args[i].is(ValueKind::number) && args[i].as_quantity().dim.dimensionless()) return std::nullopt;
  if (i < args.size() && args[i].is(ValueKind::number))
    return ctx.error(fmt::format("bad argument #{} to '{}' (expected a plain number, got {})", i + 1, ctx.function_name(),
                                 args[i].to_string()));
  return ctx.bad_argument(static_cast<int>(i + 1), "a number", i < args.size() ? args[i] : Value());
}

// Numbers of a list (all of one dimension); sets `dim`. Returns an error value for anything else.
inline std::optional<Value> numbers_of(CallContext& ctx, const Value& list, std::size_t argno, std::vector<double>& out,
                                       Dimension& dim) {
  if (!list.is(ValueKind::list)) return ctx.bad_argument(static_cast<int>(argno), "a list of numbers", list);
  bool first = true;
  for (std::size_t i = 0; i < list.as_list().size(); ++i) {
    const Value& v = list.as_list()[i];
    if (v.is_error()) return v;
    if (!v.is(ValueKind::number))
      return ctx.error(fmt::format("bad argument #{} to '{}' (expected a list of numbers, item {} is {}{})", argno,
                                   ctx.function_name(), i, v.repr(5),
                                   ctx.data_name(static_cast<int>(argno), list, "")),
                       carries_submission_data(list) || v.from_submission() ? Blame::submission : Blame::rubric);
    if (first) dim = v.as_quantity().dim;
    else if (v.as_quantity().dim != dim)
      return ctx.error(fmt::format("bad argument #{} to '{}' (items of different dimensions: {} and {})", argno,
                                   ctx.function_name(), dimension_description(dim),
                                   dimension_description(v.as_quantity().dim)));
    first = false;
    out.push_back(v.as_number());
  }
  return std::nullopt;
}

// A dtype named by its binding (f32, bf16, bool, ...), or nullopt.
inline std::optional<tensor::DType> dtype_arg(const Value& v) {
  if (!v.is(ValueKind::string)) return std::nullopt;
  return tensor::dtype_from_name(v.as_string());
}

// A shape: a list of whole numbers >= 0, appended to `out`. Returns an error value otherwise.
inline std::optional<Value> shape_arg(CallContext& ctx, const Value& v, int argno, std::vector<std::int64_t>& out) {
  if (!v.is(ValueKind::list)) return ctx.bad_argument(argno, "a shape (a list of whole numbers)", v);
  for (const Value& d : v.as_list()) {
    if (!d.is(ValueKind::number) || !d.as_quantity().dim.dimensionless() || d.as_number() < 0 ||
        d.as_number() != std::floor(d.as_number()))
      return ctx.data_error(fmt::format("bad argument #{} to '{}' (a shape holds whole numbers >= 0, got {}{})", argno,
                                        ctx.function_name(), d.repr(5), ctx.data_name(argno, v, "")),
                            carries_submission_data(v) ? v : d);
    out.push_back(static_cast<std::int64_t>(d.as_number()));
  }
  return std::nullopt;
}

}  // namespace rubric::builtins
