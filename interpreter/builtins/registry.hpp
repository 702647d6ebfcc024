#pragma once
// Builtins: registered as {name, params with defaults, doc, family, needs, fn} by families, one
// file per family (numbers, lists, text, files, tables, units, statistics, tensors, programs, gpu,
// judge; a host adds its own). One registration feeds the checker (names, arity), the evaluator,
// `rubric doc`, and what a criterion needs of the grading machine (BuiltinNeeds).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/check_outcome.hpp"
#include "interpreter/value.hpp"
#include "operators/judge/judge_settings.hpp"

namespace rubric {

struct ParamSpec {
  std::string name;
  std::optional<Value> default_value;  // nullopt: required
};

using BuiltinFn = std::function<Value(CallContext&, const std::vector<Value>& args)>;

// What calling a builtin needs of the grading machine, declared where it is registered. The rest
// derives from it: a criterion that calls it needs a GPU or the judge (interpreter/needs.hpp), and
// a call that times work holds the machine alone while submissions are graded in parallel
// (grading/measure_lock.hpp).
struct BuiltinNeeds {
  // The device itself: `always` (`achieved`), or only when the first argument names a .cu source
  // (`cuda_fn`; a .cpp source runs on the CPU stand-in anywhere).
  enum class Gpu { no, always, for_cu_source };
  bool times_work = false;  // measures time: bench, every GPU operator
  Gpu gpu = Gpu::no;
  bool judge = false;  // asks the judge: an endpoint, or a cache that holds its judgements

  static BuiltinNeeds timing() { return {true, Gpu::no, false}; }
  static BuiltinNeeds device(Gpu g) { return {true, g, false}; }
  static BuiltinNeeds the_judge() { return {false, Gpu::no, true}; }
};

// Argument binding: positional arguments fill `params` in order, then named ones by name, then
// defaults. A `variadic` builtin takes only its required params positionally; further positional
// arguments are appended after all params (so `time(f, x, y, fresh = true)` binds f, fresh, x, y).
struct Builtin {
  std::string name;
  std::vector<ParamSpec> params;
  bool variadic = false;
  std::string doc;
  std::string family;
  BuiltinNeeds needs;
  BuiltinFn fn;
  // Overloading: when set, this registration handles a call only if `applies(args)`; otherwise the
  // earlier registration of the same name (`next`) is tried. The tensor family uses this for
  // `min(t)`, `max(t)`, `mean(t)` next to the list and sample versions.
  std::function<bool(const std::vector<Value>&)> applies;
  std::shared_ptr<const Builtin> next;
  // Whether the builtin is given lists that hold undecided items (Value::holds_error) as they are:
  // `any`/`all` apply the blame algebra item by item and `map` keeps each item's error in its
  // slot. Every other builtin is given the strongest such error instead of being called.
  bool takes_undecided_items = false;

  std::size_t required_count() const;
  std::string signature() const;  // "clamp(x, lo, hi)", "round(x, digits=0)", "call(f, args...)"
};

struct MatchTolerance {
  ast::ToleranceForm form = ast::ToleranceForm::dtype_default;
  double both = 0;                    // form == both
  std::optional<double> rtol, atol;   // form == explicit_rtol_atol (absent: 0)
  double ulp = 0;                     // form == ulp
};

// A subscript component with its parts evaluated to whole numbers (`t[0, 2:-1, ...]`).
struct SubscriptValue {
  ast::Subscript::Kind kind = ast::Subscript::Kind::index;
  std::int64_t index = 0;
  std::optional<std::int64_t> start, stop, step;
};

// Hooks let a family extend operators to its own value kinds. Each returns nullopt for values it
// does not handle; the evaluator tries the hooks newest first, then its own rules.
using MatchesHook = std::function<std::optional<CheckOutcome>(CallContext&, const Value& value, const Value& reference,
                                                              const MatchTolerance&)>;
using FieldHook = std::function<std::optional<Value>(CallContext&, const Value& object, const std::string& field)>;
using IndexHook = std::function<std::optional<Value>(CallContext&, const Value& object, const std::vector<SubscriptValue>&)>;
using BinaryHook = std::function<std::optional<Value>(CallContext&, ast::BinaryOp, const Value& lhs, const Value& rhs)>;

class Registry {
 public:
  // Adds a builtin; a second registration of a name chains to the first (see Builtin::applies).
  void add(Builtin b);
  void add(std::string name, std::vector<ParamSpec> params, bool variadic, std::string doc, std::string family, BuiltinFn fn);
  void add(std::string name, std::vector<ParamSpec> params, bool variadic, std::string doc, std::string family,
           BuiltinNeeds needs, BuiltinFn fn);
  // Binds a global name to a value (roots, `device`, dtype names, host bindings).
  void bind(const std::string& name, Value value, std::string doc = "");
  // Binds a name whose value is computed on first use (the `device` record starts a worker to
  // query the GPU, so a rubric that never looks at it never pays for it). Replaces a plain binding.
  void bind_lazy(const std::string& name, std::function<Value()> compute, std::string doc = "");
  void add_matches_hook(MatchesHook h) { matches_hooks_.push_back(std::move(h)); }
  void add_field_hook(FieldHook h) { field_hooks_.push_back(std::move(h)); }
  void add_binary_hook(BinaryHook h) { binary_hooks_.push_back(std::move(h)); }
  void add_index_hook(IndexHook h) { index_hooks_.push_back(std::move(h)); }

  // Builtins whose result has the unit of their first argument (a number, samples, or a list of
  // them): `median(samples(x) as ms)` is a time. The checker carries units through them.
  void mark_keeps_unit(std::initializer_list<const char*> names) { keeps_unit_.insert(names.begin(), names.end()); }
  bool keeps_unit(const std::string& name) const { return keeps_unit_.count(name) > 0; }

  std::shared_ptr<const Builtin> find(const std::string& name) const;
  // The bound value, computing a lazy binding on first use; null when unbound.
  const Value* find_binding(const std::string& name) const;
  // Whether a name is bound, without computing anything (the checker uses this).
  bool has_binding(const std::string& name) const { return bindings_.count(name) || lazy_.count(name); }
  // The value if it is plain or was already computed; null otherwise (never computes).
  const Value* evaluated_binding(const std::string& name) const;
  std::vector<std::string> names() const;  // every builtin and binding, for "did you mean"

  const std::map<std::string, std::shared_ptr<const Builtin>>& builtins() const { return builtins_; }
  const std::map<std::string, std::pair<Value, std::string>>& bindings() const { return bindings_; }
  // Lazy bindings' names and docs.
  std::map<std::string, std::string> lazy_binding_docs() const;
  const std::vector<MatchesHook>& matches_hooks() const { return matches_hooks_; }
  const std::vector<FieldHook>& field_hooks() const { return field_hooks_; }
  const std::vector<BinaryHook>& binary_hooks() const { return binary_hooks_; }
  const std::vector<IndexHook>& index_hooks() const { return index_hooks_; }

 private:
  std::map<std::string, std::shared_ptr<const Builtin>> builtins_;
  std::map<std::string, std::pair<Value, std::string>> bindings_;
  struct LazyBinding {
    std::function<Value()> compute;
    std::string doc;
    mutable std::optional<Value> value;  // filled on first use
  };
  std::map<std::string, LazyBinding> lazy_;
  std::vector<MatchesHook> matches_hooks_;
  std::vector<FieldHook> field_hooks_;
  std::vector<BinaryHook> binary_hooks_;
  std::vector<IndexHook> index_hooks_;
  std::set<std::string> keeps_unit_;
};

// Finds the overload of `b` that applies to `args` (walking `next`), or null.
const Builtin* select_overload(const Builtin& b, const std::vector<Value>& args);

// Families (linit-style): each opens its builtins into a registry.
void open_files(Registry& r);
void open_text(Registry& r);
void open_lists(Registry& r);
void open_numbers(Registry& r);
void open_units(Registry& r);
void open_tables(Registry& r);
void open_statistics(Registry& r);
// Measurement families binding operators/: tensors (tensor, numerics), programs (process), gpu (cuda).
void open_tensors(Registry& r);
void open_programs(Registry& r);
void open_gpu(Registry& r);
// The judge (operators/judge): `judge(text, question)` against the grader's chat endpoint, as configured.
void open_judge(Registry& r, const judge::JudgeSettings& settings);
// All of the above; the judge with `judge_settings` (empty fields: the environment's).
void open_core(Registry& r, const judge::JudgeSettings& judge_settings = {});

// Parameter helper for family tables: P("x"), P("digits", Value::number(0)).
inline ParamSpec P(std::string name) { return ParamSpec{std::move(name), std::nullopt}; }
inline ParamSpec P(std::string name, Value def) { return ParamSpec{std::move(name), std::move(def)}; }

}  // namespace rubric
