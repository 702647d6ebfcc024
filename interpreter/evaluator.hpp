#pragma once
// Evaluation of a loaded program against one submission: expressions (values, units, samples,
// calls), conditions with their evidence, statements, criteria and groups, verdicts and scores.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpreter/builtins/registry.hpp"
#include "interpreter/check_outcome.hpp"
#include "interpreter/engine.hpp"
#include "interpreter/environment.hpp"
#include "interpreter/file_log.hpp"
#include "interpreter/modules.hpp"
#include "interpreter/report_model.hpp"

namespace rubric {

struct EvalLimits {
  std::uint64_t steps = 20'000'000;  // evaluation steps per criterion (each expression node is one)
  int call_depth = 200;              // nested function calls
  int expr_depth = 3000;             // nested expressions (guards the native stack)
};

// Exceeding a limit aborts the criterion being evaluated with an ERROR naming the limit.
// `submission_sized`: the steps went to working through the submission's data item by item
// (more than kSubmissionSizedItems items), so its size, not the rubric, ran the budget out: the
// submission's FAIL.
struct LimitExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
  LimitExceeded(const std::string& what, bool by_submission) : std::runtime_error(what), submission_sized(by_submission) {}
  bool submission_sized = false;
};

// Items of the submission's data passed to a function or a `for` body in one criterion past which
// a step budget run out is blamed on the data's size.
constexpr std::uint64_t kSubmissionSizedItems = 100'000;

// What one check adds to the engine's options: the roots and the parsed --set values.
struct EvalSettings {
  const EngineOptions& options;  // --only, --seed, progress, limits: the engine's own, read in place
  std::string submission_dir;
  std::string reference_dir;
  // How reference_dir was chosen when no folder was given, for "no such file" under it (PathValue::root_origin).
  std::shared_ptr<const std::string> reference_origin;
  const std::map<std::string, ast::ExprPtr>& param_overrides;  // --set, parsed
};

class Evaluator {
 public:
  Evaluator(const Program& program, const Registry& registry, EvalSettings settings);
  ~Evaluator();

  // Evaluates the whole rubric into a report (criteria, score, verdict, provenance files).
  Report run();

  // ---- used by builtins through CallContext and by the condition/statement code ----
  Value eval(const ast::Expr& e, const EnvPtr& env);
  // eval, with an exceeded limit turned into an error value (for weights, header fields).
  Value guarded_eval(const ast::Expr& e, const EnvPtr& env);
  // A note's or title's text: a string literal with each interpolated part that cannot be
  // evaluated shown in its place as `{error: message (file:line:col)}`; never decides a verdict.
  std::string render_text(const ast::Expr& e, const EnvPtr& env);
  // render_text for a title, header or group title: an exceeded limit is shown as `{error: ...}`.
  std::string render_title(const ast::Expr& e, const EnvPtr& env);
  CheckOutcome decide(const ast::Expr& e, const EnvPtr& env);
  // `text affirms X` / `text denies X` (evaluator_text.cpp).
  CheckOutcome decide_polarity(const ast::Mentions& m, const ast::Expr& e, const EnvPtr& env);
  // `any(xs, c => ...)` / `all(xs, c => ...)`: over a list of claims, decided claim by claim with
  // each claim's sentence and result as evidence (evaluator_text.cpp); nullopt for other calls.
  std::optional<CheckOutcome> decide_over_claims(const ast::Expr& e, const EnvPtr& env);
  // A binary operator on two values (units, samples, the hooks of new value kinds).
  Value apply_binary(ast::BinaryOp op, const Value& a, const Value& b, const ast::Expr& at, const EnvPtr& env);
  Value call_value(const Value& fn, std::vector<Value> positional, std::vector<std::pair<std::string, Value>> named,
                   const ast::Expr* site, const EnvPtr& env);
  // call_value with one positional argument (map, filter, count... over a list's items).
  Value call_on(const Value& fn, const Value& arg, const EnvPtr& env);
  // call_on with a table's row: a lambda's parameter reads the row's fields in place.
  Value call_on_row(const Value& fn, const RecordTable& t, std::size_t row, const EnvPtr& env);

  const Registry& registry() const { return registry_; }
  SourceLocation location_of(const ast::Expr& e, const EnvPtr& env) const;
  SourceLocation location_of(SourceRange r, const Module* m) const;
  // Where an error at `e` is placed: location_of, except inside the standard library while the
  // rubric's call into it runs: that call, with the library's place as `raised_in`.
  SourceLocation error_location(const ast::Expr& e, const EnvPtr& env) const;
  // The rubric's call into the standard library being run (the outermost), if any.
  std::optional<SourceLocation>& library_call_site() { return library_call_site_; }
  const Module* module_of(const EnvPtr& env) const;
  std::string source_text(const ast::Expr& e, const EnvPtr& env) const;
  // Where the value of `e` came from, told without evaluating anything again (see
  // CallContext::describe_argument): "submission/result.json: z", a list's origin, or `e`'s text.
  std::string describe_data(const ast::Expr& e, const EnvPtr& env) const;
  // For a message refusing the candidate's value: `: "fast" from submission/data.json: word`, so
  // the FAIL names what the candidate wrote and where; empty for the rubric's own values.
  // With `with_value` false, only ` from submission/data.json: word` (the message shows the value).
  std::string candidate_value_note(const Value& v, const ast::Expr* e, const EnvPtr& env, bool with_value = true) const;
  // The value of a name or a field/index chain over names, when already computed; never evaluates.
  std::optional<Value> peek(const ast::Expr& e, const EnvPtr& env) const;
  Value error_at(const ast::Expr& e, const EnvPtr& env, std::string message, Blame blame = Blame::rubric) const;
  // Throw LimitExceeded when a string or list being built would pass max_string_bytes /
  // max_list_items (value.hpp).
  void check_string_size(std::size_t bytes) const;
  void check_list_size(std::size_t items) const;

  // Evidence of records read by the check being decided (Record::evidence), each record once.
  void note_read(const Record& r);
  void note_evidence(const std::string& line);
  // Takes the evidence lines gathered since the last call; `abnormal` gets the reasons of records
  // read that describe something that went wrong (Record::abnormal), "; "-joined.
  std::vector<std::string> take_read_evidence(std::string* abnormal = nullptr);
  // Why the check being decided needs review (an ambiguous reading decided it), each reason once;
  // take_reviews() takes them, "; "-joined ("" when none); take_review_list() one by one.
  void note_review(const std::string& reason);
  std::string take_reviews();
  std::vector<std::string> take_review_list();
  // The reason a claim record read in doubt gives ("claim 10x: a question"), or "" when it was clear.
  static std::string claim_review(const Value& claim);

  // Session state shared with builtins.
  std::map<std::string, std::shared_ptr<const void>> cache;
  FileLog files;
  std::vector<RunRecord> runs;
  std::uint64_t seed() const { return seed_; }
  double confidence() const { return confidence_; }
  ProgressSink* progress() const { return settings_.options.progress; }
  std::optional<std::string> root_dir(const std::string& root) const;

 private:
  // The statement runner (evaluator_run.cpp) and the context builtins see (evaluator_calls.cpp)
  // work with the step budget and call depth below.
  friend struct StatementRunner;
  friend class EvalCallContext;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  const Program& program_;
  const Registry& registry_;
  EvalSettings settings_;
  EvalLimits limits_;
  std::uint64_t seed_ = 0;
  double confidence_ = 0.95;
  std::uint64_t steps_ = 0;
  std::uint64_t submission_items_ = 0;  // items of submission data worked through (see LimitExceeded)
  int call_depth_ = 0;
  int expr_depth_ = 0;
  std::optional<SourceLocation> library_call_site_;
  std::vector<std::string> read_evidence_;
  std::vector<std::string> reviews_;
  std::string read_abnormal_;
  std::set<const void*> read_evidence_seen_;
  // Lambda scopes no closure kept once their call returned, emptied for the next call: a map over
  // 200,000 items then allocates none.
  std::vector<EnvPtr> spare_scopes_;
  // call_on_row's last scope, bound to the next row when the same lambda is called again.
  EnvPtr row_scope_;
  const ast::Lambda* row_lambda_ = nullptr;
  EnvPtr lambda_scope(const EnvPtr& closure);
  void release_lambda_scope(EnvPtr scope);
  Value call_lambda(const Function& f, const Value* args, std::size_t count, const ast::Expr* site, const EnvPtr& env);

  // Helpers shared by evaluator*.cpp.
  Value lookup(const std::string& name, const ast::Expr& at, const EnvPtr& env);
  Value force(const std::shared_ptr<LazyCell>& cell);
  ModuleRuntime* runtime_of(const Module* m);
  void reset_steps() {
    steps_ = 0;
    submission_items_ = 0;
  }
  void count_submission_item() { ++submission_items_; }
  void count_step();
  // The steps and depth checks of `levels` nested evaluations a shortcut skipped (a row's field
  // read in place): step budgets and depth limits run out where evaluating would have.
  void charge_nested_evals(int levels);
  void charge_steps(std::uint64_t steps);  // work inside a builtin (CallContext::charge_steps)
  Value interpolate(const ast::StringLit& s, const ast::Expr& at, const EnvPtr& env);
  std::optional<Value> try_binary_hooks(ast::BinaryOp op, const Value& a, const Value& b, const ast::Expr& at, const EnvPtr& env);
  std::optional<Value> try_index_hooks(const Value& obj, const std::vector<SubscriptValue>& subs, const ast::Expr& at,
                                      const EnvPtr& env);
  // The scope of a block expression's value: env plus its lets, evaluated in order.
  EnvPtr bind_block_lets(const ast::BlockExpr& b, const EnvPtr& env);
  // A tensor subscript `t[...]`: each part a whole number, then the index hooks.
  Value eval_subscripts(const Value& obj, const ast::Index& n, const ast::Expr& at, const EnvPtr& env);
  std::optional<Value> try_field_hooks(const Value& obj, const std::string& field, const ast::Expr& at, const EnvPtr& env);
  // The kinds of condition `decide` tells apart (evaluator_conditions.cpp), each decided in its
  // file: evaluator_comparison.cpp, _within, _matches, _mentions.
  CheckOutcome decide_not(const ast::Unary& u, const EnvPtr& env);
  CheckOutcome decide_connective(const ast::Binary& b, const EnvPtr& env);
  CheckOutcome decide_comparison(const ast::Binary& b, const ast::Expr& e, const EnvPtr& env);
  CheckOutcome decide_within(const ast::Within& w, const ast::Expr& e, const EnvPtr& env);
  CheckOutcome decide_matches(const ast::Matches& m, const ast::Expr& e, const EnvPtr& env);
  CheckOutcome decide_mentions(const ast::Mentions& m, const EnvPtr& env);
  CheckOutcome decide_truth(const ast::Expr& e, const EnvPtr& env);
  std::optional<CheckOutcome> try_matches_hooks(const Value& a, const Value& b, const MatchTolerance& tol, const ast::Expr& at,
                                                const EnvPtr& env);
  const EvalLimits& limits() const { return limits_; }
  int& call_depth() { return call_depth_; }
};

}  // namespace rubric
