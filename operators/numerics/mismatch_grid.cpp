#include "operators/numerics/mismatch_grid.hpp"

#include <algorithm>
#include <cmath>

#include "operators/numerics/compare_integers.hpp"
#include "operators/numerics/integer_closeness.hpp"
#include "operators/tensor/element_decode.hpp"

namespace rubric::numerics {

std::optional<MismatchGrid> mismatch_grid(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol,
                                          std::uint32_t max_side) {
  if (a.size() == 0 || a.shape() != b.shape() || tol.ulp > 0 || max_side == 0) return std::nullopt;
  MismatchGrid g;
  const std::int64_t n = a.size();
  if (a.rank() >= 2) {
    g.cols = a.shape().back();
    g.rows = n / g.cols;
  } else {
    g.cols = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(n))));
    g.rows = (n + g.cols - 1) / g.cols;
  }
  g.grid_rows = static_cast<std::uint32_t>(std::min<std::int64_t>(g.rows, max_side));
  g.grid_cols = static_cast<std::uint32_t>(std::min<std::int64_t>(g.cols, max_side));
  g.mismatches.assign(std::size_t(g.grid_rows) * g.grid_cols, 0);
  g.elements.assign(g.mismatches.size(), 0);

  auto count_at = [&](std::int64_t i, bool close) {
    const std::int64_t row = i / g.cols, col = i % g.cols;
    const std::size_t cell = std::size_t(row * g.grid_rows / g.rows) * g.grid_cols + std::size_t(col * g.grid_cols / g.cols);
    ++g.elements[cell];
    if (!close) ++g.mismatches[cell];
  };
  if (needs_integer_comparison(a, b)) {
    // As compare() decides them: exactly, past 2^53 too.
    for (std::int64_t i = 0; i < n; ++i) {
      const WideInteger x = tensor::integer_element(a, i), y = tensor::integer_element(b, i);
      count_at(i, integers_close(integer_distance(x, y), integer_magnitude(y), tol.rtol, tol.atol, tol.ulp));
    }
  } else {
    constexpr std::int64_t kBlock = 4096;
    std::vector<double> x(kBlock), y(kBlock);
    for (std::int64_t start = 0; start < n; start += kBlock) {
      const std::int64_t count = std::min(kBlock, n - start);
      tensor::decode_block(a, start, count, x.data());
      tensor::decode_block(b, start, count, y.data());
      for (std::int64_t k = 0; k < count; ++k) {
        const bool finite = std::isfinite(x[k]) && std::isfinite(y[k]);
        count_at(start + k, (finite && std::fabs(x[k] - y[k]) <= tol.atol + tol.rtol * std::fabs(y[k])) || x[k] == y[k]);
      }
    }
  }
  tensor::require_intact(a, b);
  return g;
}

}  // namespace rubric::numerics
