// Expressions: literals, names (lazy lets, module aliases, builtins), operators with units and
// samples, field and index access, calls, lambdas.
#include <algorithm>
#include <cmath>
#include <optional>
#include <fmt/format.h>
#include <utility>

#include "interpreter/decimal.hpp"
#include "interpreter/engine.hpp"
#include "interpreter/evaluator.hpp"
#include "interpreter/paths.hpp"
#include "interpreter/verdicts.hpp"
#include "grammar/ast_print.hpp"

namespace rubric {

namespace {

bool is_ordering(ast::BinaryOp op) {
  return op == ast::BinaryOp::lt || op == ast::BinaryOp::le || op == ast::BinaryOp::gt || op == ast::BinaryOp::ge;
}

// A missing record key is the submission's fault when the record came from a submission file.
Blame blame_for_origin(const std::string& origin) {
  return origin.rfind("submission", 0) == 0 ? Blame::submission : Blame::rubric;
}

}  // namespace

// A NaN decides no ordering: by IEEE rules `err > tol` is false, so `not (err > tol)` would pass
// on a NaN the candidate wrote (Python's json writes `NaN`). `==` and `!=` stay IEEE's (`x != x`
// is how a rubric asks whether x is NaN).
static const Value* nan_operand(const Value& a, const Value& b) {
  for (const Value* v : {&a, &b})
    if (v->is(ValueKind::number) && std::isnan(v->as_number())) return v;
  return nullptr;
}

namespace {

// The budget is out: by the size of the submission's data when the criterion worked through more
// than kSubmissionSizedItems of its items (a list of 7,000,000 latencies under `count`), else the
// rubric's.
LimitExceeded step_budget_exceeded(std::uint64_t steps, std::uint64_t submission_items) {
  if (submission_items > kSubmissionSizedItems)
    return LimitExceeded(fmt::format("step budget exceeded ({} evaluation steps per criterion) after working through {} "
                                     "items of the submission's data: the submission's data is too large to check",
                                     steps, submission_items),
                         true);
  return LimitExceeded(fmt::format("step budget exceeded ({} evaluation steps per criterion)", steps));
}

// One level of expression nesting, counted against the depth limit while it lives.
struct DepthGuard {
  int& depth;
  DepthGuard(int& d, int limit, const char* what) : depth(d) {
    if (++depth > limit) {
      --depth;
      throw LimitExceeded(fmt::format("{} limit exceeded ({} levels)", what, limit));
    }
  }
  ~DepthGuard() { --depth; }
};

}  // namespace

void Evaluator::count_step() {
  if (settings_.options.stop && settings_.options.stop->requested()) throw LimitExceeded(settings_.options.stop->reason());
  if (++steps_ > limits_.steps) throw step_budget_exceeded(limits_.steps, submission_items_);
}

void Evaluator::charge_nested_evals(int levels) {
  if (levels <= 0) return;
  count_step();
  DepthGuard guard(expr_depth_, limits_.expr_depth, "expression depth");  // as eval() enters a level
  charge_nested_evals(levels - 1);
}

void Evaluator::charge_steps(std::uint64_t steps) {
  if (settings_.options.stop && settings_.options.stop->requested()) throw LimitExceeded(settings_.options.stop->reason());
  steps_ = steps > limits_.steps - std::min(steps_, limits_.steps) ? limits_.steps + 1 : steps_ + steps;
  if (steps_ > limits_.steps) throw step_budget_exceeded(limits_.steps, submission_items_);
}

Value Evaluator::apply_binary(ast::BinaryOp op, const Value& a, const Value& b, const ast::Expr& at, const EnvPtr& env) {
  // A value of the wrong kind (a string or null where a number belongs) or a zero divisor in what
  // the candidate wrote is the candidate's failure. A dimension mismatch never is: data files
  // carry plain numbers, and giving them units is the rubric's job (`as ms`).
  const Blame data_blame = a.from_submission() || b.from_submission() ? Blame::submission : Blame::rubric;
  // The candidate's operand named in the message: of an unexpected kind first (a string beside a number).
  auto culprit = [&]() -> std::string {
    const auto* bin = std::get_if<ast::Binary>(&at.node);
    if (!bin) return "";
    const bool la = carries_submission_data(a), lb = carries_submission_data(b);
    if (la && (!lb || !a.is(ValueKind::number))) return candidate_value_note(a, bin->lhs.get(), env);
    return lb ? candidate_value_note(b, bin->rhs.get(), env) : "";
  };
  auto fail = [&](std::string message) { return error_at(at, env, message + culprit(), data_blame); };
  // For a message that shows both values already: the origin goes inside its parentheses.
  auto fail_shown = [&](std::string head, std::string shown) {
    std::string note = culprit();
    if (!note.empty()) note[0] = ';';
    return error_at(at, env, fmt::format("{} ({}{})", head, shown, note), data_blame);
  };
  using ast::BinaryOp;
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  if (auto held = a.held_error()) return *held;
  if (auto held = b.held_error()) return *held;

  if (op == BinaryOp::in) {
    if (b.is(ValueKind::list)) {
      for (const auto& item : b.as_list())
        if (structurally_equal(item, a)) return Value::boolean(true);
      return Value::boolean(false);
    }
    if (b.is(ValueKind::string) && a.is(ValueKind::string))
      return Value::boolean(b.as_string().find(a.as_string()) != std::string::npos);
    if (b.is(ValueKind::record) && a.is(ValueKind::string)) return Value::boolean(b.as_record().find(a.as_string()) != nullptr);
    // Searching a number (or a bool, a path) is wrong whatever is searched for: its owner answers.
    if (!b.is(ValueKind::list) && !b.is(ValueKind::string) && !b.is(ValueKind::record)) {
      const auto* bin = std::get_if<ast::Binary>(&at.node);
      return error_at(at, env, fmt::format("'in' needs a list, a string in a string, or a key in a record; got a {} in a {}{}",
                                           a.kind_name(), b.kind_name(), candidate_value_note(b, bin ? bin->rhs.get() : nullptr, env)),
                      owner_of(b));
    }
    return fail(fmt::format("'in' needs a list, a string in a string, or a key in a record; got a {} in a {}",
                                         a.kind_name(), b.kind_name()));
  }

  // Registered families (tensors) first.
  if (a.is(ValueKind::tensor) || b.is(ValueKind::tensor)) {
    if (auto r = try_binary_hooks(op, a, b, at, env)) return *r;
    // The rubric chose an operator tensors do not have: its ERROR, whoever made the tensor.
    return error_at(at, env, fmt::format("'{}' is not defined for a {} and a {} (tensors compare with 'matches')", ast::op_text(op),
                                         a.kind_name(), b.kind_name()));
  }

  bool numeric_a = a.is(ValueKind::number) || a.is(ValueKind::samples);
  bool numeric_b = b.is(ValueKind::number) || b.is(ValueKind::samples);

  if (op == BinaryOp::eq || op == BinaryOp::ne) {
    // The rubric chose the operator: equality of measurements is its mistake whoever measured.
    if (a.is(ValueKind::samples) || b.is(ValueKind::samples))
      return error_at(at, env, "samples cannot be compared with '=='; use 'within' or an ordering comparison");
    if (a.is(ValueKind::number) && b.is(ValueKind::number) && a.as_quantity().dim != b.as_quantity().dim) {
      if (a.claimed() || b.claimed()) return Value::boolean(op == BinaryOp::ne);  // a claim of another quantity
      return error_at(at, env, fmt::format("cannot compare {} with {}: the dimensions differ ({} vs {})", a.to_string(),
                                           b.to_string(), dimension_description(a.as_quantity().dim),
                                           dimension_description(b.as_quantity().dim)));
    }
    bool eq = structurally_equal(a, b);
    return Value::boolean(op == BinaryOp::eq ? eq : !eq);
  }

  if (is_ordering(op)) {
    if (a.is(ValueKind::string) && b.is(ValueKind::string)) {
      int c = a.as_string().compare(b.as_string());
      bool r = op == BinaryOp::lt ? c < 0 : op == BinaryOp::le ? c <= 0 : op == BinaryOp::gt ? c > 0 : c >= 0;
      return Value::boolean(r);
    }
    if (!numeric_a || !numeric_b) {
      // The operands themselves, shortened, so a profiler's "n/a" shows where a number was expected.
      auto brief = [](const Value& v) {
        std::string t = v.repr(3);
        if (t.size() <= 60) return t;
        std::size_t cut = 57;
        while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
        return t.substr(0, cut) + "...";
      };
      return fail_shown(fmt::format("cannot compare a {} with a {} using '{}'", a.kind_name(), b.kind_name(), ast::op_text(op)),
                        fmt::format("{} {} {}", brief(a), ast::op_text(op), brief(b)));
    }
    if (dimension_of(a) != dimension_of(b) && (a.claimed() || b.claimed())) return Value::boolean(false);  // a claim of another quantity
    if (dimension_of(a) != dimension_of(b))
      return error_at(at, env, fmt::format("cannot compare {} with {}: the dimensions differ ({} vs {})", a.to_string(),
                                           b.to_string(), dimension_description(dimension_of(a)), dimension_description(dimension_of(b))));
    if (a.is(ValueKind::samples) || b.is(ValueKind::samples))
      return error_at(at, env, "a comparison of samples is decided statistically and may be INCONCLUSIVE: "
                               "use it as the condition of an `expect`");
    if (const Value* nan = nan_operand(a, b))
    {
      const auto* bin = std::get_if<ast::Binary>(&at.node);
      const ast::Expr* side = bin ? (nan == &a ? bin->lhs.get() : bin->rhs.get()) : nullptr;
      return error_at(at, env, "an ordering with NaN (not a number) decides nothing" + candidate_value_note(*nan, side, env),
                      owner_of(*nan));
    }
    double x = a.as_number(), y = b.as_number();
    bool r = op == BinaryOp::lt ? x < y : op == BinaryOp::le ? x <= y : op == BinaryOp::gt ? x > y : x >= y;
    return Value::boolean(r);
  }

  // Arithmetic.
  if (op == BinaryOp::div && a.is(ValueKind::path)) {
    if (!b.is(ValueKind::string))
      return fail(fmt::format("a path is extended with a string (root / \"file\"), got a {}", b.kind_name()));
    std::string why;
    auto p = join_path(a.as_path(), b.as_string(), &why);
    if (!p) {
      // A `..` the rubric wrote itself is the rubric's error; one arriving in data read from the
      // submission (a manifest naming its output file) is the submission's.
      const auto* bin = std::get_if<ast::Binary>(&at.node);
      bool literal = bin && std::holds_alternative<ast::StringLit>(bin->rhs->node);
      return error_at(at, env, why, !literal && a.as_path().root == "submission" ? Blame::submission : Blame::rubric);
    }
    return Value::path(*p);
  }
  if (op == BinaryOp::add && a.is(ValueKind::string) && b.is(ValueKind::string)) {
    check_string_size(a.as_string().size() + b.as_string().size());
    return Value::string(a.as_string() + b.as_string());
  }
  if (op == BinaryOp::add && a.is(ValueKind::list) && b.is(ValueKind::list)) {
    check_list_size(a.as_list().size() + b.as_list().size());
    List out = a.as_list();
    out.insert(out.end(), b.as_list().begin(), b.as_list().end());
    // The joined list keeps what each side says it lists and the submission's blame, so an index
    // past its end still FAILs naming what is missing ("no file matches *.json ...; no file matches *.jsonl ...").
    auto joined = [](const std::string& x, const std::string& y, const char* sep) {
      return x.empty() || y.empty() ? std::string() : x + sep + y;
    };
    Value list = Value::list(std::move(out), joined(a.list_what(), b.list_what(), " + "), joined(a.list_none(), b.list_none(), "; "));
    if (a.from_submission() || b.from_submission()) list.mark_from_submission();
    return list;
  }
  if (!numeric_a || !numeric_b)
    return fail(fmt::format("cannot apply '{}' to a {} and a {}", ast::op_text(op), a.kind_name(), b.kind_name()));

  Dimension da = dimension_of(a), db = dimension_of(b), dr;
  if (op == BinaryOp::add || op == BinaryOp::sub) {
    if (da != db)
      return error_at(at, env, fmt::format("cannot {} {} and {}: the dimensions differ ({} vs {})",
                                           op == BinaryOp::add ? "add" : "subtract", a.to_string(), b.to_string(),
                                           dimension_description(da), dimension_description(db)));
    dr = da;
  } else {
    dr = op == BinaryOp::mul ? da * db : da / db;
  }

  if (a.is(ValueKind::samples) || b.is(ValueKind::samples)) {
    auto e = std::make_shared<SampleExpr>();
    e->op = op == BinaryOp::add ? SampleExpr::Op::add
            : op == BinaryOp::sub ? SampleExpr::Op::sub
            : op == BinaryOp::mul ? SampleExpr::Op::mul
                                  : SampleExpr::Op::div;
    e->lhs = sample_expr_of(a);
    e->rhs = sample_expr_of(b);
    e->dim = dr;
    Value out = Value::samples(std::move(e));
    if (data_blame == Blame::submission) out.mark_from_submission();
    return out;
  }
  double x = a.as_number(), y = b.as_number(), r = 0;
  switch (op) {
    case BinaryOp::add: r = decimal::add(x, y); break;
    case BinaryOp::sub: r = decimal::sub(x, y); break;
    case BinaryOp::mul: r = decimal::mul(x, y); break;
    case BinaryOp::div:
      // The divisor's owner answers: the candidate's zero FAILs, the rubric's own is its ERROR.
      if (y == 0) {
        const auto* bin = std::get_if<ast::Binary>(&at.node);
        const std::string from = candidate_value_note(b, bin ? bin->rhs.get() : nullptr, env, false);
        return error_at(at, env, fmt::format("division by zero: {} / {}{}", a.to_string(), b.to_string(),
                                             from.empty() ? "" : fmt::format(" (the divisor{})", from)),
                        owner_of(b));
      }
      r = decimal::div(x, y);
      break;
    default: break;
  }
  // Arithmetic on the candidate's numbers stays the candidate's data: `1 / (j.z * 2)` with j.z = 0
  // FAILs as `1 / j.z` does.
  Value out = Value::number(r, dr);
  if (data_blame == Blame::submission) out.mark_from_submission();
  return out;
}

namespace {

// The numpy indexing forms a subscript value would stand for, when it is not a number.
std::optional<std::string> unsupported_index_form(const Value& v) {
  if (v.is_null()) return std::string("new-axis indexing (numpy's t[None] / np.newaxis; null here)");
  if (v.is(ValueKind::boolean)) return std::string("boolean indexing (numpy's t[True])");
  if (v.is(ValueKind::list)) return std::string("integer-array indexing (numpy's t[[0, 2]])");
  if (v.is(ValueKind::tensor)) return std::string("array indexing (numpy's t[mask] or t[indices], with a tensor)");
  return std::nullopt;
}

}  // namespace

Value Evaluator::eval_subscripts(const Value& obj, const ast::Index& n, const ast::Expr& at, const EnvPtr& env) {
  std::vector<SubscriptValue> subs;
  std::vector<ast::Subscript> parts = n.subscripts;
  if (n.index) parts.push_back(ast::Subscript{ast::Subscript::Kind::index, n.index, nullptr, nullptr, n.index->range});
  for (const ast::Subscript& p : parts) {
    SubscriptValue sv;
    sv.kind = p.kind;
    for (auto [expr, slot] : {std::pair{p.start.get(), &sv.start}, {p.stop.get(), &sv.stop}, {p.step.get(), &sv.step}}) {
      if (!expr) continue;
      Value v = eval(*expr, env);
      if (v.is_error()) return v;
      if (v.is_null() && p.kind == ast::Subscript::Kind::range) continue;  // `t[null:3]` is `t[:3]`, as numpy's None
      const Blame blame = v.from_submission() ? Blame::submission : Blame::rubric;
      // numpy's advanced indexing has no counterpart here: say which form was meant.
      if (auto form = unsupported_index_form(v); form && p.kind == ast::Subscript::Kind::index)
        return error_at(*expr, env, fmt::format("{} is not supported: a tensor subscript takes whole numbers (t[2]), "
                                                "ranges (t[1:5], t[::2]) and '...' only, and gives a view", *form),
                        blame);
      if (!v.is(ValueKind::number) || !v.as_quantity().dim.dimensionless() || v.as_number() != std::floor(v.as_number()) ||
          std::fabs(v.as_number()) > 9e15)
        return error_at(*expr, env, fmt::format("an index or slice bound must be a whole number, got {}", v.repr(5)), blame);
      *slot = static_cast<std::int64_t>(v.as_number());
    }
    if (p.kind == ast::Subscript::Kind::index) sv.index = *sv.start, sv.start.reset();
    subs.push_back(sv);
  }
  if (auto hooked = try_index_hooks(obj, subs, at, env)) return *hooked;
  return error_at(at, env, fmt::format("cannot slice a {}: slices, several indices and '...' apply to tensors", obj.kind_name()),
                  obj.from_submission() ? Blame::submission : Blame::rubric);
}

void Evaluator::note_read(const Record& r) {
  if (!r.evidence || !read_evidence_seen_.insert(r.evidence.get()).second) return;
  read_evidence_.insert(read_evidence_.end(), r.evidence->begin(), r.evidence->end());
  if (!r.abnormal.empty()) read_abnormal_ += (read_abnormal_.empty() ? "" : "; ") + r.abnormal;
}

void Evaluator::note_evidence(const std::string& line) {
  if (std::find(read_evidence_.begin(), read_evidence_.end(), line) == read_evidence_.end()) read_evidence_.push_back(line);
}

void Evaluator::note_review(const std::string& reason) {
  if (std::find(reviews_.begin(), reviews_.end(), reason) == reviews_.end()) reviews_.push_back(reason);
}

std::string Evaluator::take_reviews() {
  std::string joined;
  for (const auto& r : take_review_list()) joined += (joined.empty() ? "" : "; ") + r;
  return joined;
}

std::vector<std::string> Evaluator::take_review_list() { return std::exchange(reviews_, {}); }

std::string Evaluator::claim_review(const Value& claim) {
  if (!claim.is(ValueKind::record)) return "";
  const Record& r = claim.as_record();
  const Value* amb = r.find("ambiguous");
  const Value* text = r.find("text");
  if (!amb || !text || !amb->is(ValueKind::string) || !text->is(ValueKind::string) || amb->as_string().empty()) return "";
  return fmt::format("claim {}: {}", text->as_string(), amb->as_string());
}

std::vector<std::string> Evaluator::take_read_evidence(std::string* abnormal) {
  read_evidence_seen_.clear();
  if (abnormal) *abnormal = read_abnormal_;
  read_abnormal_.clear();
  return std::exchange(read_evidence_, {});
}

void Evaluator::check_string_size(std::size_t bytes) const {
  if (bytes > max_string_bytes)
    throw LimitExceeded(fmt::format("string size limit exceeded ({} bytes, at most {})", bytes, max_string_bytes));
}

void Evaluator::check_list_size(std::size_t items) const {
  if (items > max_list_items)
    throw LimitExceeded(fmt::format("list size limit exceeded ({} items, at most {})", items, max_list_items));
}

Value Evaluator::interpolate(const ast::StringLit& s, const ast::Expr&, const EnvPtr& env) {
  std::string out;
  for (const auto& part : s.parts) {
    if (auto* text = std::get_if<std::string>(&part)) {
      out += *text;
    } else {
      Value v = eval(*std::get<ast::ExprPtr>(part), env);
      if (v.is_error()) return v;
      if (auto held = v.held_error()) return *held;
      out += v.to_string();
    }
    check_string_size(out.size());
  }
  return Value::string(std::move(out));
}

EnvPtr Evaluator::bind_block_lets(const ast::BlockExpr& b, const EnvPtr& env) {
  auto scope = std::make_shared<Environment>(env, env ? env->module() : nullptr);
  for (const ast::BlockLet& l : b.lets) scope->define(l.name.name, eval(*l.value, scope).named_samples(l.name.name));
  return scope;
}

Value Evaluator::eval(const ast::Expr& e, const EnvPtr& env) {
  count_step();
  DepthGuard guard(expr_depth_, limits_.expr_depth, "expression depth");
  return std::visit(
      [&](const auto& n) -> Value {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::NullLit>) {
          return Value();
        } else if constexpr (std::is_same_v<T, ast::BoolLit>) {
          return Value::boolean(n.value);
        } else if constexpr (std::is_same_v<T, ast::NumberLit>) {
          if (n.unit.empty()) return n.percent ? Value::number(n.value).mark_percent() : Value::number(n.value);
          std::string why;
          auto u = parse_unit(n.unit, &why);
          if (!u) return error_at(e, env, why);
          return Value::number(decimal::mul(n.value, u->scale), u->dim);
        } else if constexpr (std::is_same_v<T, ast::StringLit>) {
          return interpolate(n, e, env);
        } else if constexpr (std::is_same_v<T, ast::Name>) {
          return lookup(n.name, e, env);
        } else if constexpr (std::is_same_v<T, ast::ListLit>) {
          // An item that cannot be computed stays in its slot (Value::holds_error): `any`/`all`
          // decide item by item; any other use of the list yields the strongest such error.
          List items;
          items.reserve(n.items.size());
          for (const auto& item : n.items) items.push_back(eval(*item, env));
          return Value::list(std::move(items));
        } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
          Record r;
          // An error in one field stays in that field: it surfaces only where the field is used.
          for (const auto& f : n.fields) {
            Value v = eval(*f.value, env);
            bool replaced = false;
            for (auto& existing : r.fields)
              if (existing.first == f.key.name) {
                existing.second = v;
                replaced = true;
              }
            if (!replaced) r.fields.emplace_back(f.key.name, std::move(v));
          }
          return Value::record(std::move(r));
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          if (n.op == ast::UnaryOp::logical_not) {
            Value v = eval(*n.operand, env);
            if (v.is_error()) return v;
            if (v.is(ValueKind::boolean)) return Value::boolean(!v.as_bool());
            if (v.is(ValueKind::samples)) return error_at(e, env, "'not' of a statistical comparison: use it in an `expect`");
            return error_at(e, env, fmt::format("'not' needs a bool, got a {} ({})", v.kind_name(), v.repr(5)), v.from_submission() ? Blame::submission : Blame::rubric);
          }
          Value v = eval(*n.operand, env);
          if (v.is_error()) return v;
          if (v.is(ValueKind::number)) return Value::number(-v.as_number(), v.as_quantity().dim);
          if (v.is(ValueKind::samples)) {
            auto s = std::make_shared<SampleExpr>();
            s->op = SampleExpr::Op::neg;
            s->lhs = v.as_samples().expr;
            s->dim = v.as_samples().dim();
            return Value::samples(std::move(s));
          }
          return error_at(e, env, fmt::format("cannot negate a {}", v.kind_name()), v.from_submission() ? Blame::submission : Blame::rubric);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          if (n.op == ast::BinaryOp::logical_and || n.op == ast::BinaryOp::logical_or) {
            // The blame algebra of `decide`, on values, left to right (verdicts.hpp).
            const Connective connective = n.op == ast::BinaryOp::logical_and ? Connective::all : Connective::any;
            auto as_condition = [&](Value v, const ast::Expr& at) -> Value {
              if (v.is_error() || v.is(ValueKind::boolean)) return v;
              return error_at(at, env, fmt::format("'{}' needs bools, got a {} ({})", ast::op_text(n.op), v.kind_name(), v.repr(5)),
                              v.from_submission() ? Blame::submission : Blame::rubric);
            };
            Value a = as_condition(eval(*n.lhs, env), *n.lhs);
            if (settles(*truth_of(a), connective)) return a;
            Value b = as_condition(eval(*n.rhs, env), *n.rhs);
            switch (deciding_side(*truth_of(a), *truth_of(b), connective)) {
              case DecidingSide::left: return a;
              case DecidingSide::right: return b;
              case DecidingSide::identity: break;
            }
            return b;  // both are the identity
          }
          Value a = eval(*n.lhs, env);
          Value b = eval(*n.rhs, env);
          if (is_ordering(n.op) && (a.is(ValueKind::samples) || b.is(ValueKind::samples)) && !a.is_error() && !b.is_error()) {
            return value_of_outcome(decide(e, env));
          }
          return apply_binary(n.op, a, b, e, env);
        } else if constexpr (std::is_same_v<T, ast::Within> || std::is_same_v<T, ast::Matches> ||
                             std::is_same_v<T, ast::Mentions>) {
          return value_of_outcome(decide(e, env));
        } else if constexpr (std::is_same_v<T, ast::As>) {
          // A conversion keeps the blame of what it converts: the candidate's number with a unit is
          // still the candidate's (a zero divisor later FAILs), and the candidate's string, null or
          // record where a number belongs FAILs. A value that already has a unit got it from the
          // rubric (data files carry plain numbers), so that mismatch is the rubric's ERROR.
          Value v = eval(*n.value, env);
          if (v.is_error()) return v;
          if (auto held = v.held_error()) return *held;
          std::string why;
          auto u = parse_unit(n.unit, &why);
          if (!u) return error_at(e, env, why);
          const bool candidate = carries_submission_data(v);
          auto kept = [&](Value out) {
            if (candidate) out.mark_from_submission();
            return out;
          };
          if (v.is(ValueKind::number)) {
            if (!v.as_quantity().dim.dimensionless())
              return error_at(e, env, fmt::format("'as {}' applies to plain numbers; {} already has a unit", n.unit, v.to_string()));
            return kept(Value::number(decimal::mul(v.as_number(), u->scale), u->dim));
          }
          if (v.is(ValueKind::samples)) {
            if (!v.as_samples().dim().dimensionless())
              return error_at(e, env, fmt::format("'as {}' applies to plain samples; these already have a unit", n.unit));
            const SampleExpr& se = *v.as_samples().expr;
            if (se.op == SampleExpr::Op::leaf) {
              SampleSet s = *se.leaf;
              for (double& x : s.values) x = decimal::mul(x, u->scale);
              s.dim = u->dim;
              return kept(Value::samples_of(std::move(s)));
            }
            auto scaled = std::make_shared<SampleExpr>();
            scaled->op = SampleExpr::Op::mul;
            scaled->lhs = v.as_samples().expr;
            auto c = std::make_shared<SampleExpr>();
            c->op = SampleExpr::Op::constant;
            c->constant = u->scale;
            c->dim = u->dim;
            scaled->rhs = c;
            scaled->dim = u->dim;
            return kept(Value::samples(std::move(scaled)));
          }
          if (v.is(ValueKind::list)) {
            List out;
            out.reserve(v.as_list().size());
            for (std::size_t i = 0; i < v.as_list().size(); ++i) {
              const Value& item = v.as_list()[i];
              if (!item.is(ValueKind::number))
                return error_at(e, env,
                                fmt::format("'as {}' of a list needs plain numbers, item {} is {}{}", n.unit, i, item.repr(5),
                                            candidate ? " in " + describe_data(*n.value, env) : ""),
                                candidate || item.from_submission() ? Blame::submission : Blame::rubric);
              if (!item.as_quantity().dim.dimensionless())
                return error_at(e, env, fmt::format("'as {}' of a list needs plain numbers; item {} ({}) already has a unit", n.unit,
                                                    i, item.to_string()));
              Value x = Value::number(decimal::mul(item.as_number(), u->scale), u->dim);
              if (candidate || item.from_submission()) x.mark_from_submission();
              out.push_back(std::move(x));
            }
            return kept(Value::list(std::move(out), v.list_what(), v.list_none()));
          }
          return error_at(e, env,
                          fmt::format("'as {}' needs a number, got a {} ({}){}", n.unit, v.kind_name(), v.repr(5),
                                      candidate ? " from " + describe_data(*n.value, env) : ""),
                          candidate ? Blame::submission : Blame::rubric);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          Value callee = eval(*n.callee, env);
          if (callee.is_error()) return callee;
          std::vector<Value> pos;
          pos.reserve(n.args.size());
          for (const auto& a : n.args) pos.push_back(eval(*a, env));
          std::vector<std::pair<std::string, Value>> named;
          for (const auto& na : n.named) named.emplace_back(na.name.name, eval(*na.value, env));
          return call_value(callee, std::move(pos), std::move(named), &e, env);
        } else if constexpr (std::is_same_v<T, ast::Field>) {
          // A module alias: `num.rel_l2`.
          if (auto* name = std::get_if<ast::Name>(&n.object->node)) {
            for (Environment* s = env.get(); s; s = s->parent().get()) {
              const Environment::Slot* slot = s->find_local(name->name);
              if (!slot) continue;
              if (slot->alias) {
                const Module* m = slot->alias->module;
                auto it = m->decls.find(n.name.name);
                if (it == m->decls.end()) {
                  std::string names;
                  for (const auto& d : m->decls) names += (names.empty() ? "" : ", ") + d.first;
                  return error_at(e, env, fmt::format("module '{}' has no '{}'; it declares: {}", m->name, n.name.name, names));
                }
                return lookup(n.name.name, e, slot->alias->globals);
              }
              // A row of a table: the field is read in place (no record is made); a missing key
              // takes the path below, which says what a record's would.
              if (slot->table)
                if (const Value* v = slot->table->find(slot->row, n.name.name)) {
                  charge_nested_evals(1);  // what evaluating the name would have cost
                  return *v;
                }
              break;
            }
          }
          Value obj = eval(*n.object, env);
          if (obj.is_error()) return obj;
          if (obj.is(ValueKind::record)) {
            const Record& r = obj.as_record();
            note_read(r);
            if (const Value* v = r.find(n.name.name)) {
              // A claim's polarity read from an ambiguous construction marks what it decides, as
              // `polarity(...)` does: "claim 10x: a question".
              if (n.name.name == "polarity")
                if (std::string why = claim_review(obj); !why.empty()) note_review(why);
              return *v;
            }
            return error_at(e, env,
                            r.missing_key(n.name.name),
                            blame_for_origin(r.origin));
          }
          if (auto hooked = try_field_hooks(obj, n.name.name, e, env)) return *hooked;
          return error_at(e, env, fmt::format("a {} has no field '{}'", obj.kind_name(), n.name.name), obj.from_submission() ? Blame::submission : Blame::rubric);
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          Value obj = eval(*n.object, env);
          if (obj.is_error()) return obj;
          if (!n.index || obj.is(ValueKind::tensor)) return eval_subscripts(obj, n, e, env);
          Value idx = eval(*n.index, env);
          if (idx.is_error()) return idx;
          if (obj.is(ValueKind::list)) {
            if (!idx.is(ValueKind::number) || !idx.as_quantity().dim.dimensionless() || idx.as_number() != std::floor(idx.as_number()))
              return error_at(e, env, fmt::format("a list index must be a whole number, got {}", idx.repr(5)),
                              idx.from_submission() ? Blame::submission : Blame::rubric);
            const std::size_t size = obj.list_size();  // a table's records are not all made for one
            double i = idx.as_number();
            double k = i < 0 ? i + static_cast<double>(size) : i;
            if (k < 0 || k >= static_cast<double>(size)) {
              // Past the end of a list made from the submission (files it lacks, rows it did not
              // write, a filter of its data) is the submission's failure; of the rubric's own list, its error.
              const std::string n_items = fmt::format("{} item{}", size, size == 1 ? "" : "s");
              std::string why = size == 0 && !obj.list_none().empty() ? obj.list_none()
                                : !obj.list_what().empty()            ? fmt::format("{} in {}", n_items, obj.list_what())
                                                                      : fmt::format("the list has {}", n_items);
              return error_at(e, env, fmt::format("index {} out of range: {}", format_number(i), why),
                              obj.from_submission() ? Blame::submission : Blame::rubric);
            }
            const TableView view = obj.table_view();
            Value item = view ? view.table->record(view.row(static_cast<std::size_t>(k))) : obj.as_list()[static_cast<std::size_t>(k)];
            if (obj.from_submission() && !item.is_error()) item.mark_from_submission();
            return item;
          }
          if (obj.is(ValueKind::record)) {
            if (!idx.is(ValueKind::string))
              return error_at(e, env, fmt::format("a record key must be a string, got {}", idx.repr(5)),
                              idx.from_submission() ? Blame::submission : Blame::rubric);
            const Record& r = obj.as_record();
            note_read(r);
            if (const Value* v = r.find(idx.as_string())) return *v;
            return error_at(e, env,
                            r.missing_key(idx.as_string()),
                            blame_for_origin(r.origin));
          }
          if (obj.is(ValueKind::string)) {
            if (!idx.is(ValueKind::number))
              return error_at(e, env, "a string index must be a number", idx.from_submission() ? Blame::submission : Blame::rubric);
            const std::string& s = obj.as_string();
            double i = idx.as_number();
            double k = i < 0 ? i + static_cast<double>(s.size()) : i;
            if (k < 0 || k >= static_cast<double>(s.size()))
              return error_at(e, env, fmt::format("index {} out of range: the string has {} bytes", format_number(i), s.size()),
                              obj.from_submission() || idx.from_submission() ? Blame::submission : Blame::rubric);
            return Value::string(s.substr(static_cast<std::size_t>(k), 1));
          }
          return error_at(e, env, fmt::format("cannot index a {}", obj.kind_name()),
                          obj.from_submission() ? Blame::submission : Blame::rubric);
        } else if constexpr (std::is_same_v<T, ast::IfExpr>) {
          Value c = eval(*n.condition, env);
          if (c.is_error()) return c;
          if (!c.is(ValueKind::boolean))
            return error_at(*n.condition, env, fmt::format("'if' needs a bool condition, got a {} ({})", c.kind_name(), c.repr(5)),
                            c.from_submission() ? Blame::submission : Blame::rubric);
          return eval(c.as_bool() ? *n.then_value : *n.else_value, env);
        } else if constexpr (std::is_same_v<T, ast::BlockExpr>) {
          // Lets are eager, in order, each in scope for what follows; an error a let yields is a
          // value like any other, so it fails exactly what uses it, with its own blame.
          EnvPtr scope = bind_block_lets(n, env);
          return eval(*n.value, scope);
        } else if constexpr (std::is_same_v<T, ast::Lambda>) {
          Function f;
          f.kind = Function::Kind::lambda;
          f.name = "lambda";
          f.lambda = &n;
          f.closure = env;
          return Value::function(std::move(f));
        } else {
          return Value();
        }
      },
      e.node);
}

}  // namespace rubric
