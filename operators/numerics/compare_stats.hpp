#pragma once
// Everything the evidence of an elementwise comparison needs, filled by one fused pass
// (on the CPU by numerics/, on the device by cuda/). Indices are flat, row-major (C order).
#include <cstdint>

#include "operators/tensor/wide_integer.hpp"

namespace rubric::numerics {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
  // When > 0: closeness is "at most ulp units in the last place" and rtol/atol are ignored.
  std::int64_t ulp = 0;
};

// Which figures a pass must fill: `all`, or only those a verdict and its evidence show (no norm
// sums, and ULP distances only under a ULP tolerance), which `matches` and `frac_close` need.
enum class Figures { all, shown };

struct CompareStats {
  std::int64_t count = 0;        // elements compared
  std::int64_t mismatches = 0;   // elements not close under the tolerance
  double max_abs = 0;            // greatest |a - b| over finite pairs
  std::int64_t max_abs_index = -1;
  double max_rel = 0;            // greatest |a - b| / |b| over finite pairs (b == 0 → inf unless a == 0)
  std::int64_t max_rel_index = -1;
  std::int64_t first_mismatch_index = -1;
  std::int64_t nan_a = 0, nan_b = 0;
  std::int64_t inf_a = 0, inf_b = 0;
  double sum_sq_diff = 0;        // Σ (a - b)^2 over finite pairs
  double sum_sq_a = 0, sum_sq_b = 0, dot_ab = 0;
  double max_abs_b = 0;          // max |b| over finite b (the zeros-pass hole check)
  std::uint64_t max_ulp = 0;     // greatest ULP distance in a's dtype over finite pairs (integers:
                                 // max_abs_integer, saturated at 2^64 − 1)
  // Pairs where a side is NaN or infinite and the two are not the same infinity: these make
  // the norm-based metrics (rel_l2, cosine, max_abs_err) undefined (NaN), as in numpy.
  std::int64_t unequal_nonfinite = 0;
  // Two integer tensors, one of them i64 or u64, compared as integers (compare_integers.hpp): the
  // greatest difference exactly, which max_abs may round past 2^53 (an i64 beside a u64 differs
  // by up to 2^64 + 2^63 − 1, past 64 bits).
  bool integers = false;
  // False when the pass filled only the shown figures (Figures::shown): the norm sums are then
  // not measured and must not be read.
  bool sums = true;
  tensor::WideUnsigned max_abs_integer = 0;
};

}  // namespace rubric::numerics
