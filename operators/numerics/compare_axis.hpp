#pragma once
// Per-axis comparison: the fused pass run once per position of the kept axes, reducing over the
// named axes (numpy's `axis`, torch's `dim`). For a (tokens, hidden) pair, axis = 1 gives one
// CompareStats per token (row); axis = 0 one per channel (column).
#include <cstdint>
#include <vector>

#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

struct AxisStats {
  tensor::Shape shape;              // the kept axes, in order (the shape of a per-axis metric)
  std::vector<CompareStats> stats;  // one per kept position, C order; indices inside are flat
                                    // C-order within the reduced sub-tensor
};

// Normalises `axes` against a rank: negative axes count from the end; OperatorError for an
// axis outside [-rank, rank), a repeated axis or an empty list. Returns them sorted.
std::vector<std::size_t> normalize_axes(const std::vector<std::int64_t>& axes, std::size_t rank);

// compare() of a and b restricted to each position of the kept axes. Shapes must be equal
// (ShapeMismatchError). Runs the positions in parallel when there are enough of them, each
// position's pass in parallel otherwise; the result does not depend on the thread count.
AxisStats compare_along(const tensor::Tensor& a, const tensor::Tensor& b, const std::vector<std::int64_t>& axes,
                        const Tolerance& tol, unsigned threads = 0);

// The position that is worst under a metric: the largest value when `larger_is_worse`
// (errors), the smallest otherwise (cosine); a NaN is worse than any number. Lowest index on
// ties; -1 for an empty list.
std::int64_t worst_position(const std::vector<double>& values, bool larger_is_worse);

}  // namespace rubric::numerics
