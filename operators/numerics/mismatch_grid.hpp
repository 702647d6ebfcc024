#pragma once
// Where the mismatches of an elementwise comparison lie, counted in a coarse grid: the picture
// that shows a sharding error's shard boundaries at a glance. The tensor is viewed as rows × cols
// (its last dimension as columns, the rest flattened into rows; a 1-D tensor folded into a square).
#include <cstdint>
#include <optional>
#include <vector>

#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

struct MismatchGrid {
  std::int64_t rows = 0, cols = 0;
  std::uint32_t grid_rows = 0, grid_cols = 0;   // at most max_side each
  std::vector<std::uint64_t> mismatches;        // per cell, row-major
  std::vector<std::uint64_t> elements;          // elements per cell
};

// Counts, per cell, the elements of `a` not close to `b` under `tol`'s rtol/atol rule (NaN never
// close; equal infinities close), as compare() decides them. nullopt for an empty tensor, for
// different shapes, and for a ULP tolerance (whose distances compare() alone computes).
std::optional<MismatchGrid> mismatch_grid(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol,
                                          std::uint32_t max_side = 64);

}  // namespace rubric::numerics
