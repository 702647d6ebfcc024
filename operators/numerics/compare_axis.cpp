#include "operators/numerics/compare_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

#include "operators/error.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/tensor/parallel.hpp"

namespace rubric::numerics {
namespace {

// One element's bytes; the fixed sizes let the compiler emit a single move.
inline void copy_item(std::byte* dst, const std::byte* src, std::size_t n) {
  switch (n) {
    case 1: *dst = *src; break;
    case 2: std::memcpy(dst, src, 2); break;
    case 4: std::memcpy(dst, src, 4); break;
    default: std::memcpy(dst, src, 8); break;
  }
}

}  // namespace

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
    out.stats[static_cast<std::size_t>(j)] = compare_unchecked(va, vb, tol, inner_threads);
  };
  // A reduced sub-tensor that is strided (a column, say) would be read one element per cache
  // line; such positions are gathered a tile at a time, row by row, into a bounded scratch in
  // their own dtype and byte order, and compared there contiguously.
  std::int64_t sub_size = 1;
  for (auto d : reduced_shape) sub_size *= d;
  const std::size_t ia = a.itemsize(), ib = b.itemsize();
  const bool strided = positions > 0 && (!a.view(reduced_shape, a.data(), red_a, a.source()).is_contiguous() ||
                                         !b.view(reduced_shape, b.data(), red_b, b.source()).is_contiguous());
  constexpr std::int64_t kScratchBytes = std::int64_t{4} << 20;
  const std::int64_t per_position = sub_size * static_cast<std::int64_t>(std::max(ia, ib));
  const bool gather = strided && sub_size > 0 && per_position <= kScratchBytes;
  const std::int64_t tile = gather ? std::max<std::int64_t>(1, kScratchBytes / per_position) : 1;

  auto offsets = [&](std::int64_t j, std::int64_t& off_a, std::int64_t& off_b) {
    off_a = off_b = 0;
    for (std::size_t i = out.shape.size(); i-- > 0;) {
      const std::int64_t k = j % out.shape[i];
      j /= out.shape[i];
      off_a += k * kept_a[i];
      off_b += k * kept_b[i];
    }
  };
  auto run = [&](std::int64_t begin, std::int64_t end, unsigned inner_threads) {
    if (!gather) {
      for (std::int64_t j = begin; j < end; ++j) one(j, inner_threads);
      return;
    }
    const std::int64_t k_max = std::min(tile, end - begin);
    std::vector<std::byte> sa(static_cast<std::size_t>(k_max * sub_size) * ia), sb(static_cast<std::size_t>(k_max * sub_size) * ib);
    std::vector<std::int64_t> oa(static_cast<std::size_t>(k_max)), ob(static_cast<std::size_t>(k_max));
    const auto sa_strides = tensor::c_order_strides(reduced_shape, ia), sb_strides = tensor::c_order_strides(reduced_shape, ib);
    for (std::int64_t j0 = begin; j0 < end; j0 += k_max) {
      const std::int64_t kn = std::min(k_max, end - j0);
      for (std::int64_t k = 0; k < kn; ++k) offsets(j0 + k, oa[static_cast<std::size_t>(k)], ob[static_cast<std::size_t>(k)]);
      // Blocks of 64 reduced elements: their source rows stay in L1 while every position of the
      // tile takes its 64 consecutive scratch slots (a cache-blocked transpose).
      constexpr std::int64_t kBlock = 64;
      std::vector<std::int64_t> idx(reduced_shape.size(), 0);
      std::int64_t ra = 0, rb = 0, blk_a[kBlock], blk_b[kBlock];
      for (std::int64_t e0 = 0; e0 < sub_size; e0 += kBlock) {
        const std::int64_t en = std::min(kBlock, sub_size - e0);
        for (std::int64_t e = 0; e < en; ++e) {
          blk_a[e] = ra;
          blk_b[e] = rb;
          for (std::size_t i = reduced_shape.size(); i-- > 0;) {  // odometer over the reduced axes
            ra += red_a[i];
            rb += red_b[i];
            if (++idx[i] < reduced_shape[i]) break;
            ra -= reduced_shape[i] * red_a[i];
            rb -= reduced_shape[i] * red_b[i];
            idx[i] = 0;
          }
        }
        for (std::int64_t k = 0; k < kn; ++k) {
          std::byte* da = sa.data() + static_cast<std::size_t>(k * sub_size + e0) * ia;
          std::byte* db = sb.data() + static_cast<std::size_t>(k * sub_size + e0) * ib;
          const std::byte* pa = a.data() + oa[static_cast<std::size_t>(k)];
          const std::byte* pb = b.data() + ob[static_cast<std::size_t>(k)];
          for (std::int64_t e = 0; e < en; ++e) {
            copy_item(da + static_cast<std::size_t>(e) * ia, pa + blk_a[e], ia);
            copy_item(db + static_cast<std::size_t>(e) * ib, pb + blk_b[e], ib);
          }
        }
      }
      for (std::int64_t k = 0; k < kn; ++k) {
        const auto va = a.view(reduced_shape, sa.data() + static_cast<std::size_t>(k * sub_size) * ia, sa_strides, a.source());
        const auto vb = b.view(reduced_shape, sb.data() + static_cast<std::size_t>(k * sub_size) * ib, sb_strides, b.source());
        out.stats[static_cast<std::size_t>(j0 + k)] = compare_unchecked(va, vb, tol, inner_threads);
      }
    }
  };
  const unsigned hw = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  if (positions >= static_cast<std::int64_t>(hw)) {
    // Many positions: split them among the threads, each pass single-threaded.
    const unsigned workers = std::min<unsigned>(hw, tensor::worker_count(a.size()));
    tensor::parallel_chunks(positions, workers, [&](unsigned, std::int64_t begin, std::int64_t end) { run(begin, end, 1); });
  } else {
    run(0, positions, threads);
  }
  tensor::require_intact(a, b);  // once for every position's pass
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
