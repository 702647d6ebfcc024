#pragma once
// How a condition over samples is decided: a quantity of the sets' medians, its bootstrap
// interval against a bound, PASS / FAIL / INCONCLUSIVE with the evidence and the plot. The
// comparison and `within` conditions build the question; this answers it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "interpreter/check_outcome.hpp"
#include "interpreter/value.hpp"
#include "operators/stats/decision.hpp"

namespace rubric {

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

CheckOutcome decide_statistically(const StatQuestion& q, double confidence, std::uint64_t seed);

// Each check gets its own stream, stable across runs for a given rubric and seed.
std::uint64_t mix_seed(std::uint64_t seed, const SourceLocation& l);

// A set of fewer than two measurements shows no spread, so its bootstrap interval has none and
// "decided with confidence" would mean nothing: one cherry-picked run would PASS as surely as ten.
// Such a comparison is not decided: the submission's FAIL when the set is the candidate's (it
// gave too few runs), the rubric's ERROR when the rubric's. nullopt when `v` is not samples or
// every set is large enough; `text` names the side.
constexpr std::size_t kMinSamplesPerSet = 2;
std::optional<CheckOutcome> too_few_samples(const Value& v, const std::string& text);

}  // namespace rubric
