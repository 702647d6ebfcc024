#include "operators/stats/decision.hpp"

#include <fmt/format.h>

#include <cmath>

namespace rubric::stats {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "PASS";
    case Verdict::Fail: return "FAIL";
    default: return "INCONCLUSIVE";
  }
}

const char* side_operator(PassingSide s) {
  switch (s) {
    case PassingSide::AtLeast: return ">=";
    case PassingSide::AtMost: return "<=";
    case PassingSide::Above: return ">";
    case PassingSide::Below: return "<";
  }
  return "?";
}

Decision decide(const Interval& iv, double bound, PassingSide side, std::size_t n) {
  Decision d;
  const bool at_least = side == PassingSide::AtLeast || side == PassingSide::Above;
  const bool strict = side == PassingSide::Above || side == PassingSide::Below;
  const char* op = side_operator(side);
  const std::string range = fmt::format("estimate {:.4g}, interval [{:.4g}, {:.4g}]", iv.estimate, iv.lo, iv.hi);
  // For a strict comparison the interval must lie strictly on the passing side; touching the
  // bound from the failing side (all samples equal to it) is a decided FAIL.
  const bool passes = strict ? (at_least ? iv.lo > bound : iv.hi < bound) : (at_least ? iv.lo >= bound : iv.hi <= bound);
  const bool fails = strict ? (at_least ? iv.hi <= bound : iv.lo >= bound) : (at_least ? iv.hi < bound : iv.lo > bound);
  if (passes) {
    d.verdict = Verdict::Pass;
    d.explanation = fmt::format("{} lies wholly on the passing side of {} {:.4g}", range, op, bound);
    return d;
  }
  if (fails) {
    d.verdict = Verdict::Fail;
    d.explanation = fmt::format("{} lies wholly on the failing side of {} {:.4g}", range, op, bound);
    return d;
  }
  d.verdict = Verdict::Inconclusive;
  const double gap = std::fabs(iv.estimate - bound);
  const double half = iv.estimate >= bound ? iv.estimate - iv.lo : iv.hi - iv.estimate;
  const double scale = std::fmax(std::fabs(bound), std::fabs(iv.estimate));
  const double needed = gap > 0 ? double(n) * (half / gap) * (half / gap) : INFINITY;
  if (gap <= 1e-9 * (scale > 0 ? scale : 1) || !(needed < 1e12)) {
    d.settleable = false;
    d.explanation = fmt::format("{} straddles the bound {:.4g}; cannot settle: the estimate sits on the bound",
                                range, bound);
    return d;
  }
  d.samples_needed = static_cast<std::size_t>(std::ceil(std::fmax(needed, double(n) + 1)));
  d.explanation = fmt::format(
      "{} straddles the bound {:.4g}; about {} samples per set (now {}) would likely settle it, "
      "or {:.2g}x less noise",
      range, bound, d.samples_needed, n, std::sqrt(double(d.samples_needed) / double(n ? n : 1)));
  return d;
}

}  // namespace rubric::stats
