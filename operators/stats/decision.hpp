#pragma once
// Turns a confidence interval on a compared quantity into PASS, FAIL or INCONCLUSIVE.
#include <cstddef>
#include <string>

#include "operators/stats/bootstrap.hpp"

namespace rubric::stats {

enum class Verdict { Pass, Fail, Inconclusive };
const char* verdict_name(Verdict v);  // "PASS", "FAIL", "INCONCLUSIVE"

// Which side of the bound passes: AtLeast means quantity >= bound passes, AtMost quantity <= bound,
// Above quantity > bound and Below quantity < bound (strict: touching the bound does not pass).
enum class PassingSide { AtLeast, AtMost, Above, Below };
const char* side_operator(PassingSide s);  // ">=", "<=", ">", "<"

struct Decision {
  Verdict verdict = Verdict::Inconclusive;
  // For INCONCLUSIVE: samples per set that would likely settle it (0 when decided or unsettleable).
  std::size_t samples_needed = 0;
  bool settleable = true;   // false when the estimate sits on the bound
  std::string explanation;  // one sentence for the report
};

// PASS when the whole interval is on the passing side (touching the bound counts as passing for
// AtLeast/AtMost, as failing for Above/Below), FAIL when it is wholly on the failing side, else
// INCONCLUSIVE. The interval's half-width shrinks
// like 1/sqrt(n), so n_needed ≈ n·(halfwidth/|estimate − bound|)², using the half-width on the
// bound's side of the estimate. `samples_per_set` is the current n (the smallest set's size).
Decision decide(const Interval& interval, double bound, PassingSide side, std::size_t samples_per_set);

}  // namespace rubric::stats
