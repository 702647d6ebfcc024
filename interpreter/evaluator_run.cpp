// Statements, criteria and groups: verdicts, `after` and `needs`, scores, and the report.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <functional>
#include <new>
#include <unordered_set>

#include "grammar/ast_walk.hpp"
#include "interpreter/addressed_reader.hpp"
#include "interpreter/evaluator.hpp"
#include "interpreter/fractions.hpp"
#include "interpreter/needs.hpp"
#include "interpreter/verdicts.hpp"

namespace rubric {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string iso_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct CriterionRun {
  explicit CriterionRun(CriterionResult& r) : result(r) {}
  CriterionResult& result;
  std::vector<std::string> labels;
  // Doubtful readings that chose what a `for` runs over ("claim 10x: a question", read by a
  // filter on polarity): every check of the loop rests on one that left a claim out, the checks
  // of a kept claim's own iteration on its own.
  std::vector<std::string> loop_reviews;
  std::optional<double> score;
  // Checks past the listing limits are counted, not stored: a loop over millions of items must not
  // fill memory or the report. The counts still decide the criterion's verdict.
  std::size_t omitted_by_verdict[5] = {0, 0, 0, 0, 0};
  // An operation on the submission failed (a module that does not build, a file it lacks), as
  // opposed to a comparison that came out false: what a machine without a GPU may still decide.
  bool submission_operation_failed = false;
  // Checks whose comparison was answered against the submission (listed or not): what a penalty needs.
  std::size_t decided_against = 0;
  // While a check def of the standard library runs: where the rubric called it. Its checks are
  // placed there, in the author's file, rather than in the library's source.
  std::optional<SourceLocation> call_site;
};

// A criterion lists its first kListedChecks checks, then only those that did not pass, up to
// kListedChecksOfAnyVerdict in all.
constexpr std::size_t kListedChecks = 1000;
constexpr std::size_t kListedChecksOfAnyVerdict = 2000;

std::string join_labels(const std::vector<std::string>& ls) {
  std::string s;
  for (const auto& l : ls) s += (s.empty() ? "" : ", ") + l;
  return s;
}

}  // namespace

struct Evaluator::Impl {
  std::map<const Module*, std::unique_ptr<ModuleRuntime>> runtimes;
  std::unordered_map<std::string, Verdict> verdicts;  // by criterion or group id, as decided
  std::unordered_set<std::string> selected;           // --only and what they are `after`
  bool select_all = true;
};

Evaluator::Evaluator(const Program& program, const Registry& registry, EvalSettings settings)
    : impl_(std::make_unique<Impl>()), program_(program), registry_(registry), settings_(std::move(settings)) {
  limits_.steps = settings_.options.step_budget;
  limits_.call_depth = settings_.options.call_depth_limit;
}

Evaluator::~Evaluator() = default;

ModuleRuntime* Evaluator::runtime_of(const Module* m) {
  auto it = impl_->runtimes.find(m);
  if (it != impl_->runtimes.end()) return it->second.get();
  auto rt = std::make_unique<ModuleRuntime>();
  ModuleRuntime* raw = rt.get();
  rt->module = m;
  rt->globals = std::make_shared<Environment>(nullptr, raw);
  impl_->runtimes[m] = std::move(rt);
  for (const auto& [name, decl] : m->decls) {
    if (decl.kind == Decl::Kind::def) continue;
    auto cell = std::make_shared<LazyCell>();
    cell->name = name;
    cell->env = raw->globals.get();
    if (decl.kind == Decl::Kind::param) {
      cell->expr = decl.param->value.get();
      if (m == program_.root) {
        auto o = settings_.param_overrides.find(name);
        if (o != settings_.param_overrides.end()) cell->expr = o->second.get();
      }
    } else {
      cell->expr = decl.let->value.get();
    }
    raw->globals->define_lazy(name, cell);
  }
  for (const auto& use : m->uses) {
    ModuleRuntime* used = runtime_of(use.module);
    if (use.alias.empty()) raw->unqualified.push_back(used);
    else raw->globals->define_alias(use.alias, used);
  }
  return raw;
}

// ---- statements ----

// A value of the wrong kind for a statement (`score` of a string, `for` over a number) is the
// candidate's failure when the candidate wrote it, the rubric's error otherwise.
static Blame candidate_blame(const Value& v) { return carries_submission_data(v) ? Blame::submission : Blame::rubric; }

struct StatementRunner {
  Evaluator& ev;

  void add_check(CriterionRun& run, const ast::Expr& cond, const EnvPtr& env, CheckOutcome o, double secs,
                 const ast::Expr* message) {
    if (o.verdict == Verdict::fail && o.decided) ++run.decided_against;
    const std::size_t listed = run.result.checks.size();
    if (o.verdict == Verdict::fail && !o.decided && o.blame == Blame::submission) run.submission_operation_failed = true;
    if (listed >= kListedChecksOfAnyVerdict || (listed >= kListedChecks && o.verdict == Verdict::pass)) {
      ++run.omitted_by_verdict[static_cast<int>(o.verdict)];
      return;
    }
    CheckResult r;
    r.source_text = ev.source_text(cond, env);
    r.location = run.call_site ? *run.call_site : ev.location_of(cond, env);
    r.label = join_labels(run.labels);
    r.verdict = o.verdict;
    r.blame = o.blame;
    r.evidence = std::move(o.evidence);
    r.explanation = std::move(o.explanation);
    r.samples = std::move(o.samples);
    r.mismatch_map = std::move(o.mismatch_map);
    r.review = std::move(o.review);
    r.seconds = secs;
    // The `else` message is the reason only when the comparison ran and failed; when its input
    // could not be read, the reading failure (the explanation) is the reason.
    if (message && r.verdict == Verdict::fail && o.decided) {
      Value m = ev.eval(*message, env);
      r.message = m.is_error() ? "(message could not be built: " + m.as_error().message + ")" : m.to_string();
    }
    run.result.checks.push_back(std::move(r));
  }

  // A statement other than `expect` met an error value (a failed let used by `for`, `if`, `score`...).
  void add_error(CriterionRun& run, const ast::Expr& at, const EnvPtr& env, const Value& err) {
    add_check(run, at, env, outcome_of_error(err), 0, nullptr);
  }

  // A note informs; it never decides the verdict (Evaluator::render_text).
  std::string note_text(const ast::Expr& e, const EnvPtr& env) { return ev.render_text(e, env); }

  void block(const ast::Block& stmts, const EnvPtr& env, CriterionRun& run) {
    for (const auto& s : stmts) stmt(s, env, run);
  }

  void stmt(const ast::Stmt& s, const EnvPtr& env, CriterionRun& run) {
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ast::LetStmt>) {
            env->define(n.name.name, ev.eval(*n.value, env).named_samples(n.name.name));
          } else if constexpr (std::is_same_v<T, ast::ExpectStmt>) {
            auto t0 = Clock::now();
            ev.take_read_evidence();
            ev.take_reviews();
            for (const auto& reason : run.loop_reviews) ev.note_review(reason);
            CheckOutcome o = ev.decide(*n.condition, env);
            std::string abnormal;
            for (auto& line : ev.take_read_evidence(&abnormal)) o.evidence.push_back(std::move(line));
            o.review = ev.take_reviews();
            // A check on a program that timed out or crashed fails because of that: after a null
            // it caused ("r.exit is null, not a number, because the program timed out ..."), before
            // anything else, and not again where the explanation already says how the run ended.
            if (!abnormal.empty() && o.verdict == Verdict::fail) {
              const std::string how = abnormal.substr(abnormal.rfind("the program was ", 0) == 0 ? 16
                                                      : abnormal.rfind("the program ", 0) == 0    ? 12
                                                                                                  : 0);
              if (o.null_operand) o.explanation = fmt::format("{}, because {}", o.explanation, abnormal);
              else if (o.explanation.find(how) == std::string::npos) o.explanation = fmt::format("{}: {}", abnormal, o.explanation);
            }
            add_check(run, *n.condition, env, std::move(o), seconds_since(t0), n.message.get());
          } else if constexpr (std::is_same_v<T, ast::CheckStmt>) {
            check_call(*n.call, env, run);
          } else if constexpr (std::is_same_v<T, ast::NoteStmt>) {
            std::string label = join_labels(run.labels);
            std::string text = note_text(*n.text, env);
            run.result.notes.push_back(label.empty() ? text : fmt::format("[{}] {}", label, text));
          } else if constexpr (std::is_same_v<T, ast::ScoreStmt>) {
            Value v = ev.eval(*n.value, env);
            if (v.is_error()) return add_error(run, *n.value, env, v);
            if (!v.is(ValueKind::number) || !v.as_quantity().dim.dimensionless())
              return add_error(run, *n.value, env,
                               ev.error_at(*n.value, env, fmt::format("'score' needs a plain number, got {}", v.repr(5)),
                                           candidate_blame(v)));
            // NaN survives std::clamp and would leave the criterion with no score yet a PASS.
            if (std::isnan(v.as_number()))
              return add_error(run, *n.value, env,
                               ev.error_at(*n.value, env, "'score' needs a number, got NaN (not a number)", candidate_blame(v)));
            run.score = std::clamp(v.as_number(), 0.0, 1.0);
          } else if constexpr (std::is_same_v<T, ast::ForStmt>) {
            ev.take_reviews();
            Value items = ev.eval(*n.iterable, env);
            std::vector<std::string> doubts = ev.take_review_list();
            const bool chosen_in_doubt = !doubts.empty();
            if (items.is_error()) return add_error(run, *n.iterable, env, items);
            if (!items.is(ValueKind::list))
              return add_error(run, *n.iterable, env,
                               ev.error_at(*n.iterable, env, fmt::format("'for' needs a list, got a {} ({})", items.kind_name(), items.repr(5)),
                                           candidate_blame(items)));
            // A claim the filter kept though its polarity was read in doubt: its own checks rest on
            // that reading. A doubtful reading that left a claim out: every check of the loop does.
            for (const Value& item : items.as_list())
              if (std::string d = Evaluator::claim_review(item); !d.empty())
                doubts.erase(std::remove(doubts.begin(), doubts.end(), d), doubts.end());
            std::string loop_wide;
            for (const std::string& d : doubts) loop_wide += (loop_wide.empty() ? "" : "; ") + d;
            struct PopReview {
              std::vector<std::string>& v;
              bool pushed;
              ~PopReview() { if (pushed) v.pop_back(); }
            };
            if (!loop_wide.empty()) run.loop_reviews.push_back(loop_wide);
            PopReview pop{run.loop_reviews, !loop_wide.empty()};
            for (Value item : items.as_list()) {
              if (items.from_submission() && !item.is_error()) item.mark_from_submission();
              if (carries_submission_data(item)) ev.count_submission_item();
              auto scope = std::make_shared<Environment>(env, env->module());
              scope->define(n.var.name, item);
              run.labels.push_back(fmt::format("{} = {}", n.var.name, item.repr(6)));
              const std::string own = chosen_in_doubt ? Evaluator::claim_review(item) : std::string();
              if (!own.empty()) run.loop_reviews.push_back(own);
              PopReview pop_own{run.loop_reviews, !own.empty()};
              block(*n.body, scope, run);
              run.labels.pop_back();
            }
          } else if constexpr (std::is_same_v<T, ast::IfStmt>) {
            Value c = ev.eval(*n.condition, env);
            if (c.is_error()) return add_error(run, *n.condition, env, c);
            if (!c.is(ValueKind::boolean))
              return add_error(run, *n.condition, env,
                               ev.error_at(*n.condition, env, fmt::format("'if' needs a bool, got a {} ({})", c.kind_name(), c.repr(5)),
                                           candidate_blame(c)));
            const auto& body = c.as_bool() ? n.then_body : n.else_body;
            if (body) block(*body, std::make_shared<Environment>(env, env->module()), run);
          }
        },
        s.node);
  }

  void check_call(const ast::Expr& call_expr, const EnvPtr& env, CriterionRun& run) {
    const auto* call = std::get_if<ast::Call>(&call_expr.node);
    if (!call) return add_error(run, call_expr, env, ev.error_at(call_expr, env, "'check' needs a call: check f(args)"));
    Value callee = ev.eval(*call->callee, env);
    if (callee.is_error()) return add_error(run, call_expr, env, callee);
    if (!callee.is(ValueKind::function) || callee.as_function().kind != Function::Kind::def || !callee.as_function().def->is_check())
      return add_error(run, call_expr, env,
                       ev.error_at(call_expr, env, fmt::format("'check' runs a check def (one with a {{ }} body); '{}' is not one",
                                                               ev.source_text(*call->callee, env))));
    const Function& f = callee.as_function();
    const ast::Def& d = *f.def;
    auto scope = std::make_shared<Environment>(f.closure, f.closure->module());
    std::vector<std::optional<Value>> bound(d.params.size());
    if (call->args.size() > d.params.size())
      return add_error(run, call_expr, env,
                       ev.error_at(call_expr, env, fmt::format("too many arguments to '{}': it takes {}", d.name.name, d.params.size())));
    for (std::size_t i = 0; i < call->args.size(); ++i) bound[i] = ev.eval(*call->args[i], env);
    for (const auto& na : call->named) {
      std::size_t k = 0;
      while (k < d.params.size() && d.params[k].name.name != na.name.name) ++k;
      if (k == d.params.size())
        return add_error(run, call_expr, env, ev.error_at(call_expr, env, fmt::format("'{}' has no parameter '{}'", d.name.name, na.name.name)));
      bound[k] = ev.eval(*na.value, env);
    }
    for (std::size_t k = 0; k < d.params.size(); ++k) {
      if (!bound[k]) {
        if (!d.params[k].default_value)
          return add_error(run, call_expr, env,
                           ev.error_at(call_expr, env, fmt::format("missing argument '{}' to '{}'", d.params[k].name.name, d.name.name)));
        bound[k] = ev.eval(*d.params[k].default_value, scope);
      }
      scope->define(d.params[k].name.name, *bound[k]);
    }
    int& depth = ev.call_depth();
    if (++depth > ev.limits().call_depth) {
      --depth;
      throw LimitExceeded(fmt::format("call depth limit exceeded ({} nested calls)", ev.limits().call_depth));
    }
    run.labels.push_back(ev.source_text(call_expr, env));
    const bool library_call = !run.call_site && f.closure->module() && f.closure->module()->module->is_stdlib;
    if (library_call) run.call_site = ev.location_of(call_expr, env);
    // Errors raised inside the library are placed at this call too (Evaluator::error_location).
    const bool places_errors = library_call && !ev.library_call_site();
    if (places_errors) ev.library_call_site() = run.call_site;
    auto leave = [&] {
      if (library_call) run.call_site.reset();
      if (places_errors) ev.library_call_site().reset();
    };
    try {
      block(*d.body_stmts, scope, run);
    } catch (...) {
      --depth;
      run.labels.pop_back();
      leave();
      throw;
    }
    leave();
    --depth;
    run.labels.pop_back();
  }
};

// ---- criteria and groups ----

namespace {

// --only: an id selects itself, the ids it is `after` and, for a group, everything in it.
struct Selector {
  std::unordered_map<std::string, std::vector<std::string>> after;     // id → after ids
  std::unordered_map<std::string, std::vector<std::string>> children;  // group id → child ids

  explicit Selector(const ast::File& file) {
    // The groups enclosing the item being walked, outermost first: enclosing[depth - 1] is its parent.
    std::vector<std::string> enclosing;
    auto index = [&](const std::string& id, const std::vector<ast::Ident>& after_ids, int depth) {
      enclosing.resize(static_cast<std::size_t>(depth));
      if (depth > 0) children[enclosing.back()].push_back(id);
      std::vector<std::string> names;
      for (const auto& i : after_ids) names.push_back(i.name);
      after[id] = std::move(names);
    };
    ast::walk_criteria(
        file.items, [&](const ast::Criterion& c, int depth) { index(c.id.name, c.after, depth); },
        [&](const ast::Group& g, int depth) {
          index(g.id.name, {}, depth);
          enclosing.push_back(g.id.name);
        });
  }
  void select(const std::string& id, std::unordered_set<std::string>& out) {
    if (!out.insert(id).second) return;
    for (const auto& a : after[id]) select(a, out);
    for (const auto& k : children[id]) select(k, out);
  }
};

}  // namespace

namespace {

// The one check an aborted criterion shows: what stopped it, at the criterion's location.
CheckResult aborted_check(const ast::Criterion& c, const CriterionResult& r, std::string why, bool by_submission = false) {
  CheckResult cr;
  cr.source_text = "criterion " + c.id.name;
  cr.location = r.location;
  cr.verdict = by_submission ? Verdict::fail : Verdict::error;
  cr.blame = by_submission ? Blame::submission : Blame::rubric;
  cr.explanation = std::move(why);
  return cr;
}

}  // namespace

// A part that cannot be evaluated is shown in its place, so a note or a title never shows its raw
// template: `p99 = {error: no key 'p99' in submission/bench.json; keys: p50 (task.rubric:9:14)}`.
std::string Evaluator::render_text(const ast::Expr& e, const EnvPtr& env) {
  auto shown = [&](const Value& v) {
    std::optional<Value> err = v.is_error() ? std::optional<Value>(v) : v.held_error();
    if (!err) return v.to_string();
    const ErrorInfo& info = err->as_error();
    return info.location.known() ? fmt::format("{{error: {} ({})}}", info.message, error_location_text(info.location))
                                 : fmt::format("{{error: {}}}", info.message);
  };
  const auto* s = std::get_if<ast::StringLit>(&e.node);
  if (!s) return shown(eval(e, env));
  std::string out;
  for (const auto& part : s->parts) {
    if (auto* text = std::get_if<std::string>(&part)) out += *text;
    else out += shown(eval(*std::get<ast::ExprPtr>(part), env));
    check_string_size(out.size());
  }
  return out;
}

std::string Evaluator::render_title(const ast::Expr& e, const EnvPtr& env) {
  try {
    return render_text(e, env);
  } catch (const LimitExceeded& ex) {
    return fmt::format("{{error: {}}}", ex.what());
  }
}

Value Evaluator::guarded_eval(const ast::Expr& e, const EnvPtr& env) {
  try {
    return eval(e, env);
  } catch (const LimitExceeded& ex) {
    return error_at(e, env, ex.what(), ex.submission_sized ? Blame::submission : Blame::rubric);
  }
}

Report Evaluator::run() {
  auto t_start = Clock::now();
  Report report;
  report.provenance.started_at = iso_now();
  const Module* root = program_.root;
  ModuleRuntime* rt = runtime_of(root);
  const EnvPtr& globals = rt->globals;
  StatementRunner runner{*this};

  // Header.
  if (root->file->header) {
    const ast::Header& h = *root->file->header;
    if (h.title) {
      reset_steps();
      report.title = render_title(*h.title, globals);
    }
    if (h.fields) {
      if (auto* rec = std::get_if<ast::RecordLit>(&h.fields->node)) {
        for (const auto& f : rec->fields) {
          reset_steps();
          Value v = guarded_eval(*f.value, globals);
          const std::string& k = f.key.name;
          // pass, confidence and seed: a value out of range warns and keeps the default.
          std::optional<double> x;
          if (auto range = header_field_range(k)) {
            if (v.is(ValueKind::number) && v.as_quantity().dim.dimensionless() && v.as_number() >= range->lo &&
                v.as_number() <= range->hi) {
              x = v.as_number();
            } else {
              std::vector<std::string> notes;
              if (auto hint = range->fraction && v.is(ValueKind::number) && v.as_quantity().dim.dimensionless()
                                  ? percent_hint(v.as_number()) : std::nullopt)
                notes.push_back(*hint);
              report.warnings.push_back(Diagnostic{Severity::warning, root->file->source, f.value->range,
                                                   header_field_problem(k, *range, v.repr(5)), std::move(notes)});
            }
          }
          if (k == "version") report.version = v.to_string();
          else if (k == "pass") { if (x) report.pass_mark = *x; }
          else if (k == "confidence") { if (x) report.confidence = *x; }
          else if (k == "seed") { if (x) seed_ = static_cast<std::uint64_t>(*x); }
          else report.metadata[k] = v.to_string();
        }
      }
    }
  }
  if (settings_.options.seed) seed_ = *settings_.options.seed;
  confidence_ = report.confidence;

  // Selection (--only).
  Selector sel(*root->file);
  if (!settings_.options.only.empty()) {
    impl_->select_all = false;
    for (const auto& id : settings_.options.only) {
      if (!sel.after.count(id)) {
        report.warnings.push_back(Diagnostic{Severity::warning, root->file->source, {}, fmt::format("--only {}: no criterion or group with that id", id), {}});
        continue;
      }
      sel.select(id, impl_->selected);
    }
  }
  auto selected = [&](const std::string& id) { return impl_->select_all || impl_->selected.count(id) > 0; };

  std::size_t total = 0;
  ast::for_each_criterion(root->file->items, [&](const ast::Criterion& c) { total += selected(c.id.name); });
  if (settings_.options.progress) settings_.options.progress->rubric_started(total);

  auto number_of = [&](const ast::ExprPtr& e, const EnvPtr& env, double fallback, const char* what, CriterionResult& r) {
    if (!e) return fallback;
    Value v = guarded_eval(*e, env);
    if (v.is(ValueKind::number) && v.as_quantity().dim.dimensionless() && v.as_number() >= 0) return v.as_number();
    r.verdict = Verdict::error;
    r.reason = fmt::format("{} must be a non-negative plain number, got {}", what, v.repr(5));
    return fallback;
  };

  std::function<std::optional<CriterionResult>(const ast::Criterion&, const EnvPtr&)> run_criterion =
      [&](const ast::Criterion& c, const EnvPtr& env) -> std::optional<CriterionResult> {
    if (!selected(c.id.name)) return std::nullopt;
    auto t0 = Clock::now();
    CriterionResult r;
    r.id = c.id.name;
    r.location = location_of(c.range, root);
    reset_steps();
    r.title = c.title ? render_title(*c.title, env) : "";
    r.required = c.required;
    for (const auto& a : c.after) r.after.push_back(a.name);
    for (const auto& n : c.needs) r.needs.push_back(n.name);
    if (settings_.options.progress) settings_.options.progress->criterion_started(r.id, r.title);
    r.weight = number_of(c.weight, env, 1, "weight", r);
    if (c.penalty) r.penalty = number_of(c.penalty, env, 0, "penalty", r);
    bool decided = r.verdict == Verdict::error;

    // after: a failed dependency fails this one; an undecided one skips it (verdicts.hpp).
    if (!decided) {
      std::vector<std::pair<std::string, std::optional<Verdict>>> dependencies;
      for (const auto& a : c.after) {
        auto it = impl_->verdicts.find(a.name);
        dependencies.emplace_back(a.name, it == impl_->verdicts.end() ? std::nullopt : std::optional<Verdict>(it->second));
      }
      if (auto not_evaluated = after_rule(dependencies)) {
        r.verdict = not_evaluated->verdict;
        r.reason = std::move(not_evaluated->reason);
        decided = true;
      }
    }
    // A criterion using GPU operators needs a GPU whether or not it says so (interpreter/needs.hpp).
    std::vector<std::string> needs;
    for (const auto& n : c.needs) needs.push_back(n.name);
    std::optional<std::string> inferred_gpu;
    if (std::find(needs.begin(), needs.end(), "gpu") == needs.end()) {
      inferred_gpu = gpu_use(c, *root, registry_);
      if (inferred_gpu) {
        needs.push_back("gpu");
        r.needs.push_back("gpu");
      }
    }
    // Without a usable device the criterion is still evaluated as far as it can be: compiling a
    // module and checking its signature need no device and FAIL here as on a GPU machine; every
    // other outcome is the SKIP that `needs gpu` promises (docs/gpu.md, "Decided where").
    std::optional<std::string> device_missing;
    for (const auto& n : needs) {
      if (decided || n != "gpu") continue;
      const Value* dev = registry_.find_binding("device");
      const Value* avail = dev && dev->is(ValueKind::record) ? dev->as_record().find("available") : nullptr;
      if (!avail || !avail->is(ValueKind::boolean) || !avail->as_bool()) {
        const Value* why = dev && dev->is(ValueKind::record) ? dev->as_record().find("reason") : nullptr;
        device_missing = fmt::format("needs gpu{}: {}", inferred_gpu ? fmt::format(" (it uses {})", *inferred_gpu) : "",
                                     why && why->is(ValueKind::string) ? why->as_string() : std::string("no CUDA device is usable"));
      }
    }

    std::optional<double> score;
    std::size_t decided_against = 0;
    if (!decided) {
      reset_steps();
      CriterionRun crun(r);
      auto scope = std::make_shared<Environment>(env, env->module());
      try {
        runner.block(c.body, scope, crun);
      } catch (const LimitExceeded& ex) {
        r.checks.push_back(aborted_check(c, r, ex.what(), ex.submission_sized));
      } catch (const std::bad_alloc&) {
        // A backstop below the size limits (value.hpp): memory ran out while building a value.
        // Only this criterion is lost; the report goes on.
        r.checks.push_back(aborted_check(c, r, "out of memory while evaluating this criterion"));
      }
      score = crun.score;
      decided_against = crun.decided_against;
      std::string omitted;
      for (int k = 0; k < 5; ++k) {
        if (!crun.omitted_by_verdict[k]) continue;
        omitted += fmt::format("{}{} {}", omitted.empty() ? "" : ", ", crun.omitted_by_verdict[k],
                               verdict_name(static_cast<Verdict>(k)));
      }
      if (!omitted.empty()) r.notes.push_back(fmt::format("further checks not listed: {}", omitted));
      r.verdict = criterion_verdict(r.checks, crun.omitted_by_verdict);
      if (device_missing && skipped_for_device(r.verdict, crun.submission_operation_failed)) {
        r.verdict = Verdict::skip;
        r.reason = *device_missing;
        r.checks.clear();
        r.notes.clear();
      } else if (device_missing) {
        r.notes.push_back("decided without a GPU: " + *device_missing);
      }
    }
    r.score = criterion_score(r.verdict, score, !r.reason.empty());
    if (r.penalty) {
      r.deducted = penalty_deducted(r.verdict, decided_against);
      r.score.reset();
    }
    impl_->verdicts[r.id] = r.verdict;
    r.seconds = seconds_since(t0);
    if (settings_.options.progress) settings_.options.progress->criterion_finished(r);
    return r;
  };

  std::function<std::optional<CriterionResult>(const ast::Group&, const EnvPtr&)> run_group =
      [&](const ast::Group& g, const EnvPtr& env) -> std::optional<CriterionResult> {
    auto t0 = Clock::now();
    CriterionResult r;
    r.id = g.id.name;
    r.is_group = true;
    r.location = location_of(g.range, root);
    auto scope = std::make_shared<Environment>(env, env->module());
    for (const auto& item : g.items) {
      if (auto* l = std::get_if<ast::LetDecl>(&item)) {
        auto cell = std::make_shared<LazyCell>();
        cell->name = l->name.name;
        cell->expr = l->value.get();
        cell->env = scope.get();
        scope->define_lazy(l->name.name, cell);
      }
    }
    reset_steps();
    r.title = g.title ? render_title(*g.title, scope) : "";
    r.weight = number_of(g.weight, scope, 1, "weight", r);
    for (const auto& item : g.items) {
      std::optional<CriterionResult> child;
      if (auto* c = std::get_if<ast::Criterion>(&item)) child = run_criterion(*c, scope);
      else if (auto* s = std::get_if<std::shared_ptr<const ast::Group>>(&item)) child = run_group(**s, scope);
      if (child) r.children.push_back(std::move(*child));
    }
    if (r.children.empty()) return std::nullopt;
    if (r.verdict != Verdict::error) r.verdict = group_verdict(r.children);
    r.score = combined_score(r.children);
    impl_->verdicts[r.id] = r.verdict;
    r.seconds = seconds_since(t0);
    return r;
  };

  for (const auto& item : root->file->items) {
    std::optional<CriterionResult> res;
    if (auto* c = std::get_if<ast::Criterion>(&item)) res = run_criterion(*c, globals);
    else if (auto* g = std::get_if<std::shared_ptr<const ast::Group>>(&item)) res = run_group(**g, globals);
    if (res) report.criteria.push_back(std::move(*res));
  }

  report.score = combined_score(report.criteria);
  report.verdict = overall_verdict(report.criteria, report.score, report.pass_mark);

  Provenance& pv = report.provenance;
  pv.seed = seed_;
  pv.submission_dir = settings_.submission_dir;
  pv.reference_dir = settings_.reference_dir;
  for (const auto& [name, decl] : root->decls) {
    if (decl.kind != Decl::Kind::param) continue;
    try {
      reset_steps();
      Value v = lookup(name, *decl.param->value, globals);
      pv.params[name] = v.to_string();
    } catch (const LimitExceeded& ex) {
      pv.params[name] = std::string("error: ") + ex.what();
    }
  }
  pv.files = files.records();  // waits for digests still being computed
  // A mapped file that shrank while it was hashed has no digest (zeros were hashed); the checks
  // that read it said so themselves, and the report says why the digest is missing.
  for (const FileRecord& f : pv.files)
    if (f.digest.empty())
      report.warnings.push_back(Diagnostic{Severity::warning, nullptr, {},
                                           fmt::format("{}/{} shrank while it was read ({} bytes mapped): no digest "
                                                       "is given for it",
                                                       f.root, f.path, f.bytes),
                                           {}});
  for (Diagnostic& d : addressed_reader_warnings(*this)) report.warnings.push_back(std::move(d));
  pv.runs = runs;
  pv.seconds = seconds_since(t_start);
  return report;
}

}  // namespace rubric
