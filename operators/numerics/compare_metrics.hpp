#pragma once
// Scalar metrics derived from one CompareStats (so one fused pass serves them all).
#include "operators/numerics/compare_stats.hpp"

namespace rubric::numerics {

// Every metric below that is defined over finite pairs becomes NaN when either side holds a
// NaN (and +inf when the only trouble is an infinity facing a different value), so a broken
// answer never looks accurate. Identical infinities count as equal and are skipped.

// Greatest |a − b|.
double max_abs_err(const CompareStats& s);
// Greatest |a − b| / |b| (b = 0: 0 when a = 0, else +inf).
double max_rel_err(const CompareStats& s);
// ‖a − b‖₂ / ‖b‖₂; 0 when both norms are 0, +inf when only ‖b‖₂ is.
double rel_l2(const CompareStats& s);
// a·b / (‖a‖₂‖b‖₂); 1 when both are all zeros, 0 when exactly one is.
double cosine(const CompareStats& s);
// Fraction of elements close under the tolerance compare() was given (1 for empty tensors).
double frac_close(const CompareStats& s);
// True when every element is close: what `a matches b` decides.
inline bool all_close(const CompareStats& s) { return s.mismatches == 0; }
// The KernelBench hole: atol ≥ max|b| means an all-zero answer would pass.
bool tolerance_admits_zeros(const CompareStats& s, const Tolerance& tol);

}  // namespace rubric::numerics
