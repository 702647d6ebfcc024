#pragma once
// Every verdict rule of the language in one place, as pure functions over the value and report
// models (docs/semantics.md, "Blame algebra" and "Criteria, scores, verdicts"): the state of a
// condition and how `not`, `and`, `or`, `all` and `any` combine states; what an error value, an
// unusable operand and a statistical answer show as a check; how `after` and `needs gpu` decide a
// criterion; its score and penalty; a group's verdict and score; the rubric's verdict.
// The evaluator computes operands and evidence and asks these functions for the verdict;
// tests/interpreter/test_verdicts.cpp holds them to the tables of docs/semantics.md.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/check_outcome.hpp"
#include "interpreter/report_model.hpp"
#include "interpreter/value.hpp"

namespace rubric {

// ---- conditions: the blame algebra ----

// The six states of a condition: T decided true, F decided false, D a failure of submission data
// (FAIL), E an error of the rubric's or the grading machine's (ERROR), S skipped (the grader lacks
// what it needs: SKIP), I inconclusive (statistics did not settle). D, E, S and I are undecided.
enum class Truth { decided_true, decided_false, submission_failure, error, skipped, inconclusive };

Truth truth_of(const CheckOutcome& o);
Truth truth_of(const ErrorInfo& e);  // D, E, S or I
// A bool is T or F, an error value its state; any other value is not a condition (nullopt).
std::optional<Truth> truth_of(const Value& v);
bool is_decided(Truth t);

// How strongly an undecided state settles: E 3, D 2, I 1, S 0; -1 for T and F.
int undecided_rank(Truth t);
// The stronger of two error values (the first on a tie): what a list holding both yields.
const Value& stronger_undecided(const Value& a, const Value& b);

// `and` is `all` of two conditions, `or` is `any`.
enum class Connective { all, any };

// A side settles a connective by itself when it is D, E or the absorbing value (F for `all`, T for
// `any`): a settling left side leaves the right unevaluated, so guards work.
bool settles(Truth side, Connective c);
// Which side decides `L c R`: a side that settles (the left first); otherwise the stronger
// undecided side (the left on a tie); when both are the identity, neither.
enum class DecidingSide { left, right, identity };
DecidingSide deciding_side(Truth left, Truth right, Connective c);
// The state of `L c R` (the tables of docs/semantics.md).
Truth combine(Truth left, Truth right, Connective c);
// `not X`: T and F swap; an undecided state stays as it is.
Truth negate(Truth t);

// A comparison that ran: PASS, or FAIL blamed on the submission.
CheckOutcome comparison_outcome(bool passed, std::vector<std::string> evidence, std::string explanation);
// `not` of an outcome: a decided verdict is swapped, anything else kept (evidence is the caller's).
CheckOutcome negated(CheckOutcome inner);
// Both sides of `and`/`or` the identity: both hold (`and`), or neither holds (`or`).
CheckOutcome identity_outcome(Connective c);
// What a check shows for an error value: FAIL when blamed on the submission, otherwise the
// error's own verdict (ERROR, SKIP or INCONCLUSIVE); never decided.
CheckOutcome outcome_of_error(const Value& error);
// An operand that cannot be compared (too few samples, a null in an ordering, a value that is not a
// bool): the submission's FAIL when it is the candidate's data, the rubric's ERROR otherwise.
CheckOutcome unusable_operand(bool from_submission, std::string explanation);
// A statistical comparison's answer; INCONCLUSIVE is not decided.
CheckOutcome statistical_outcome(Verdict answer);
// `within` on samples decides its two one-sided margins apart: a FAIL of either fails it,
// otherwise the worse of the two.
Verdict both_margins(Verdict upper, Verdict lower);
// A condition used as a value: a decided outcome is a bool, an undecided one keeps its state.
Value value_of_outcome(const CheckOutcome& o);

// ---- criteria and groups ----

// `after a, b`: a FAIL among them fails this criterion (checked first), otherwise anything but
// PASS skips it; each pair is (id, its verdict, nullopt when it was not evaluated).
struct NotEvaluated {
  Verdict verdict;
  std::string reason;  // "not evaluated: a did not pass"
};
std::optional<NotEvaluated> after_rule(const std::vector<std::pair<std::string, std::optional<Verdict>>>& dependencies);

// A criterion's verdict: the worst of its checks (those listed and those only counted,
// omitted[v] checks of verdict v); PASS when it has none.
Verdict criterion_verdict(const std::vector<CheckResult>& checks, const std::size_t (&omitted)[5]);
// Without a usable device a `needs gpu` criterion is SKIP unless a failed operation on the
// submission (it does not build, lacks the signature or a file) decided it: a comparison may have
// read the missing device's figures.
bool skipped_for_device(Verdict evaluated, bool submission_operation_failed);
// The score of a criterion: PASS its `score` statement or 1; FAIL its `score` statement when it was
// evaluated, else 0; undecided none.
std::optional<double> criterion_score(Verdict v, std::optional<double> scored, bool not_evaluated);
// A penalty is deducted only when a check decided against the submission (a comparison answered
// false), never for data that could not be read nor for an `after` that did not pass.
bool penalty_deducted(Verdict v, std::size_t decided_against);

// A group's verdict: the worst of its children's.
Verdict group_verdict(const std::vector<CriterionResult>& children);
// Σ wᵢ·sᵢ / Σ wᵢ over the decided (scored) non-penalty children, minus the penalties of penalty
// children whose checks decided against the submission over the same Σ wᵢ, clamped to [0, 1].
// nullopt when no weighted child was decided.
std::optional<double> combined_score(const std::vector<CriterionResult>& children);

// The rubric: ERROR if anything errored; FAIL if a required criterion failed or the score is below
// the pass mark; INCOMPLETE if something was skipped or inconclusive, or nothing was decided; else PASS.
OverallVerdict overall_verdict(const std::vector<CriterionResult>& criteria, std::optional<double> score, double pass_mark);

}  // namespace rubric
