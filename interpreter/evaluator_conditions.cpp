// Conditions of `expect`: decided into PASS / FAIL / ERROR / INCONCLUSIVE with evidence that
// shows the operands decomposed (as doctest and Catch2 do), statistically for samples.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <unordered_map>
#include <utility>

#include "interpreter/evaluator.hpp"
#include "interpreter/review_marks.hpp"
#include "interpreter/text_match.hpp"
#include "interpreter/verdicts.hpp"
#include "grammar/ast_print.hpp"
#include "operators/error.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/stats/bootstrap.hpp"
#include "operators/stats/decision.hpp"

namespace rubric {

namespace {

std::string pct(double fraction) {
  double x = std::fabs(fraction) * 100;
  if (x >= 10) return fmt::format("{:.0f}%", x);
  if (x >= 1) return fmt::format("{:.1f}%", x);
  return fmt::format("{:.2g}%", x);
}

CheckOutcome from_error(const Value& v) { return outcome_of_error(v); }

bool is_arith(ast::BinaryOp op) {
  return op == ast::BinaryOp::add || op == ast::BinaryOp::sub || op == ast::BinaryOp::mul || op == ast::BinaryOp::div;
}

const char* arith_symbol(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::add: return "+";
    case ast::BinaryOp::sub: return "-";
    case ast::BinaryOp::mul: return "\xC3\x97";  // ×
    default: return "/";
  }
}

Dimension dim_of(const Value& v) { return v.is(ValueKind::samples) ? v.as_samples().dim() : v.as_quantity().dim; }

// The expression over leaf medians: each leaf is replaced by medians[index of that leaf].
double eval_with(const SampleExpr& e, const std::unordered_map<const SampleSet*, std::size_t>& index,
                 const std::vector<double>& medians) {
  switch (e.op) {
    case SampleExpr::Op::leaf: return medians[index.at(e.leaf.get())];
    case SampleExpr::Op::constant: return e.constant;
    case SampleExpr::Op::add: return eval_with(*e.lhs, index, medians) + eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::sub: return eval_with(*e.lhs, index, medians) - eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::mul: return eval_with(*e.lhs, index, medians) * eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::div: return eval_with(*e.lhs, index, medians) / eval_with(*e.rhs, index, medians);
    case SampleExpr::Op::neg: return -eval_with(*e.lhs, index, medians);
  }
  return 0;
}

// Statistical decision of `quantity(medians) (>=|<=) bound` over the leaves of some samples.
struct StatQuestion {
  std::shared_ptr<const SampleExpr> quantity;  // of the leaves
  double bound = 0;
  stats::PassingSide side = stats::PassingSide::AtLeast;
  Dimension dim;
  std::string what;  // "t0 / t", "margin of a within 5% of b"
  std::string bound_text;
  // With samples on both sides, the comparison in the rubric's own terms before the difference it
  // is decided on: "1.003 ms <= 397 µs (1.1 × 360.9 µs), medians".
  std::string in_terms;
};

CheckOutcome decide_statistically(const StatQuestion& q, double confidence, std::uint64_t seed) {
  Samples s{q.quantity};
  auto leaves = s.leaves();
  std::unordered_map<const SampleSet*, std::size_t> index;
  std::vector<const std::vector<double>*> data;
  std::size_t n = SIZE_MAX;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    index[leaves[i].get()] = i;
    data.push_back(&leaves[i]->values);
    n = std::min(n, leaves[i]->values.size());
  }
  CheckOutcome o;
  try {
    stats::Interval iv = stats::bootstrap_interval(
        data, [&](const std::vector<double>& medians) { return eval_with(*q.quantity, index, medians); }, confidence, seed);
    stats::Decision d = stats::decide(iv, q.bound, q.side, n);
    o = statistical_outcome(d.verdict == stats::Verdict::Pass   ? Verdict::pass
                            : d.verdict == stats::Verdict::Fail ? Verdict::fail
                                                                : Verdict::inconclusive);
    if (!q.in_terms.empty()) o.evidence.push_back(q.in_terms);
    o.evidence.push_back(fmt::format("{}: median {} ({:g}% CI {} .. {}, n = {} per set) {} {}", q.what,
                                     format_quantity(iv.estimate, q.dim), confidence * 100, format_quantity(iv.lo, q.dim),
                                     format_quantity(iv.hi, q.dim), n, stats::side_operator(q.side),
                                     q.bound_text));
    for (const auto& l : leaves) o.evidence.push_back(fmt::format("  {} ({} samples)", l->description, l->values.size()));
    // The picture of the same decision (HTML report): each side's samples on one axis, so only
    // the sides in the first side's unit; the quantity's interval against the bound.
    SamplePlot plot;
    plot.unit = leaves.empty() ? "" : dimension_name(leaves.front()->dim);
    for (const auto& l : leaves)
      if (l->dim == leaves.front()->dim) plot.series.push_back({l->description, l->values});
    plot.quantity = q.what;
    plot.quantity_unit = dimension_name(q.dim);
    plot.estimate = iv.estimate;
    plot.lo = iv.lo;
    plot.hi = iv.hi;
    plot.bound = q.bound;
    plot.at_least = q.side == stats::PassingSide::AtLeast;
    o.samples = std::move(plot);
    // The decision's own words carry bare numbers; the report says the same with units.
    const std::string interval = fmt::format("the {:g}% interval {} .. {}", confidence * 100, format_quantity(iv.lo, q.dim),
                                             format_quantity(iv.hi, q.dim));
    const std::string bound = format_quantity(q.bound, q.dim);
    if (o.verdict == Verdict::pass) o.explanation = fmt::format("{} lies wholly on the passing side of {}", interval, bound);
    else if (o.verdict == Verdict::fail) o.explanation = fmt::format("{} lies wholly on the failing side of {}", interval, bound);
    else if (d.settleable)
      o.explanation = fmt::format("{} straddles {}: about {} samples per set (now {}) would likely settle it, or {:.2g}x less noise",
                                  interval, bound, d.samples_needed, n,
                                  std::sqrt(double(d.samples_needed) / double(n ? n : 1)));
    else
      o.explanation = fmt::format("{} straddles {} with the estimate on the bound: more samples will not settle it", interval,
                                  bound);
  } catch (const OperatorError& ex) {
    o = unusable_operand(false, fmt::format("statistical comparison failed: {}", ex.what()));
  }
  return o;
}

std::uint64_t mix_seed(std::uint64_t seed, const SourceLocation& l) {
  // Each check gets its own stream, stable across runs for a given rubric and seed.
  return seed * 0x9E3779B97F4A7C15ull + (std::uint64_t(l.line) << 20) + l.column;
}

std::uint64_t ulp_distance(double a, double b) {
  auto ordered = [](double x) {
    std::int64_t i;
    std::memcpy(&i, &x, sizeof i);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  std::int64_t ia = ordered(a), ib = ordered(b);
  return ia > ib ? std::uint64_t(ia) - std::uint64_t(ib) : std::uint64_t(ib) - std::uint64_t(ia);
}

}  // namespace

namespace {

struct Operand {
  Value value;
  std::string decomposition;  // "(0.95 × 12400 tok/s)" or empty
};

// A long text is folded once per run, however many `mentions` search it (criteria searching one
// answer share the fold); the cache entry keeps the string alive, so its address stays its key.
struct FoldedEntry {
  Value text;
  FoldedText folded;
};

std::shared_ptr<const FoldedText> folded_text(Evaluator& ev, const Value& text) {
  constexpr std::size_t kCacheFrom = 64 * 1024;
  const std::string& s = text.as_string();
  if (s.size() < kCacheFrom) return std::make_shared<const FoldedText>(s);
  const std::string key = fmt::format("folded:{}", static_cast<const void*>(&s));
  auto it = ev.cache.find(key);
  if (it == ev.cache.end()) it = ev.cache.emplace(key, std::make_shared<const FoldedEntry>(FoldedEntry{text, FoldedText(s)})).first;
  auto entry = std::static_pointer_cast<const FoldedEntry>(it->second);
  return std::shared_ptr<const FoldedText>(entry, &entry->folded);
}

}  // namespace

// A set of fewer than two measurements shows no spread, so its bootstrap interval has none and
// "decided with confidence" would mean nothing: one cherry-picked run would PASS as surely as ten.
// Such a comparison is not decided: the submission's FAIL when the set is the candidate's (it
// gave too few runs), the rubric's ERROR when the rubric's.
constexpr std::size_t kMinSamplesPerSet = 2;

static std::optional<CheckOutcome> too_few_samples(const Value& v, const std::string& text) {
  if (!v.is(ValueKind::samples)) return std::nullopt;
  for (const auto& leaf : v.as_samples().leaves()) {
    if (leaf->values.size() >= kMinSamplesPerSet) continue;
    CheckOutcome o = unusable_operand(v.from_submission(), fmt::format("{} has {} measurement{} in a set ({}): a statistical comparison needs at least {} per set, "
                                "since one value shows no spread to be confident about",
                                text.empty() ? "a side" : text, leaf->values.size(), leaf->values.size() == 1 ? "" : "s",
                                leaf->description, kMinSamplesPerSet));
    o.evidence.push_back(fmt::format("  {} ({} sample{})", leaf->description, leaf->values.size(), leaf->values.size() == 1 ? "" : "s"));
    return o;
  }
  return std::nullopt;
}

static Operand eval_operand(Evaluator& ev, const ast::Expr& e, const EnvPtr& env) {
  if (auto* b = std::get_if<ast::Binary>(&e.node)) {
    if (is_arith(b->op)) {
      Value l = ev.eval(*b->lhs, env);
      Value r = ev.eval(*b->rhs, env);
      Value v = ev.apply_binary(b->op, l, r, e, env);
      if (v.is_error() || l.is_error() || r.is_error()) return {v, ""};
      // Samples show their median, as the comparison of medians reads ("(1.1 × 360.5 µs)").
      auto show = [](const Value& x) {
        return x.is(ValueKind::samples) ? format_quantity(x.as_samples().point_estimate(), x.as_samples().dim()) : x.to_string();
      };
      return {v, fmt::format("({} {} {})", show(l), arith_symbol(b->op), show(r))};
    }
  }
  return {ev.eval(e, env), ""};
}

CheckOutcome Evaluator::decide(const ast::Expr& e, const EnvPtr& env) {
  count_step();
  // `not`, `and`, `or` follow the blame algebra (docs/semantics.md): only a decided comparison is
  // negated; a failure of submission data, a rubric error, a skip or an inconclusive result is
  // never turned into a PASS.
  if (auto* u = std::get_if<ast::Unary>(&e.node); u && u->op == ast::UnaryOp::logical_not) {
    CheckOutcome inner = decide(*u->operand, env);
    CheckOutcome o = negated(inner);
    const Truth t = truth_of(inner);
    o.evidence.clear();
    std::string inner_text = source_text(*u->operand, env);
    if (inner_text.size() >= 2 && inner_text.front() == '(' && inner_text.back() == ')')
      inner_text = inner_text.substr(1, inner_text.size() - 2);
    if (inner.decided)
      o.evidence.push_back(fmt::format("not: {} was {}", inner_text, verdict_name(inner.verdict)));
    else
      o.evidence.push_back(fmt::format("not: {} was not decided ({}), so it is not negated", inner_text, verdict_name(inner.verdict)));
    for (const auto& line : inner.evidence) o.evidence.push_back("  " + line);
    if (t == Truth::decided_true) o.explanation = fmt::format("'{}' holds, and must not", inner_text);
    else if (t == Truth::decided_false) o.explanation = fmt::format("'{}' does not hold, as required", inner_text);
    return o;
  }

  // A block's value is decided in the block's scope, with the evidence of its comparison.
  if (auto* blk = std::get_if<ast::BlockExpr>(&e.node)) return decide(*blk->value, bind_block_lets(*blk, env));

  if (auto* b = std::get_if<ast::Binary>(&e.node)) {
    if (b->op == ast::BinaryOp::logical_and || b->op == ast::BinaryOp::logical_or) {
      const bool is_and = b->op == ast::BinaryOp::logical_and;
      // Left to right; a side that settles the whole leaves the right unevaluated (verdicts.hpp).
      const Connective connective = is_and ? Connective::all : Connective::any;
      auto sub = [&](const char* side, const ast::Expr& x, const CheckOutcome& r, std::vector<std::string>& out) {
        out.push_back(fmt::format("{}: {} was {}{}", side, source_text(x, env), verdict_name(r.verdict),
                                  r.decided ? "" : " (not decided)"));
        for (const auto& line : r.evidence) out.push_back("  " + line);
      };
      // Each side's review marks are gathered apart: the whole keeps only those it rests on, so a
      // side that holds clearly in an `or` is not marked for the other side's doubtful reading.
      std::vector<std::string> outer = std::exchange(reviews_, {});
      std::vector<ReviewedPart> parts;
      bool all_decided = true;
      auto side_reviews = [&](const CheckOutcome& x) {
        const Truth t = truth_of(x);
        all_decided = all_decided && is_decided(t);
        parts.push_back({t == Truth::decided_true, std::exchange(reviews_, {})});
      };
      CheckOutcome l = decide(*b->lhs, env);
      side_reviews(l);
      CheckOutcome o;
      sub("left", *b->lhs, l, o.evidence);
      auto finish = [&]() {
        std::vector<std::string> kept;
        if (all_decided) kept = deciding_reasons(parts, !is_and);
        else
          for (auto& p : parts) kept.insert(kept.end(), p.reasons.begin(), p.reasons.end());
        reviews_ = std::move(outer);
        for (const auto& reason : kept) note_review(reason);
        return o;
      };
      auto settled_by = [&](const CheckOutcome& x, const char* side) {
        o.verdict = x.verdict;
        o.blame = x.blame;
        o.decided = x.decided;
        o.explanation = x.explanation.empty() ? fmt::format("the {} side was {}", side, verdict_name(x.verdict)) : x.explanation;
        if (x.verdict == Verdict::pass) o.explanation = fmt::format("the {} side holds", side);
        return finish();
      };
      const Truth lt = truth_of(l);
      if (settles(lt, connective)) return settled_by(l, "left");
      CheckOutcome r = decide(*b->rhs, env);
      side_reviews(r);
      sub("right", *b->rhs, r, o.evidence);
      switch (deciding_side(lt, truth_of(r), connective)) {
        case DecidingSide::left: return settled_by(l, "left");
        case DecidingSide::right: return settled_by(r, "right");
        case DecidingSide::identity: break;
      }
      CheckOutcome both = identity_outcome(connective);
      o.verdict = both.verdict;
      o.blame = both.blame;
      o.decided = true;
      o.explanation = both.explanation;
      return finish();
    }

    if (b->op != ast::BinaryOp::in && !is_arith(b->op)) {
      Operand l = eval_operand(*this, *b->lhs, env);
      Operand r = eval_operand(*this, *b->rhs, env);
      if (l.value.is_error()) return from_error(l.value);
      if (r.value.is_error()) return from_error(r.value);
      const char* op = ast::op_text(b->op);
      bool ordering = b->op != ast::BinaryOp::eq && b->op != ast::BinaryOp::ne;
      bool samples = l.value.is(ValueKind::samples) || r.value.is(ValueKind::samples);
      if (samples && ordering) {
        bool lnum = l.value.is(ValueKind::number) || l.value.is(ValueKind::samples);
        bool rnum = r.value.is(ValueKind::number) || r.value.is(ValueKind::samples);
        if (!lnum || !rnum || dim_of(l.value) != dim_of(r.value)) {
          Value v = apply_binary(b->op, l.value, r.value, e, env);
          return from_error(v.is_error() ? v : error_at(e, env, "cannot compare these values"));
        }
        if (auto few = too_few_samples(l.value, source_text(*b->lhs, env))) return *few;
        if (auto few = too_few_samples(r.value, source_text(*b->rhs, env))) return *few;
        StatQuestion q;
        bool at_least = b->op == ast::BinaryOp::ge || b->op == ast::BinaryOp::gt;
        const bool strict = b->op == ast::BinaryOp::gt || b->op == ast::BinaryOp::lt;
        q.dim = dim_of(l.value);
        if (!r.value.is(ValueKind::samples)) {
          q.quantity = l.value.as_samples().expr;
          q.bound = r.value.as_number();
          q.what = source_text(*b->lhs, env);
          q.bound_text = r.value.to_string() + (r.decomposition.empty() ? "" : " " + r.decomposition);
        } else if (!l.value.is(ValueKind::samples)) {
          q.quantity = r.value.as_samples().expr;
          q.bound = l.value.as_number();
          at_least = !at_least;
          q.what = source_text(*b->rhs, env);
          q.bound_text = l.value.to_string() + (l.decomposition.empty() ? "" : " " + l.decomposition);
        } else {
          auto diff = std::make_shared<SampleExpr>();
          diff->op = SampleExpr::Op::sub;
          diff->lhs = l.value.as_samples().expr;
          diff->rhs = r.value.as_samples().expr;
          diff->dim = q.dim;
          q.quantity = diff;
          // Decided on the difference of the sides; the line before it shows the sides themselves.
          q.what = "left side - right side";
          q.bound_text = format_quantity(0, q.dim);
          auto median_of = [&](const Operand& x) {
            return format_quantity(x.value.as_samples().point_estimate(), q.dim) + (x.decomposition.empty() ? "" : " " + x.decomposition);
          };
          q.in_terms = fmt::format("{} {} {}, medians", median_of(l), op, median_of(r));
        }
        q.side = strict ? (at_least ? stats::PassingSide::Above : stats::PassingSide::Below)
                        : (at_least ? stats::PassingSide::AtLeast : stats::PassingSide::AtMost);
        return decide_statistically(q, confidence_, mix_seed(seed_, location_of(e, env)));
      }
      // A null where a value belongs (an exit code of a program that was killed, an optional key
      // written as null): the explanation says which side is null before anything else.
      if (l.value.is_null() != r.value.is_null()) {
        const bool left_null = l.value.is_null();
        const Value& null_side = left_null ? l.value : r.value;
        const Value& other = left_null ? r.value : l.value;
        std::string what = source_text(left_null ? *b->lhs : *b->rhs, env);
        std::string expl = fmt::format("{} is null, not a {}", what.empty() ? "a side" : what, other.kind_name());
        if (ordering) {
          CheckOutcome o = unusable_operand(null_side.from_submission() || other.from_submission(), expl);
          o.evidence.push_back(fmt::format("{} {} {}", l.value.repr(), op, r.value.repr()));
          o.null_operand = true;
          return o;
        }
        bool passed = (b->op == ast::BinaryOp::ne);
        CheckOutcome o = comparison_outcome(passed, {fmt::format("{} {} {}", l.value.repr(), op, r.value.repr())}, passed ? "holds" : expl);
        o.null_operand = !passed;
        return o;
      }
      Value v = apply_binary(b->op, l.value, r.value, e, env);
      if (v.is_error()) return from_error(v);
      bool passed = v.as_bool();
      if (l.value.is(ValueKind::number) && r.value.is(ValueKind::number) && l.value.as_quantity().dim != r.value.as_quantity().dim &&
          (l.value.claimed() || r.value.claimed()))
        return comparison_outcome(passed, {fmt::format("{} {} {}: a claim of another dimension", l.value.repr(), op, r.value.repr())},
                       "not comparable: a claim of another unit");
      // Two numbers are shown in one unit and one notation, with the digits that tell them apart.
      std::string ls = l.value.repr(), rs = r.value.repr();
      if (l.value.is(ValueKind::number) && r.value.is(ValueKind::number) && l.value.as_quantity().dim == r.value.as_quantity().dim)
        std::tie(ls, rs) = format_quantity_pair(l.value.as_number(), r.value.as_number(), l.value.as_quantity().dim);
      // A fraction compared with a percentage the rubric wrote reads as percentages.
      if (l.value.is(ValueKind::number) && r.value.is(ValueKind::number) && (l.value.percent() || r.value.percent()) &&
          l.value.as_quantity().dim.dimensionless() && r.value.as_quantity().dim.dimensionless()) {
        auto percent = [](double f) { return fmt::format("{:.6g}%", f * 100); };
        ls = percent(l.value.as_number());
        rs = percent(r.value.as_number());
      }
      std::string line = fmt::format("{}{} {} {}{}", ls, l.decomposition.empty() ? "" : " " + l.decomposition, op, rs,
                                     r.decomposition.empty() ? "" : " " + r.decomposition);
      std::string expl;
      if (l.value.is(ValueKind::number) && r.value.is(ValueKind::number) && std::isfinite(l.value.as_number()) &&
          std::isfinite(r.value.as_number())) {
        double x = l.value.as_number(), y = r.value.as_number();
        double rel = y != 0 ? (x - y) / std::fabs(y) : 0;
        if (ordering && y != 0 && x != y) {
          bool above = x > y;
          std::string how = above ? pct(rel) + (passed ? " above" : " over") : pct(rel) + (passed ? " below" : " short");
          line += ": " + how;
          expl = fmt::format("{} is {}{} {}", ls, how, above || passed ? "" : " of", rs);
        } else if (!ordering && !passed) {
          expl = fmt::format("they differ by {}", format_quantity(std::fabs(x - y), l.value.as_quantity().dim));
        }
      } else if (b->op == ast::BinaryOp::eq && !passed) {
        if (auto d = first_difference(l.value, r.value)) expl = *d;
      }
      if (expl.empty()) expl = passed ? "holds" : "does not hold";
      return comparison_outcome(passed, {line}, expl);
    }
  }

  if (auto* w = std::get_if<ast::Within>(&e.node)) {
    Value a = eval(*w->value, env), t = eval(*w->tolerance, env), r = eval(*w->reference, env);
    for (const Value* v : {&a, &t, &r})
      if (v->is_error()) return from_error(*v);
    auto numeric = [](const Value& v) { return v.is(ValueKind::number) || v.is(ValueKind::samples); };
    if (!numeric(a) || !numeric(r) || !t.is(ValueKind::number)) {
      // The operand of the wrong kind answers: the candidate's string FAILs, the rubric's is its ERROR.
      const Value& wrong = !numeric(a) ? a : !numeric(r) ? r : t;
      const ast::Expr* wrong_expr = !numeric(a) ? w->value.get() : !numeric(r) ? w->reference.get() : w->tolerance.get();
      return from_error(error_at(e, env, fmt::format("'within' needs numbers: got a {} within a {} of a {}{}", a.kind_name(),
                                                     t.kind_name(), r.kind_name(), candidate_value_note(wrong, wrong_expr, env)),
                                 owner_of(wrong)));
    }
    // A negative tolerance admits nothing, a NaN decides nothing and an infinite one admits every
    // finite value: a bad bound, never a verdict.
    if (!numerics::is_tolerance_bound(t.as_number()))
      return from_error(error_at(*w->tolerance, env, fmt::format("'within' needs a finite tolerance of 0 or more, got {}{}", t.to_string(),
                                                                 candidate_value_note(t, w->tolerance.get(), env, false)),
                                 owner_of(t)));
    if (dim_of(a) != dim_of(r) && (a.claimed() || r.claimed()))
      // A claim in the prose of another quantity than the measurement ("2.3x" against 45 GB/s): no
      // match, not the rubric's error (docs/text.md).
      return comparison_outcome(false, {fmt::format("{} and {}: a claim of another dimension ({} vs {})", a.to_string(), r.to_string(),
                                         dimension_description(dim_of(a)), dimension_description(dim_of(r)))},
                     "not comparable: a claim of another unit");
    if (dim_of(a) != dim_of(r))
      return from_error(error_at(e, env, fmt::format("'within' of {} and {}: the dimensions differ ({} vs {})", a.to_string(),
                                                     r.to_string(), dimension_description(dim_of(a)),
                                                     dimension_description(dim_of(r)))));
    bool relative = t.as_quantity().dim.dimensionless();
    if (!relative && t.as_quantity().dim != dim_of(a))
      return from_error(error_at(e, env, fmt::format("the tolerance {} has a different dimension from {} ({} vs {})", t.to_string(),
                                                     a.to_string(), dimension_description(t.as_quantity().dim),
                                                     dimension_description(dim_of(a)))));
    Dimension d = dim_of(a);
    std::string tol_text = relative ? fmt::format("{} of {}", pct(t.as_number()), r.to_string()) : t.to_string();
    if (a.is(ValueKind::samples) || r.is(ValueKind::samples)) {
      if (auto few = too_few_samples(a, source_text(*w->value, env))) return *few;
      if (auto few = too_few_samples(r, source_text(*w->reference, env))) return *few;
      // margin = allowed - |a - b| must be >= 0; |x| via sqrt(x*x) keeps the expression algebra small.
      auto ea = sample_expr_of(a), er = sample_expr_of(r);
      StatQuestion q;
      q.dim = d;
      q.side = stats::PassingSide::AtLeast;
      q.what = fmt::format("allowed minus |{} - {}|", source_text(*w->value, env), source_text(*w->reference, env));
      q.bound_text = format_quantity(0, d);
      auto diff = std::make_shared<SampleExpr>();
      diff->op = SampleExpr::Op::sub;
      diff->lhs = ea;
      diff->rhs = er;
      diff->dim = d;
      // The statistical helper works on signed quantities, so decide both one-sided bounds:
      // a - b <= allowed and b - a <= allowed, where allowed is T·|b| (relative) or T.
      std::shared_ptr<const SampleExpr> allowed;
      if (relative) {
        auto c = std::make_shared<SampleExpr>();
        c->op = SampleExpr::Op::constant;
        c->constant = std::fabs(t.as_number());
        auto m = std::make_shared<SampleExpr>();
        m->op = SampleExpr::Op::mul;
        m->lhs = c;
        m->rhs = er;  // references are positive in practice (times, throughputs); see docs/semantics.md
        m->dim = d;
        allowed = m;
      } else {
        auto c = std::make_shared<SampleExpr>();
        c->op = SampleExpr::Op::constant;
        c->constant = t.as_number();
        c->dim = d;
        allowed = c;
      }
      auto upper = std::make_shared<SampleExpr>();  // allowed - (a - b) >= 0
      upper->op = SampleExpr::Op::sub;
      upper->lhs = allowed;
      upper->rhs = diff;
      upper->dim = d;
      auto lower = std::make_shared<SampleExpr>();  // allowed + (a - b) >= 0
      lower->op = SampleExpr::Op::add;
      lower->lhs = allowed;
      lower->rhs = diff;
      lower->dim = d;
      std::uint64_t s = mix_seed(seed_, location_of(e, env));
      StatQuestion qu = q, ql = q;
      qu.quantity = upper;
      qu.what = fmt::format("{} - ({} - {}) [within {}]", "allowed", source_text(*w->value, env), source_text(*w->reference, env), tol_text);
      ql.quantity = lower;
      ql.what = fmt::format("{} + ({} - {}) [within {}]", "allowed", source_text(*w->value, env), source_text(*w->reference, env), tol_text);
      CheckOutcome ou = decide_statistically(qu, confidence_, s);
      CheckOutcome ol = decide_statistically(ql, confidence_, s + 1);
      CheckOutcome o = statistical_outcome(both_margins(ou.verdict, ol.verdict));
      o.evidence = ou.evidence;
      o.evidence.insert(o.evidence.end(), ol.evidence.begin(), ol.evidence.end());
      o.explanation = o.verdict == ou.verdict ? ou.explanation : ol.explanation;
      return o;
    }
    if (std::isnan(a.as_number()) || std::isnan(r.as_number()))
      return from_error(error_at(e, env, "'within' with NaN (not a number) decides nothing" +
                                             (std::isnan(a.as_number()) ? candidate_value_note(a, w->value.get(), env)
                                                                        : candidate_value_note(r, w->reference.get(), env)),
                                 owner_of(std::isnan(a.as_number()) ? a : r)));
    double x = a.as_number(), y = r.as_number();
    double diff = std::fabs(x - y);
    double allowed = relative ? std::fabs(t.as_number()) * std::fabs(y) : t.as_number();
    bool passed = diff <= allowed;
    auto [as, rs] = format_quantity_pair(x, y, d);
    auto [ds, alls] = format_quantity_pair(diff, allowed, d);
    std::string line = fmt::format("|{} - {}| = {} {} {} ({})", as, rs, ds, passed ? "<=" : ">", alls, tol_text);
    std::string expl = y != 0 ? fmt::format("differs by {} ({} allowed)", pct(diff / std::fabs(y)), tol_text)
                              : fmt::format("differs by {} ({} allowed)", format_quantity(diff, d), tol_text);
    return comparison_outcome(passed, {line}, expl);
  }

  if (auto* m = std::get_if<ast::Matches>(&e.node)) {
    Value a = eval(*m->value, env), r = eval(*m->reference, env);
    if (a.is_error()) return from_error(a);
    if (r.is_error()) return from_error(r);
    if (auto held = a.held_error()) return from_error(*held);
    if (auto held = r.held_error()) return from_error(*held);
    MatchTolerance tol;
    tol.form = m->form;
    auto num = [&](const ast::ExprPtr& x, double& out) -> std::optional<CheckOutcome> {
      if (!x) return std::nullopt;
      Value v = eval(*x, env);
      if (v.is_error()) return from_error(v);
      if (!v.is(ValueKind::number) || !v.as_quantity().dim.dimensionless())
        return from_error(error_at(*x, env, fmt::format("a 'matches' tolerance must be a plain number, got {}{}", v.repr(5),
                                                        candidate_value_note(v, x.get(), env, false)),
                                   owner_of(v)));
      // A negative bound admits nothing, a NaN decides nothing and an infinite one admits every
      // finite answer: a bad tolerance, never a verdict.
      if (!numerics::is_tolerance_bound(v.as_number()))
        return from_error(error_at(*x, env, fmt::format("a 'matches' tolerance must be a finite number, 0 or more, got {}{}", v.repr(5),
                                                        candidate_value_note(v, x.get(), env, false)),
                                   owner_of(v)));
      out = v.as_number();
      return std::nullopt;
    };
    double rt = 0, at = 0;
    if (auto o = num(m->both, tol.both)) return *o;
    if (auto o = num(m->ulp, tol.ulp)) return *o;
    if (m->rtol) {
      if (auto o = num(m->rtol, rt)) return *o;
      tol.rtol = rt;
    }
    if (m->atol) {
      if (auto o = num(m->atol, at)) return *o;
      tol.atol = at;
    }
    if (a.is(ValueKind::tensor) || r.is(ValueKind::tensor)) {
      if (auto o = try_matches_hooks(a, r, tol, e, env)) return *o;
      return from_error(error_at(e, env, "tensor comparison is not available in this build (the tensor family is not bound)"));
    }
    // Numbers, or flat lists of numbers, elementwise.
    std::vector<Value> xs, ys;
    if (a.is(ValueKind::list) && r.is(ValueKind::list)) {
      xs = a.as_list();
      ys = r.as_list();
      if (xs.size() != ys.size())
        return comparison_outcome(false, {fmt::format("lengths differ: {} vs {}", xs.size(), ys.size())}, "shapes differ (no broadcasting)");
    } else {
      xs = {a};
      ys = {r};
    }
    double rtol = 1e-7, atol = 1e-7;
    if (tol.form == ast::ToleranceForm::both) rtol = atol = tol.both;
    if (tol.form == ast::ToleranceForm::explicit_rtol_atol) {
      rtol = tol.rtol.value_or(0);
      atol = tol.atol.value_or(0);
    }
    std::size_t bad = 0, worst_i = 0;
    double worst_abs = -1;
    std::uint64_t worst_ulp = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (xs[i].is_error()) return from_error(xs[i]);
      if (!xs[i].is(ValueKind::number) || !ys[i].is(ValueKind::number))
        return from_error(error_at(e, env, fmt::format("'matches' compares numbers or tensors, got a {} and a {}{}", xs[i].kind_name(),
                                                       ys[i].kind_name(),
                                                       !xs[i].is(ValueKind::number)
                                                           ? candidate_value_note(xs[i], xs.size() == 1 ? m->value.get() : nullptr, env)
                                                           : candidate_value_note(ys[i], ys.size() == 1 ? m->reference.get() : nullptr, env)),
                                   owner_of(!xs[i].is(ValueKind::number) ? xs[i] : ys[i])));
      if (xs[i].as_quantity().dim != ys[i].as_quantity().dim)
        return from_error(error_at(e, env, fmt::format("'matches' of {} and {}: the dimensions differ", xs[i].to_string(), ys[i].to_string())));
      double x = xs[i].as_number(), y = ys[i].as_number();
      bool close;
      if (tol.form == ast::ToleranceForm::ulp) {
        std::uint64_t u = std::isfinite(x) && std::isfinite(y) ? ulp_distance(x, y) : UINT64_MAX;
        close = !std::isnan(x) && !std::isnan(y) && (x == y || u <= static_cast<std::uint64_t>(tol.ulp));
        worst_ulp = std::max(worst_ulp, u);
      } else if (std::isnan(x) || std::isnan(y)) {
        close = false;
      } else if (std::isinf(x) || std::isinf(y)) {
        close = x == y;
      } else {
        close = std::fabs(x - y) <= atol + rtol * std::fabs(y);
      }
      double d = std::fabs(x - y);
      if (!close) ++bad;
      if (std::isnan(d) || d > worst_abs) {
        worst_abs = std::isnan(d) ? INFINITY : d;
        worst_i = i;
      }
    }
    bool passed = bad == 0;
    std::vector<std::string> ev;
    std::string allowed = tol.form == ast::ToleranceForm::ulp ? fmt::format("{} ulp", format_number(tol.ulp))
                                                              : fmt::format("{} + {}·|ref|", format_number(atol, 17), format_number(rtol, 17));
    if (xs.size() == 1) {
      ev.push_back(fmt::format("{} vs reference {}: difference {} (up to {} allowed)", xs[0].to_string(), ys[0].to_string(),
                               format_quantity(std::fabs(xs[0].as_number() - ys[0].as_number()), xs[0].as_quantity().dim), allowed));
    } else {
      ev.push_back(fmt::format("Mismatched elements: {} / {} ({})", bad, xs.size(), pct(double(bad) / std::max<std::size_t>(1, xs.size()))));
      if (!xs.empty())
        ev.push_back(fmt::format("Greatest absolute difference: {} at ({}) (up to {} allowed)", format_number(worst_abs), worst_i, allowed));
    }
    return comparison_outcome(passed, ev, passed ? "close within the tolerance" : fmt::format("{} of {} not close", bad, xs.size()));
  }

  if (auto* mt = std::get_if<ast::Mentions>(&e.node)) {
    if (mt->verb != ast::MentionVerb::mentions) return decide_polarity(*mt, e, env);
    Value t = eval(*mt->text, env);
    if (t.is_error()) return from_error(t);
    if (!t.is(ValueKind::string))
      return from_error(error_at(*mt->text, env, fmt::format("'mentions' searches a string, got a {}{}", t.kind_name(),
                                                             candidate_value_note(t, mt->text.get(), env)),
                                 owner_of(t)));
    Value p = eval(*mt->phrases, env);
    if (p.is_error()) return from_error(p);
    if (auto held = p.held_error()) return from_error(*held);
    std::vector<std::string> phrases;
    if (p.is(ValueKind::string)) {
      phrases.push_back(p.as_string());
    } else if (p.is(ValueKind::list)) {
      for (const auto& item : p.as_list()) {
        if (!item.is(ValueKind::string))
          return from_error(error_at(*mt->phrases, env, fmt::format("'mentions' phrases must be strings, found {}", item.repr(5)),
                                     owner_of(item)));
        phrases.push_back(item.as_string());
      }
    } else {
      return from_error(error_at(*mt->phrases, env, fmt::format("'mentions' needs a string or a list of strings, got a {}", p.kind_name()),
                                 owner_of(p)));
    }
    // No phrase, or a blank one, asks nothing of the answer: `mentions any []` would FAIL every
    // answer and `mentions all []` PASS it, whatever it says.
    if (phrases.empty())
      return from_error(error_at(*mt->phrases, env, fmt::format("'mentions {}' of an empty list asks nothing of the text",
                                                                mt->mode == ast::MentionMode::all ? "all" : "any"),
                                 owner_of(p)));
    for (const auto& ph : phrases)
      if (ph.find_first_not_of(" \t\r\n\f\v") == std::string::npos)
        return from_error(error_at(*mt->phrases, env, fmt::format("'mentions' of a blank phrase (\"{}\") asks nothing of the text", ph),
                                   owner_of(p)));
    const auto folded_ptr = folded_text(*this, t);
    const FoldedText& folded = *folded_ptr;
    std::vector<std::string> ev, found, missing;
    for (const auto& ph : phrases) {
      charge_steps(t.as_string().size() / 1024 + 1);  // one step per KiB searched, as the text builtins

      if (auto snippet = folded.find(ph)) {
        found.push_back(ph);
        ev.push_back(fmt::format("found \"{}\": {}", ph, *snippet));
      } else {
        missing.push_back(ph);
        ev.push_back(fmt::format("not found: \"{}\"", ph));
      }
    }
    bool passed = mt->mode == ast::MentionMode::all ? missing.empty() : !found.empty();
    std::string expl;
    if (mt->mode == ast::MentionMode::all)
      expl = passed ? fmt::format("all {} phrases found", phrases.size())
                    : fmt::format("missing {} of {}: \"{}\"", missing.size(), phrases.size(), fmt::join(missing, "\", \""));
    else
      expl = passed ? fmt::format("found \"{}\"", fmt::join(found, "\", \""))
                    : fmt::format("none of the phrases found in {} characters of text", t.as_string().size());
    return comparison_outcome(passed, ev, expl);
  }

  if (auto o = decide_over_claims(e, env)) return *o;
  Value v = eval(e, env);
  if (v.is_error()) return from_error(v);
  if (!v.is(ValueKind::boolean))
    return unusable_operand(v.from_submission(), fmt::format("an expect needs a bool, got a {} ({}) ({})", v.kind_name(), v.repr(5),
                                                             error_location_text(error_location(e, env))));
  if (v.as_bool()) return comparison_outcome(true, {}, "holds");
  return comparison_outcome(false, {fmt::format("{} is false", source_text(e, env))}, "does not hold");
}

}  // namespace rubric
