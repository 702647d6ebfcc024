// Names, lazy cells, modules at run time, calls (builtins, defs, lambdas) and the CallContext
// that builtins see.
#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include <cmath>
#include <new>

#include "interpreter/evaluator.hpp"
#include "interpreter/paths.hpp"
#include "interpreter/shrunk_files.hpp"
#include "interpreter/verdicts.hpp"
#include "operators/error.hpp"
#include "operators/files/bus_guard.hpp"

namespace rubric {

// What a builtin sees of the evaluation (CallContext): a friend of Evaluator for the step budget.
class EvalCallContext final : public CallContext {
 public:
  EvalCallContext(Evaluator& ev, std::string name, SourceLocation where, EnvPtr env, const ast::Expr* site = nullptr,
                  const Builtin* builtin = nullptr)
      : ev_(ev), name_(std::move(name)), where_(std::move(where)), env_(std::move(env)), site_(site), builtin_(builtin) {}

  std::string describe_argument(int argno) const override {
    const auto* call = site_ ? std::get_if<ast::Call>(&site_->node) : nullptr;
    if (!call || !builtin_ || argno < 1) return "";
    const std::size_t k = static_cast<std::size_t>(argno - 1);
    const ast::Expr* arg = nullptr;
    if (k < builtin_->params.size())
      for (const auto& na : call->named)
        if (na.name.name == builtin_->params[k].name) arg = na.value.get();
    const std::size_t positional = builtin_->variadic ? builtin_->required_count() : builtin_->params.size();
    if (!arg && k < positional && k < call->args.size()) arg = call->args[k].get();
    return arg ? ev_.describe_data(*arg, env_) : "";
  }

  const std::string& function_name() const override { return name_; }
  SourceLocation location() const override { return where_; }
  std::optional<std::string> root_dir(const std::string& root) const override { return ev_.root_dir(root); }
  void record_file(FileRecord r, std::shared_future<std::string> digest) override {
    ev_.files.add(std::move(r), std::move(digest));
  }
  bool has_file(const PathValue& p) const override { return ev_.files.contains(p.root, p.relative); }
  void record_run(const RunRecord& r) override { ev_.runs.push_back(r); }
  std::uint64_t seed() const override { return ev_.seed(); }
  double confidence() const override { return ev_.confidence(); }
  ProgressSink* progress() override { return ev_.progress(); }
  Value call(const Value& fn, const std::vector<Value>& args) override {
    // A builtin applying a function to items (map, count, filter, all, ...): items of the
    // submission's data are counted, for whose size ran a step budget out.
    if (!args.empty() && carries_submission_data(args[0])) ev_.count_submission_item();
    return ev_.call_value(fn, args, {}, nullptr, env_);
  }
  Value call_on(const Value& fn, const Value& arg) override {
    if (carries_submission_data(arg)) ev_.count_submission_item();
    return ev_.call_on(fn, arg, env_);
  }
  Value call_on_row(const Value& fn, const RecordTable& t, std::size_t row) override {
    if (t.from_submission) ev_.count_submission_item();  // a table's records are marked when its origin is the submission's
    return ev_.call_on_row(fn, t, row, env_);
  }
  std::shared_ptr<const void> cached(const std::string& key) const override {
    auto it = ev_.cache.find(key);
    return it == ev_.cache.end() ? nullptr : it->second;
  }
  void store(const std::string& key, std::shared_ptr<const void> value) override { ev_.cache[key] = std::move(value); }
  void charge_steps(std::uint64_t steps) override { ev_.charge_steps(steps); }
  void note_evidence(const std::string& line) override { ev_.note_evidence(line); }
  void note_review(const std::string& reason) override { ev_.note_review(reason); }

 private:
  Evaluator& ev_;
  std::string name_;
  SourceLocation where_;
  EnvPtr env_;
  const ast::Expr* site_;
  const Builtin* builtin_;
};

namespace {

Value def_function(const ast::Def& d, ModuleRuntime* m) {
  Function f;
  f.kind = Function::Kind::def;
  f.name = d.name.name;
  f.def = &d;
  f.closure = m->globals;
  return Value::function(std::move(f));
}

// Binds call arguments to one registration's parameters (see Builtin in registry.hpp).
std::optional<std::vector<Value>> bind_builtin_args(const Builtin& b, const std::vector<Value>& pos,
                                                    const std::vector<std::pair<std::string, Value>>& named, std::string& why) {
  std::vector<std::optional<Value>> bound(b.params.size());
  std::vector<Value> rest;
  std::size_t fill = b.variadic ? b.required_count() : b.params.size();
  std::size_t pi = 0, filled = 0;
  for (std::size_t i = 0; i < pos.size(); ++i) {
    while (pi < b.params.size() && b.variadic && b.params[pi].default_value) ++pi;  // defaults only by name
    if (filled < fill && pi < b.params.size()) {
      bound[pi++] = pos[i];
      ++filled;
    } else if (b.variadic) {
      rest.push_back(pos[i]);
    } else {
      why = fmt::format("too many arguments to '{}': it takes {} ({})", b.name, b.params.size(), b.signature());
      return std::nullopt;
    }
  }
  for (const auto& nv : named) {
    std::size_t k = 0;
    while (k < b.params.size() && b.params[k].name != nv.first) ++k;
    if (k == b.params.size()) {
      why = fmt::format("'{}' has no parameter '{}' ({})", b.name, nv.first, b.signature());
      return std::nullopt;
    }
    if (bound[k]) {
      why = fmt::format("argument '{}' to '{}' given twice", nv.first, b.name);
      return std::nullopt;
    }
    bound[k] = nv.second;
  }
  std::vector<Value> args;
  args.reserve(bound.size() + rest.size());
  for (std::size_t k = 0; k < bound.size(); ++k) {
    if (bound[k]) args.push_back(*bound[k]);
    else if (b.params[k].default_value) args.push_back(*b.params[k].default_value);
    else {
      why = fmt::format("missing argument '{}' to '{}' ({})", b.params[k].name, b.name, b.signature());
      return std::nullopt;
    }
  }
  for (auto& v : rest) args.push_back(std::move(v));
  return args;
}

// A builtin's result derived from submission data carries that fact (docs/semantics.md, "Blame of
// data"): the value, and each item of a list, so an index past its end or a wrong kind inside it
// FAILs the submission. A list that does not say what it lists is described by the call.
Value carry_submission_blame(Value v, const std::string& call_text) {
  if (TableView view = v.table_view(); view && view.table->from_submission) {
    // Its records are marked as made (RecordTable::record): only the description is new.
    if (v.list_what().empty() && !call_text.empty()) v = v.described(call_text, fmt::format("{} is empty", call_text));
  } else if (v.is(ValueKind::list)) {
    const List& items = v.as_list();
    bool all_marked = true;
    for (const auto& x : items) all_marked = all_marked && (x.from_submission() || x.is_error());
    bool describe = v.list_what().empty() && !call_text.empty();
    if (!all_marked || describe) {
      List copy = items;
      for (auto& x : copy)
        if (!x.is_error()) x.mark_from_submission();
      v = describe ? Value::list(std::move(copy), call_text, fmt::format("{} is empty", call_text))
                   : Value::list(std::move(copy), v.list_what(), v.list_none());
    }
  }
  return v.mark_from_submission();
}

}  // namespace

const Module* Evaluator::module_of(const EnvPtr& env) const {
  return env && env->module() ? env->module()->module : program_.root;
}

SourceLocation Evaluator::location_of(SourceRange r, const Module* m) const {
  SourceLocation loc;
  if (!m || !m->file || !m->file->source) return loc;
  const SourceFile& src = *m->file->source;
  loc.file = src.name();
  if (!r.known()) return loc;
  LineColumn lc = src.position(r.begin);
  loc.line = lc.line;
  loc.column = lc.column;
  return loc;
}

SourceLocation Evaluator::location_of(const ast::Expr& e, const EnvPtr& env) const { return location_of(e.range, module_of(env)); }

SourceLocation Evaluator::error_location(const ast::Expr& e, const EnvPtr& env) const {
  SourceLocation here = location_of(e, env);
  const Module* m = module_of(env);
  if (!library_call_site_ || !m || !m->is_stdlib || !here.known()) return here;
  SourceLocation call = *library_call_site_;
  call.raised_in = error_location_text(here);
  return call;
}

namespace {

// Where a block expression's parts lie, as offsets into the text being flattened: a line break
// right after a let's text separates two parts of the block, so it becomes "; " on one line.
struct BlockMarks {
  std::vector<std::size_t> let_ends;  // one past each let's text
  std::vector<std::size_t> braces;    // each block's '{' and '}'
};

template <class F>
void for_each_child(const ast::Expr& e, F f) {
  auto each = [&](const ast::ExprPtr& x) {
    if (x) f(*x);
  };
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::StringLit>) {
          for (const auto& part : n.parts)
            if (auto* x = std::get_if<ast::ExprPtr>(&part)) each(*x);
        } else if constexpr (std::is_same_v<T, ast::ListLit>) {
          for (const auto& x : n.items) each(x);
        } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
          for (const auto& fl : n.fields) each(fl.value);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          each(n.operand);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          each(n.lhs), each(n.rhs);
        } else if constexpr (std::is_same_v<T, ast::Within>) {
          each(n.value), each(n.tolerance), each(n.reference);
        } else if constexpr (std::is_same_v<T, ast::Matches>) {
          for (const auto* x : {&n.value, &n.reference, &n.both, &n.rtol, &n.atol, &n.ulp}) each(*x);
        } else if constexpr (std::is_same_v<T, ast::Mentions>) {
          each(n.text), each(n.phrases);
        } else if constexpr (std::is_same_v<T, ast::As>) {
          each(n.value);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          each(n.callee);
          for (const auto& x : n.args) each(x);
          for (const auto& x : n.named) each(x.value);
        } else if constexpr (std::is_same_v<T, ast::Field>) {
          each(n.object);
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          each(n.object), each(n.index);
          for (const auto& sub : n.subscripts) each(sub.start), each(sub.stop), each(sub.step);
        } else if constexpr (std::is_same_v<T, ast::IfExpr>) {
          each(n.condition), each(n.then_value), each(n.else_value);
        } else if constexpr (std::is_same_v<T, ast::Lambda>) {
          each(n.body);
        } else if constexpr (std::is_same_v<T, ast::BlockExpr>) {
          for (const auto& l : n.lets) each(l.value);
          each(n.value);
        }
      },
      e.node);
}

void collect_block_marks(const ast::Expr& e, std::uint32_t base, BlockMarks& out) {
  if (auto* b = std::get_if<ast::BlockExpr>(&e.node)) {
    out.braces.push_back(e.range.begin - base);
    out.braces.push_back(e.range.end - 1 - base);
    for (const auto& l : b->lets) out.let_ends.push_back(l.range.end - base);
  }
  for_each_child(e, [&](const ast::Expr& child) { collect_block_marks(child, base, out); });
}

bool marked(const std::vector<std::size_t>& at, std::size_t i) { return std::find(at.begin(), at.end(), i) != at.end(); }

// Whether `text` has anything one_line changes: a line break, a tab or a run of blanks.
bool needs_folding(std::string_view text) {
  return text.find_first_of("\n\r\t") != std::string_view::npos || text.find("  ") != std::string_view::npos;
}

// An expression's text as evidence shows it: on one line. Outside string literals, comments are
// dropped, a run of blanks becomes one space, and a line break with the blanks around it becomes
// one space (none just inside brackets, one just inside a block's braces, and "; " after a
// block's let).

std::string one_line(std::string_view text, const BlockMarks& marks) {
  if (!needs_folding(text)) return std::string(text);
  std::string out;
  out.reserve(text.size());
  bool in_string = false, raw = false, pending_break = false;
  std::size_t last = std::string_view::npos;  // the index in `text` of the last non-blank character written
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && !raw && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      last = i;
      continue;
    }
    if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      if (c == '\n') pending_break = true;
      if (!pending_break && (out.empty() || out.back() != ' ')) out += ' ';
      continue;
    }
    if (pending_break) {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      const bool block_open = last != std::string_view::npos && marked(marks.braces, last);
      const bool block_close = c == '}' && marked(marks.braces, i);
      const bool after_open = !out.empty() && (out.back() == '(' || out.back() == '[' || out.back() == '{') && !block_open;
      const bool before_close = (c == ')' || c == ']' || c == '}') && !block_close;
      if (last != std::string_view::npos && marked(marks.let_ends, last + 1) && c != ';') out += ';';
      if (!out.empty() && !after_open && !before_close) out += ' ';
      pending_break = false;
    }
    if (c == '"') {
      in_string = true;
      raw = !out.empty() && out.back() == 'r' && (out.size() == 1 || !(std::isalnum(static_cast<unsigned char>(out[out.size() - 2])) || out[out.size() - 2] == '_'));
    }
    out += c;
    last = i;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string Evaluator::source_text(const ast::Expr& e, const EnvPtr& env) const {
  const Module* m = module_of(env);
  if (!m || !m->file || !m->file->source || !e.range.known()) return "";
  std::string_view text = m->file->source->slice(e.range);
  if (!needs_folding(text)) return std::string(text);
  BlockMarks marks;
  collect_block_marks(e, e.range.begin, marks);
  return one_line(text, marks);
}

std::optional<Value> Evaluator::peek(const ast::Expr& e, const EnvPtr& env) const {
  if (const auto* n = std::get_if<ast::Name>(&e.node)) {
    for (const Environment* s = env.get(); s; s = s->parent().get()) {
      const Environment::Slot* slot = s->find_local(n->name);
      if (!slot) continue;
      if (slot->alias) return std::nullopt;
      if (slot->lazy) return slot->lazy->state == LazyCell::State::done ? std::optional<Value>(slot->lazy->value) : std::nullopt;
      return slot->bound();
    }
    return std::nullopt;
  }
  if (const auto* f = std::get_if<ast::Field>(&e.node)) {
    auto obj = peek(*f->object, env);
    if (!obj || !obj->is(ValueKind::record)) return std::nullopt;
    const Value* v = obj->as_record().find(f->name.name);
    return v ? std::optional<Value>(*v) : std::nullopt;
  }
  if (const auto* ix = std::get_if<ast::Index>(&e.node); ix && ix->index) {
    auto obj = peek(*ix->object, env);
    if (!obj) return std::nullopt;
    if (const auto* num = std::get_if<ast::NumberLit>(&ix->index->node); num && num->unit.empty() && obj->is(ValueKind::list)) {
      const List& l = obj->as_list();
      double k = num->value < 0 ? num->value + static_cast<double>(l.size()) : num->value;
      if (k >= 0 && k < static_cast<double>(l.size()) && k == static_cast<double>(static_cast<std::size_t>(k)))
        return l[static_cast<std::size_t>(k)];
    }
    const auto* str = std::get_if<ast::StringLit>(&ix->index->node);
    if (str && str->parts.size() == 1 && std::holds_alternative<std::string>(str->parts[0]) && obj->is(ValueKind::record)) {
      const Value* v = obj->as_record().find(std::get<std::string>(str->parts[0]));
      return v ? std::optional<Value>(*v) : std::nullopt;
    }
  }
  return std::nullopt;
}

std::string Evaluator::candidate_value_note(const Value& v, const ast::Expr* e, const EnvPtr& env, bool with_value) const {
  if (!e || v.is_error() || !carries_submission_data(v)) return "";
  std::string where = describe_data(*e, env);
  // Only a known origin (a file and key, a list's source) tells more than the check's own text.
  if (where.empty() || where.front() == '`') return "";
  if (!with_value) return " from " + where;
  std::string shown = v.is(ValueKind::number) && std::isnan(v.as_number()) ? std::string("NaN") : v.repr(5);
  return fmt::format(": {} from {}", shown, where);
}

std::string Evaluator::describe_data(const ast::Expr& e, const EnvPtr& env) const {
  // A field or key of a record read from a file: the file (and the path within it) and the key.
  auto key_of = [&](const ast::Expr& object, const std::string& key) -> std::string {
    auto obj = peek(object, env);
    if (obj && obj->is(ValueKind::record) && !obj->as_record().origin.empty())
      return fmt::format("{}: {}", obj->as_record().origin.str(), key);
    return "";
  };
  if (const auto* f = std::get_if<ast::Field>(&e.node)) {
    std::string d = key_of(*f->object, f->name.name);
    if (!d.empty()) return d;
  }
  if (const auto* ix = std::get_if<ast::Index>(&e.node); ix && ix->index) {
    const auto* str = std::get_if<ast::StringLit>(&ix->index->node);
    if (str && str->parts.size() == 1 && std::holds_alternative<std::string>(str->parts[0])) {
      std::string d = key_of(*ix->object, std::get<std::string>(str->parts[0]));
      if (!d.empty()) return d;
    }
    const auto* num = std::get_if<ast::NumberLit>(&ix->index->node);
    auto obj = peek(*ix->object, env);
    if (num && obj && obj->is(ValueKind::list) && !obj->list_what().empty())
      return fmt::format("item {} of {}", format_number(num->value), obj->list_what());
  }
  if (auto v = peek(e, env)) {
    if (v->is(ValueKind::list) && !v->list_what().empty()) return v->list_what();
    if (v->is(ValueKind::record) && !v->as_record().origin.empty()) return v->as_record().origin.str();
  }
  std::string text = source_text(e, env);
  return text.empty() ? "" : "`" + text + "`";
}

Value Evaluator::error_at(const ast::Expr& e, const EnvPtr& env, std::string message, Blame blame) const {
  return Value::error(std::move(message), blame, error_location(e, env));
}

Value Evaluator::force(const std::shared_ptr<LazyCell>& cell) {
  if (cell->state == LazyCell::State::done) return cell->value;
  if (cell->state == LazyCell::State::running)  // located at its definition, where the cycle is to be broken
    return Value::error(fmt::format("'{}' is defined in terms of itself", cell->name), Blame::rubric,
                        error_location(*cell->expr, EnvPtr(EnvPtr(), cell->env)));
  cell->state = LazyCell::State::running;
  EnvPtr env;
  // The cell's environment is owned elsewhere; wrap it without ownership for evaluation.
  env = EnvPtr(EnvPtr(), cell->env);
  try {
    Value v = eval(*cell->expr, env);
    if (v.is_error()) {
      const ErrorInfo& info = v.as_error();
      // Keeps the verdict: a let that was skipped (no GPU) or inconclusive stays so, never an ERROR.
      v = Value::undecided(fmt::format("'{}' could not be evaluated: {}", cell->name, info.message), info.verdict, info.blame,
                           info.location);
    }
    cell->value = v.named_samples(cell->name);
  } catch (const LimitExceeded& ex) {
    cell->value = Value::error(fmt::format("'{}' could not be evaluated: {}", cell->name, ex.what()), Blame::rubric,
                               error_location(*cell->expr, env));
    cell->state = LazyCell::State::done;
    throw;
  } catch (const std::bad_alloc&) {
    // Left `running`, the cell would later read as "defined in terms of itself".
    cell->value = Value::error(fmt::format("'{}' could not be evaluated: out of memory", cell->name), Blame::rubric,
                               error_location(*cell->expr, env));
    cell->state = LazyCell::State::done;
    throw;
  }
  cell->state = LazyCell::State::done;
  return cell->value;
}


Value Evaluator::lookup(const std::string& name, const ast::Expr& at, const EnvPtr& env) {
  for (Environment* s = env.get(); s; s = s->parent().get()) {
    const Environment::Slot* slot = s->find_local(name);
    if (!slot) continue;
    if (slot->lazy) {
      std::shared_ptr<LazyCell> cell = slot->lazy;
      return force(cell);
    }
    if (slot->alias) return error_at(at, env, fmt::format("'{}' names a module; use '{}.name'", name, name));
    return slot->bound();
  }
  // The module's own defs, then modules used unqualified.
  ModuleRuntime* mr = env ? env->module() : nullptr;
  if (mr) {
    auto it = mr->module->decls.find(name);
    if (it != mr->module->decls.end() && it->second.kind == Decl::Kind::def) return def_function(*it->second.def, mr);
    for (ModuleRuntime* used : mr->unqualified) {
      auto d = used->module->decls.find(name);
      if (d == used->module->decls.end()) continue;
      if (d->second.kind == Decl::Kind::def) return def_function(*d->second.def, used);
      return lookup(name, at, used->globals);
    }
  }
  if (name == "submission" || name == "reference") {
    auto dir = root_dir(name);
    if (!dir) return error_at(at, env, fmt::format("no {} directory was given", name));
    PathValue root = make_root(name, *dir);
    if (name == "reference") root.root_origin = settings_.reference_origin;
    return Value::path(std::move(root));
  }
  if (const Value* v = registry_.find_binding(name)) return *v;
  if (auto b = registry_.find(name)) {
    Function f;
    f.kind = Function::Kind::builtin;
    f.name = name;
    f.builtin = b;
    return Value::function(std::move(f));
  }
  return error_at(at, env, fmt::format("undefined name '{}'", name));
}

std::optional<Value> Evaluator::try_binary_hooks(ast::BinaryOp op, const Value& a, const Value& b, const ast::Expr& at,
                                                 const EnvPtr& env) {
  const auto& hooks = registry_.binary_hooks();
  EvalCallContext ctx(*this, "operator", error_location(at, env), env);
  for (auto it = hooks.rbegin(); it != hooks.rend(); ++it) {
    try {
      if (auto r = (*it)(ctx, op, a, b)) return r;
    } catch (const std::exception& ex) {
      return error_at(at, env, ex.what());
    }
  }
  return std::nullopt;
}

std::optional<Value> Evaluator::try_index_hooks(const Value& obj, const std::vector<SubscriptValue>& subs,
                                                const ast::Expr& at, const EnvPtr& env) {
  const auto& hooks = registry_.index_hooks();
  EvalCallContext ctx(*this, "[]", error_location(at, env), env);
  for (auto it = hooks.rbegin(); it != hooks.rend(); ++it) {
    try {
      if (auto r = (*it)(ctx, obj, subs)) {
        // An element read from a mapped file is checked like any pass over it.
        if (auto s = shrunk_file({&obj, &*r})) return error_at(at, env, s->message, s->blame);
        return r;
      }
    } catch (const files::FileChanged& ex) {
      ShrunkFile s = shrunk_file({&obj}).value_or(shrunk_file(ex));
      return error_at(at, env, s.message, s.blame);
    } catch (const std::exception& ex) {
      return error_at(at, env, ex.what());
    }
  }
  return std::nullopt;
}

std::optional<Value> Evaluator::try_field_hooks(const Value& obj, const std::string& field, const ast::Expr& at, const EnvPtr& env) {
  const auto& hooks = registry_.field_hooks();
  EvalCallContext ctx(*this, "." + field, error_location(at, env), env);
  for (auto it = hooks.rbegin(); it != hooks.rend(); ++it) {
    try {
      if (auto r = (*it)(ctx, obj, field)) return r;
    } catch (const std::exception& ex) {
      return error_at(at, env, ex.what());
    }
  }
  return std::nullopt;
}

std::optional<CheckOutcome> Evaluator::try_matches_hooks(const Value& a, const Value& b, const MatchTolerance& tol,
                                                         const ast::Expr& at, const EnvPtr& env) {
  const auto& hooks = registry_.matches_hooks();
  EvalCallContext ctx(*this, "matches", error_location(at, env), env);
  // A comparison that read a file while it shrank read zeros: never a verdict on the answer.
  auto shrunk_outcome = [&](const ShrunkFile& s) {
    return outcome_of_error(Value::error(fmt::format("'matches': {}", s.message), s.blame, error_location(at, env)));
  };
  for (auto it = hooks.rbegin(); it != hooks.rend(); ++it) {
    try {
      if (auto r = (*it)(ctx, a, b, tol)) {
        if (auto s = shrunk_file({&a, &b})) return shrunk_outcome(*s);
        return r;
      }
    } catch (const files::FileChanged& ex) {
      return shrunk_outcome(shrunk_file({&a, &b}).value_or(shrunk_file(ex)));
    } catch (const std::exception& ex) {
      CheckOutcome o;
      o.verdict = Verdict::error;
      o.blame = Blame::rubric;
      o.explanation = ex.what();
      return o;
    }
  }
  return std::nullopt;
}

namespace {

struct CallDepth {
  int& depth;
  CallDepth(int& d, int limit) : depth(d) {
    if (++depth > limit) {
      --depth;
      throw LimitExceeded(fmt::format("call depth limit exceeded ({} nested calls)", limit));
    }
  }
  ~CallDepth() { --depth; }
};

}  // namespace

namespace {

// While the rubric's call into a standard-library def runs, errors raised inside the library are
// placed at that call (Evaluator::error_location); the outermost call wins.
class LibraryCall {
 public:
  LibraryCall(Evaluator& ev, const Function& f, const ast::Expr* site, const EnvPtr& env) : site_(ev.library_call_site()) {
    const ModuleRuntime* callee = f.closure ? f.closure->module() : nullptr;
    const Module* caller = ev.module_of(env);
    if (site_ || !site || !callee || !callee->module->is_stdlib || (caller && caller->is_stdlib)) return;
    site_ = ev.location_of(*site, env);
    entered_ = true;
  }
  ~LibraryCall() {
    if (entered_) site_.reset();
  }
  LibraryCall(const LibraryCall&) = delete;
  LibraryCall& operator=(const LibraryCall&) = delete;

 private:
  std::optional<SourceLocation>& site_;
  bool entered_ = false;
};

}  // namespace

EnvPtr Evaluator::lambda_scope(const EnvPtr& closure) {
  if (spare_scopes_.empty()) return std::make_shared<Environment>(closure, closure->module());
  EnvPtr scope = std::move(spare_scopes_.back());
  spare_scopes_.pop_back();
  scope->reset(closure, closure->module());
  return scope;
}

void Evaluator::release_lambda_scope(EnvPtr scope) {
  // A closure made inside the call (a lambda returned or stored in a list) holds the scope: it
  // keeps its bindings, and the scope is not reused.
  if (scope.use_count() != 1 || spare_scopes_.size() >= 16) return;
  scope->reset(nullptr, nullptr);  // the arguments are released now, not at the next call
  spare_scopes_.push_back(std::move(scope));
}

Value Evaluator::call_lambda(const Function& f, const Value* args, std::size_t count, const ast::Expr* site,
                             const EnvPtr& env) {
  const ast::Lambda& l = *f.lambda;
  if (count != l.params.size()) {
    std::string msg =
        fmt::format("the lambda takes {} argument{}, got {}", l.params.size(), l.params.size() == 1 ? "" : "s", count);
    return site ? error_at(*site, env, std::move(msg)) : Value::error(std::move(msg), Blame::rubric);
  }
  EnvPtr scope = lambda_scope(f.closure);
  for (std::size_t i = 0; i < count; ++i) scope->define(l.params[i].name, args[i]);
  Value result = eval(*l.body, scope);
  release_lambda_scope(std::move(scope));
  return result;
}

Value Evaluator::call_on(const Value& fn, const Value& arg, const EnvPtr& env) {
  if (fn.is(ValueKind::function) && fn.as_function().kind == Function::Kind::lambda && !arg.is_error()) {
    CallDepth depth(call_depth_, limits_.call_depth);
    return call_lambda(fn.as_function(), &arg, 1, nullptr, env);
  }
  return call_value(fn, {arg}, {}, nullptr, env);
}

Value Evaluator::call_on_row(const Value& fn, const RecordTable& t, std::size_t row, const EnvPtr& env) {
  if (!fn.is(ValueKind::function) || fn.as_function().kind != Function::Kind::lambda ||
      fn.as_function().lambda->params.size() != 1)
    return call_on(fn, t.record(row), env);
  CallDepth depth(call_depth_, limits_.call_depth);
  const Function& f = fn.as_function();
  // `r => r.key`, the commonest lambda over a table, reads the column without a scope; the steps
  // and depth of evaluating it are charged all the same.
  if (const auto* field = std::get_if<ast::Field>(&f.lambda->body->node))
    if (const auto* name = std::get_if<ast::Name>(&field->object->node); name && same_key(name->name, f.lambda->params[0].name))
      if (const Value* v = t.find(row, field->name.name)) {
        charge_nested_evals(2);
        return *v;
      }
  // The scope of the previous row's call is bound to this row when it is the same lambda's and
  // nothing kept it: a builtin walking 200,000 rows makes one scope, not 200,000.
  EnvPtr scope;
  if (row_scope_ && row_lambda_ == f.lambda && row_scope_->parent() == f.closure && row_scope_.use_count() == 1) {
    scope = std::move(row_scope_);
    scope->rebind_row(&t, row);
  } else {
    scope = lambda_scope(f.closure);
    scope->define_row(f.lambda->params[0].name, &t, row);
  }
  Value result = eval(*f.lambda->body, scope);
  if (scope.use_count() != 1) {
    scope->settle_rows();  // a value made in the call keeps the scope
  } else {
    row_scope_ = std::move(scope);
    row_lambda_ = f.lambda;
  }
  return result;
}

Value Evaluator::call_value(const Value& fn, std::vector<Value> pos, std::vector<std::pair<std::string, Value>> named,
                            const ast::Expr* site, const EnvPtr& env) {
  auto err = [&](std::string msg) {
    return site ? error_at(*site, env, std::move(msg)) : Value::error(std::move(msg), Blame::rubric);
  };
  if (fn.is_error()) return fn;
  if (!fn.is(ValueKind::function)) return err(fmt::format("cannot call a {} ({})", fn.kind_name(), fn.repr(5)));
  const Function& f = fn.as_function();
  CallDepth depth(call_depth_, limits_.call_depth);

  // Errors in arguments propagate: a failed let fails the call that uses it.
  for (const auto& v : pos)
    if (v.is_error()) return v;
  for (const auto& nv : named)
    if (nv.second.is_error()) return nv.second;

  if (f.kind == Function::Kind::builtin) {
    // Each registration of the name (newest first) binds the arguments by its own parameters;
    // the first whose binding succeeds and whose `applies` accepts the values is called.
    std::string first_error;
    for (const Builtin* cur = f.builtin.get(); cur; cur = cur->next.get()) {
      std::string why;
      auto args = bind_builtin_args(*cur, pos, named, why);
      if (!args) {
        if (first_error.empty()) first_error = why;
        continue;
      }
      if (cur->applies && !cur->applies(*args)) continue;
      if (!cur->takes_undecided_items) {
        std::optional<Value> held;
        for (const auto& v : *args)
          if (auto h = v.held_error()) held = held ? stronger_undecided(*held, *h) : *h;
        if (held) return *held;
      }
      EvalCallContext ctx(*this, cur->name, site ? error_location(*site, env) : SourceLocation{}, env, site, cur);
      auto shrunk = [&](const ShrunkFile& s) {
        std::string msg = fmt::format("'{}': {}", cur->name, s.message);
        return site ? error_at(*site, env, std::move(msg), s.blame) : Value::error(std::move(msg), s.blame);
      };
      try {
        Value result = cur->fn(ctx, *args);
        // Whatever the builtin read from a file that shrank meanwhile was partly zeros.
        std::vector<const Value*> touched{&result};
        for (const auto& v : *args) touched.push_back(&v);
        if (auto s = shrunk_file(touched)) return shrunk(*s);
        bool derived = false;
        for (const auto& v : *args) derived = derived || carries_submission_data(v);
        if (derived && !result.is_error()) return carry_submission_blame(std::move(result), site ? source_text(*site, env) : "");
        return result;
      } catch (const LimitExceeded&) {
        throw;
      } catch (const files::FileChanged& ex) {
        std::vector<const Value*> touched;
        for (const auto& v : *args) touched.push_back(&v);
        return shrunk(shrunk_file(touched).value_or(shrunk_file(ex)));
      } catch (const OperatorError& ex) {
        return err(fmt::format("'{}': {}", cur->name, ex.what()));
      } catch (const std::exception& ex) {
        return err(fmt::format("'{}' failed: {}", cur->name, ex.what()));
      }
    }
    if (!first_error.empty()) return err(first_error);
    return err(fmt::format("no version of '{}' takes these arguments ({})", f.builtin->name,
                           [&] {
                             std::string kinds;
                             for (const auto& v : pos) kinds += (kinds.empty() ? "" : ", ") + std::string(v.kind_name());
                             return kinds;
                           }()));
  }

  if (f.kind == Function::Kind::lambda) {
    if (!named.empty()) return err("a lambda takes positional arguments only");
    return call_lambda(f, pos.data(), pos.size(), site, env);
  }

  // A def. The rubric's call into the standard library places the errors raised inside it.
  const ast::Def& d = *f.def;
  LibraryCall library(*this, f, site, env);
  if (d.is_check())
    return err(fmt::format("'{}' is a check: run it with `check {}(...)` inside a criterion", d.name.name, d.name.name));
  auto scope = std::make_shared<Environment>(f.closure, f.closure->module());
  std::vector<std::optional<Value>> bound(d.params.size());
  if (pos.size() > d.params.size())
    return err(fmt::format("too many arguments to '{}': it takes {}", d.name.name, d.params.size()));
  for (std::size_t i = 0; i < pos.size(); ++i) bound[i] = pos[i];
  for (auto& nv : named) {
    std::size_t k = 0;
    while (k < d.params.size() && d.params[k].name.name != nv.first) ++k;
    if (k == d.params.size()) return err(fmt::format("'{}' has no parameter '{}'", d.name.name, nv.first));
    if (bound[k]) return err(fmt::format("argument '{}' to '{}' given twice", nv.first, d.name.name));
    bound[k] = nv.second;
  }
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    if (!bound[k]) {
      if (!d.params[k].default_value)
        return err(fmt::format("missing argument '{}' to '{}'", d.params[k].name.name, d.name.name));
      bound[k] = eval(*d.params[k].default_value, scope);
    }
    scope->define(d.params[k].name.name, *bound[k]);
  }
  return eval(*d.body_expr, scope);
}

std::optional<std::string> Evaluator::root_dir(const std::string& root) const {
  if (root == "submission" && !settings_.submission_dir.empty()) return settings_.submission_dir;
  if (root == "reference" && !settings_.reference_dir.empty()) return settings_.reference_dir;
  return std::nullopt;
}

}  // namespace rubric
