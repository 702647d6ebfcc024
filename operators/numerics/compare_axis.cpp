#include "operators/numerics/compare_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "operators/error.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/tensor/parallel.hpp"

namespace rubric::numerics {

std::vector<std::size_t> normalize_axes(const std::vector<std::int64_t>& axes, std::size_t rank) {
  if (axes.empty()) throw OperatorError("axis must name at least one axis");
  std::vector<std::size_t> out;
  const auto r = static_cast<std::int64_t>(rank);
  for (std::int64_t ax : axes) {
    const std::int64_t k = ax < 0 ? ax + r : ax;
    if (k < 0 || k >= r)
      throw OperatorError(fmt::format("axis {} is out of range for a tensor of rank {} (axes {}..{})", ax, rank,
                                      -r, r - 1));
    if (std::find(out.begin(), out.end(), static_cast<std::size_t>(k)) != out.end())
      throw OperatorError(fmt::format("axis {} is repeated", ax));
    out.push_back(static_cast<std::size_t>(k));
  }
  std::sort(out.begin(), out.end());
  return out;
}

AxisStats compare_along(const tensor::Tensor& a, const tensor::Tensor& b, const std::vector<std::int64_t>& axes,
                        const Tolerance& tol, unsigned threads) {
  require_same_shape(a, b);
  const auto reduced = normalize_axes(axes, a.rank());
  AxisStats out;
  tensor::Shape reduced_shape;
  std::vector<std::int64_t> kept_a, kept_b, red_a, red_b;
  for (std::size_t i = 0; i < a.rank(); ++i) {
    const bool r = std::binary_search(reduced.begin(), reduced.end(), i);
    (r ? reduced_shape : out.shape).push_back(a.shape()[i]);
    (r ? red_a : kept_a).push_back(a.byte_strides()[i]);
    (r ? red_b : kept_b).push_back(b.byte_strides()[i]);
  }
  std::int64_t positions = 1;
  for (auto d : out.shape) positions *= d;
  out.stats.resize(static_cast<std::size_t>(positions));

  // The sub-tensors at one kept position are views: same memory, the reduced axes' strides.
  auto one = [&](std::int64_t j, unsigned inner_threads) {
    std::int64_t off_a = 0, off_b = 0, rest = j;
    for (std::size_t i = out.shape.size(); i-- > 0;) {
      const std::int64_t k = rest % out.shape[i];
      rest /= out.shape[i];
      off_a += k * kept_a[i];
      off_b += k * kept_b[i];
    }
    const auto va = a.view(reduced_shape, a.data() + off_a, red_a, a.source());
    const auto vb = b.view(reduced_shape, b.data() + off_b, red_b, b.source());
    out.stats[static_cast<std::size_t>(j)] = compare(va, vb, tol, inner_threads);
  };
  const unsigned hw = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  if (positions >= static_cast<std::int64_t>(hw)) {
    // Many positions: split them among the threads, each pass single-threaded.
    const unsigned workers = std::min<unsigned>(hw, tensor::worker_count(a.size()));
    tensor::parallel_chunks(positions, workers, [&](unsigned, std::int64_t begin, std::int64_t end) {
      for (std::int64_t j = begin; j < end; ++j) one(j, 1);
    });
  } else {
    for (std::int64_t j = 0; j < positions; ++j) one(j, threads);
  }
  return out;
}

std::int64_t worst_position(const std::vector<double>& values, bool larger_is_worse) {
  std::int64_t best = -1;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (best < 0) {
      best = static_cast<std::int64_t>(i);
      continue;
    }
    const double w = values[static_cast<std::size_t>(best)];
    if (std::isnan(w)) break;  // nothing is worse than the first NaN
    if (std::isnan(v) || (larger_is_worse ? v > w : v < w)) best = static_cast<std::int64_t>(i);
  }
  return best;
}

}  // namespace rubric::numerics
