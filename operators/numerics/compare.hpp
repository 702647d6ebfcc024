#pragma once
// The fused elementwise comparison: one pass over both tensors, on every core, filling every
// field of CompareStats at once. Half and 8-bit formats are converted block by block on the fly.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "operators/error.hpp"
#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

// Thrown by compare() when the shapes differ (no broadcasting). The binding should report it
// as the submission's failure; the message names both shapes.
struct ShapeMismatchError : OperatorError {
  using OperatorError::OperatorError;
};

// Compares `a` (the answer) with `b` (the reference), both widened to double:
//  - close(x, y) = both finite and |x − y| ≤ atol + rtol·|y|   (or, when tol.ulp > 0,
//    ulp_distance(x, y) ≤ tol.ulp), or x == y (the same infinity). NaN is never close.
//  - max_abs, max_rel, the sums and max_ulp cover pairs where both are finite; indices are
//    flat C-order and the first (lowest) index wins a tie.
//  - ULP distances are measured in a's dtype (numpy nulp_diff): b is rounded to a's dtype;
//    for integer dtypes the distance is |x − y|.
// `threads` = 0 uses every core. Throws files::FileChanged (b's file checked first) when a file
// either tensor reads shrank during the pass: its tail was read as zeros.
// With Figures::shown, the f32 pass skips what no verdict shows (see Figures).
CompareStats compare(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol, unsigned threads = 0,
                     Figures figures = Figures::all);
// The same pass without the file check, for callers that make many passes over parts of the same
// files and check them once afterwards (tensor::require_intact).
CompareStats compare_unchecked(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol,
                               unsigned threads = 0, Figures figures = Figures::all);

// What reads the tensors' files along a striped pass: after each stripe of elements is compared,
// `a` is told the file offset the pass has reached in a's file and, when the pass copied the stripe
// out of the file, where those bytes are (the last `count` before that offset; null: read them from
// the mapping) — then `b` likewise for b's file. Calls come in file order, one at a time, while the
// stripe is in the caller's cache (the provenance digest hashes it there, so each file is read once).
// `*_base` is the file offset of each tensor's first element.
struct PassFeeds {
  using Feed = std::function<void(std::size_t offset, const std::byte* bytes, std::size_t count)>;
  Feed a, b;  // empty: nothing reads along
  std::size_t a_base = 0, b_base = 0;
};
// compare() in stripes of 32,768 elements taken by whichever worker is free, merged in stripe order (the
// figures do not depend on the number of workers), the feeds called as each stripe is passed.
// Tensors that are not contiguous, and integer comparisons, are compared as compare() does and the
// feeds called once at the end. Tensors in files are read with pread() (tensor::StripeReader).
CompareStats compare_striped(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol,
                             const PassFeeds& feeds, unsigned threads = 0, Figures figures = Figures::all);

// Throws ShapeMismatchError unless a and b have equal shapes.
void require_same_shape(const tensor::Tensor& a, const tensor::Tensor& b);

}  // namespace rubric::numerics
