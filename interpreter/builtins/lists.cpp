// Lists: len sum all any count map filter range sort unique first keys.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <set>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/decimal.hpp"
#include "interpreter/verdicts.hpp"

namespace rubric {

namespace {

using builtins::want;

// Calls `f` on item `i` of `xs` and requires a bool; returns the bool or sets `err`.
std::optional<bool> predicate(CallContext& ctx, const Value& f, const Value& xs, std::size_t i, Value& err) {
  Value r = ctx.call_on_item(f, xs, i);
  if (r.is_error()) {
    err = r;
    return std::nullopt;
  }
  if (!r.is(ValueKind::boolean)) {
    err = ctx.error(fmt::format("the predicate given to '{}' returned a {} ({}), not a bool", ctx.function_name(),
                                r.kind_name(), r.repr(5)),
                    owner_of(r));
    return std::nullopt;
  }
  return r.as_bool();
}

// all/any: over a list of bools, or of items with a predicate, the blame algebra of `and`/`or`
// (interpreter/verdicts.hpp), item by item in order: the first item that settles decides;
// otherwise the strongest undecided item (the first on a tie), else the identity.
Value quantify(CallContext& ctx, const std::vector<Value>& a, bool want_all) {
  if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
  bool has_pred = a.size() > 1 && !a[1].is_null();
  if (has_pred && !a[1].is(ValueKind::function)) return ctx.bad_argument(2, "a function", a[1]);
  const Connective connective = want_all ? Connective::all : Connective::any;
  std::optional<Value> pending;  // the strongest undecided item so far
  const std::size_t n = a[0].list_size();
  for (std::size_t i = 0; i < n; ++i) {
    Value b = has_pred ? ctx.call_on_item(a[1], a[0], i) : a[0].as_list()[i];
    if (!b.is_error() && !b.is(ValueKind::boolean)) {
      b = has_pred ? ctx.error(fmt::format("the predicate given to '{}' returned a {} ({}), not a bool", ctx.function_name(),
                                           b.kind_name(), b.repr(5)),
                               b.from_submission() ? Blame::submission : Blame::rubric)
                   : ctx.error(fmt::format("'{}' of a list holding a {} ({}); give a predicate: {}(xs, x => ...)",
                                           ctx.function_name(), b.kind_name(), b.repr(5), ctx.function_name()),
                               b.from_submission() ? Blame::submission : Blame::rubric);
    }
    const Truth t = *truth_of(b);
    if (settles(t, connective)) return is_decided(t) ? Value::boolean(!want_all) : b;
    if (!is_decided(t) && (!pending || undecided_rank(t) > undecided_rank(*truth_of(*pending)))) pending = b;
  }
  if (pending) return *pending;
  return Value::boolean(want_all);
}

// Ordering for sort: numbers (same unit) or strings.
std::optional<std::string> comparable(const Value& a, const Value& b) {
  if (a.is(ValueKind::number) && b.is(ValueKind::number)) {
    if (a.as_quantity().dim != b.as_quantity().dim) return fmt::format("{} and {} have different units", a.to_string(), b.to_string());
    return std::nullopt;
  }
  if (a.is(ValueKind::string) && b.is(ValueKind::string)) return std::nullopt;
  return fmt::format("cannot order a {} and a {}", a.kind_name(), b.kind_name());
}

// NaN orders after every number, as numpy sorts it: a comparison that is false both ways would
// leave a list with a NaN in it unsorted ("the worst error is the last" would hold by accident).
bool less(const Value& a, const Value& b) {
  if (a.is(ValueKind::number)) {
    double x = a.as_number(), y = b.as_number();
    if (std::isnan(x)) return false;
    if (std::isnan(y)) return true;
    return x < y;
  }
  return a.as_string() < b.as_string();
}

}  // namespace

void open_lists(Registry& r) {
  const std::string fam = "lists";
  r.mark_keeps_unit({"sum"});
  r.add("len", {P("x")}, false, "The length of a list, string (bytes), record (fields) or samples (count).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           switch (a[0].kind()) {
             case ValueKind::list: return Value::number(static_cast<double>(a[0].list_size()));
             case ValueKind::string: return Value::number(static_cast<double>(a[0].as_string().size()));
             case ValueKind::record: return Value::number(static_cast<double>(a[0].as_record().fields.size()));
             case ValueKind::samples: {
               std::size_t n = SIZE_MAX;
               for (const auto& l : a[0].as_samples().leaves()) n = std::min(n, l->values.size());
               return Value::number(n == SIZE_MAX ? 0.0 : static_cast<double>(n));
             }
             default: return ctx.bad_argument(1, "a list, string, record or samples", a[0]);
           }
         });
  r.add("sum", {P("xs")}, false, "The sum of a list of numbers (of one unit); 0 for an empty list.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           std::vector<double> xs;
           Dimension d;
           if (auto e = builtins::numbers_of(ctx, a[0], 1, xs, d)) return *e;
           decimal::Sum s;
           for (double x : xs) s.add(x);
           return Value::number(s.value(), d);
         });
  auto quantifier = [&](const char* name, bool want_all, const char* doc) {
    Builtin b;
    b.name = name;
    b.params = {P("xs"), P("pred", Value())};
    b.doc = doc;
    b.family = fam;
    b.takes_undecided_items = true;
    b.fn = [want_all](CallContext& ctx, const std::vector<Value>& a) { return quantify(ctx, a, want_all); };
    r.add(std::move(b));
  };
  quantifier("all", true,
             "True when every item is true, or satisfies `pred`; true for an empty list. A false item decides it whatever "
             "the others are; otherwise an undecided item (a failure, error, skip or inconclusive result) is the result.");
  quantifier("any", false,
             "True when some item is true, or satisfies `pred`; false for an empty list. A true item decides it whatever "
             "the others are; otherwise an undecided item (a failure, error, skip or inconclusive result) is the result.");
  r.add("count", {P("xs"), P("pred", Value())}, false,
         "How many items satisfy `pred` (a function), or equal it (any other value); without it, how many are true.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
           double n = 0;
           const std::size_t size = a[0].list_size();
           for (std::size_t i = 0; i < size; ++i) {
             if (a[1].is(ValueKind::function)) {
               Value err;
               auto r = predicate(ctx, a[1], a[0], i, err);
               if (!r) return err;
               n += *r ? 1 : 0;
               continue;
             }
             const Value& item = a[0].as_list()[i];
             if (a[1].is_null()) {
               n += item.is(ValueKind::boolean) && item.as_bool() ? 1 : 0;
             } else if (structurally_equal(item, a[1])) {
               n += 1;
             }
           }
           return Value::number(n);
         });
  {
    // An item whose f(x) cannot be computed keeps its error in its slot, as a list literal does.
    Builtin b;
    b.name = "map";
    b.params = {P("xs"), P("f")};
    b.doc = "The list of f(x) for each item; an item f cannot compute keeps its error in its place (see `any`, `all`).";
    b.family = fam;
    b.takes_undecided_items = true;
    b.fn = [](CallContext& ctx, const std::vector<Value>& a) {
      if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
      if (auto e = want(ctx, a, 1, ValueKind::function, "a function")) return *e;
      List out;
      const std::size_t n = a[0].list_size();
      out.reserve(n);
      for (std::size_t i = 0; i < n; ++i) out.push_back(ctx.call_on_item(a[1], a[0], i));
      return Value::list(std::move(out));
    };
    r.add(std::move(b));
  }
  r.add("filter", {P("xs"), P("pred")}, false, "The items satisfying `pred`, in order.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::function, "a function")) return *e;
           std::vector<std::uint32_t> kept;  // positions of the items that satisfy it
           for (std::size_t i = 0, n = a[0].list_size(); i < n; ++i) {
             Value err;
             auto r = predicate(ctx, a[1], a[0], i, err);
             if (!r) return err;
             if (*r) kept.push_back(static_cast<std::uint32_t>(i));
           }
           if (const TableView view = a[0].table_view()) {  // the table's rows, no record made
             for (std::uint32_t& k : kept) k = static_cast<std::uint32_t>(view.row(k));
             return Value::table_rows(a[0], std::move(kept));
           }
           List out;
           for (std::uint32_t k : kept) out.push_back(a[0].as_list()[k]);
           return Value::list(std::move(out));
         });
  r.add("range", {P("a"), P("b", Value()), P("step", Value::number(1))}, false,
         "range(n) is [0, 1, .., n-1]; range(a, b) is [a, .., b-1]; range(a, b, step).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           for (std::size_t i = 0; i < 3; ++i)
             if (!(i == 1 && a[1].is_null()))
               if (auto e = builtins::want_plain(ctx, a, i)) return *e;
           double lo = 0, hi = a[0].as_number(), step = a[2].as_number();
           if (!a[1].is_null()) {
             lo = a[0].as_number();
             hi = a[1].as_number();
           }
           // A bound or step the candidate wrote (a count read from its output) is its FAIL.
           const Value& bounds = carries_submission_data(a[0]) ? a[0] : carries_submission_data(a[1]) ? a[1] : a[2];
           if (step == 0) return ctx.data_error("'range' with a step of 0", a[2]);
           double n = std::ceil((hi - lo) / step);
           if (!(n <= 10'000'000) && std::isfinite(lo) && std::isfinite(hi))
             return ctx.data_error(fmt::format("'range' of {} items is too long (limit 10000000)", format_number(n)), bounds);
           if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(step))
             return ctx.data_error("'range' needs finite numbers", bounds);
           List out;
           for (double i = 0; i < n; ++i) out.push_back(Value::number(lo + i * step));
           return Value::list(std::move(out));
         });
  r.add("sort", {P("xs"), P("key", Value())}, false, "The items in ascending order (numbers of one unit, or strings), by `key(x)` when given.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
           const List& xs = a[0].as_list();
           std::vector<std::pair<Value, std::size_t>> keyed;
           for (std::size_t i = 0; i < xs.size(); ++i) {
             Value k = a[1].is_null() ? xs[i] : ctx.call_on(a[1], xs[i]);
             if (k.is_error()) return k;
             // Items that cannot be ordered are the fault of whoever wrote them: the candidate's mixed
             // list FAILs, the rubric's own is its ERROR.
             auto unorderable = [&](const std::string& why) {
               bool candidate = carries_submission_data(a[0]) || carries_submission_data(k) ||
                                (!keyed.empty() && carries_submission_data(keyed.front().first));
               return ctx.error(fmt::format("'sort': {}", why), candidate ? Blame::submission : Blame::rubric);
             };
             if (!keyed.empty())
               if (auto why = comparable(keyed.front().first, k)) return unorderable(*why);
             if (keyed.empty())
               if (auto why = comparable(k, k)) return unorderable(*why);
             keyed.emplace_back(std::move(k), i);
           }
           std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return less(x.first, y.first); });
           List out;
           for (const auto& k : keyed) out.push_back(xs[k.second]);
           return Value::list(std::move(out));
         });
  r.add("unique", {P("xs")}, false, "The strings or numbers of a list without repeats, in the order first seen.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
           std::set<std::string> seen;
           List out;
           for (const Value& item : a[0].as_list()) {
             std::string key;
             if (item.is(ValueKind::string)) key = "s" + item.as_string();
             else if (item.is(ValueKind::number)) key = fmt::format("n{:a} {}", item.as_number(), dimension_name(item.as_quantity().dim));
             else return ctx.error(fmt::format("'unique' needs strings or numbers, got a {} ({})", item.kind_name(), item.repr(5)), owner_of(item));
             if (seen.insert(std::move(key)).second) out.push_back(item);
           }
           return Value::list(std::move(out));
         });
  // The one item a library function looks up (a kernel's launch, a summary's row): when there is
  // none, the reason says what was looked for and what there is, blamed like the list.
  r.add("first", {P("xs"), P("otherwise", Value::string(""))}, false,
         "The first item of `xs`. When it is empty: fails with `otherwise` as the reason, blamed on whoever the list "
         "came from (the submission's FAIL for a list of its data, the rubric's ERROR otherwise).",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string")) return *e;
           const List& xs = a[0].as_list();
           if (!xs.empty()) {
             Value item = xs[0];
             if (a[0].from_submission() && !item.is_error()) item.mark_from_submission();
             return item;
           }
           std::string why = !a[1].as_string().empty() ? a[1].as_string()
                             : !a[0].list_none().empty() ? a[0].list_none()
                                                         : std::string("the list is empty");
           return ctx.error(why, a[0].from_submission() ? Blame::submission : Blame::rubric);
         });
  r.add("keys", {P("r")}, false, "The keys of a record, in order.", fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::record, "a record")) return *e;
           List out;
           for (const auto& f : a[0].as_record().fields) out.push_back(Value::string(f.first));
           return Value::list(std::move(out));
         });
  r.add("has", {P("r"), P("key")}, false, "True when the record has the key.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::record, "a record")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string")) return *e;
           return Value::boolean(a[0].as_record().find(a[1].as_string()) != nullptr);
         });
  // For library code: a check that this input cannot decide is the rubric's ERROR, with the library's
  // explanation, rather than a FAIL that would blame a submission for what its tool never writes.
  r.add("error", {P("message")}, false,
        "An ERROR blamed on the rubric, with `message`: for a value or check the inputs cannot decide "
        "(std.serving's failed count of an SGLang file written without --output-details).",
        "errors", [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
          return ctx.error(a[0].as_string(), Blame::rubric);
        });
}

}  // namespace rubric
