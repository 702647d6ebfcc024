#include "operators/numerics/compare.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fmt/format.h>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "operators/numerics/compare_integers.hpp"
#include "operators/numerics/multiversion.hpp"
#include "operators/numerics/neumaier_sum.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/index_format.hpp"
#include "operators/tensor/minifloat.hpp"
#include "operators/tensor/parallel.hpp"
#include "operators/tensor/stripe_reader.hpp"

namespace rubric::numerics {
namespace {

using tensor::DType;
constexpr std::int64_t kBlock = 1024;  // two blocks of doubles stay in L1
// A striped pass's unit: a worker compares one stripe of both tensors, then hashes it while it is
// still in cache (128 KiB of each f32 tensor: a worker's held stripes, 1 MiB, fit its L2, so the
// copy out of the page cache is not written back to memory before it is read).
constexpr std::int64_t kStripe = 32 * kBlock;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Settings {
  double rtol, atol;
  std::uint64_t ulp;  // 0: rtol/atol rule
  bool sums = true;   // false: the f32 fast path may skip the norm sums (Figures::shown)
};

Settings settings_for(const Tolerance& tol, Figures figures) {
  return {tol.rtol, tol.atol, static_cast<std::uint64_t>(tol.ulp), figures == Figures::all};
}

inline bool is_close(double x, double y, double ulp, const Settings& s) {
  const bool both_finite = std::fabs(x) < kInf && std::fabs(y) < kInf;
  const bool near = s.ulp > 0 ? ulp <= static_cast<double>(s.ulp) : std::fabs(x - y) <= s.atol + s.rtol * std::fabs(y);
  return (both_finite && near) || x == y;
}

// Signed position of v, rounded to nearest even into a narrow float format (kManBits, kEmin),
// in that format's monotonic integer order: magnitude ordinal = ((E − emin) << m) + q, E being
// max(exponent, emin) and q the rounded significand. It equals the encoded bits' sign-magnitude
// order (tested against the encoders) but is plain integer and double arithmetic, so the loop
// vectorizes. Magnitudes past the largest finite value clamp to kMaxOrdinal (inf, or 448 for
// e4m3, which saturates).
template <int kManBits, int kEmin, int kMaxOrdinal>
inline std::int64_t narrow_ordinal(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, 8);
  const std::int64_t e = static_cast<std::int64_t>((bits >> 52) & 0x7ff) - 1023;
  const std::int64_t big_e = e > kEmin ? e : kEmin;
  const std::uint64_t scale_bits = static_cast<std::uint64_t>(1023 - (big_e - kManBits)) << 52;  // 2^-(E-m)
  double scale;
  std::memcpy(&scale, &scale_bits, 8);
  const double shifted = std::fabs(v) * scale + 0x1p52;  // adding 2^52 rounds to nearest even
  std::uint64_t q;
  std::memcpy(&q, &shifted, 8);
  q &= (std::uint64_t{1} << 52) - 1;  // the rounded significand, as an integer
  std::int64_t magnitude = ((big_e - kEmin) << kManBits) + static_cast<std::int64_t>(q);
  magnitude = magnitude < kMaxOrdinal ? magnitude : kMaxOrdinal;
  const auto sign = static_cast<std::int64_t>(bits >> 63);
  return (magnitude ^ -sign) + sign;
}

// A small non-negative integer (< 2^52) as double without an int→float instruction (AVX2 has none).
inline double small_integer_to_double(std::int64_t v) {
  const std::uint64_t bits = static_cast<std::uint64_t>(v) | 0x4330000000000000ull;  // 2^52 + v
  double d;
  std::memcpy(&d, &bits, 8);
  return d - 0x1p52;
}

template <int kManBits, int kEmin, int kMaxOrdinal>
RUBRIC_MULTIVERSION
void narrow_ulp_block(const double* x, const double* y, std::int64_t n, double* out) {
#pragma omp simd
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t d = narrow_ordinal<kManBits, kEmin, kMaxOrdinal>(x[k]) - narrow_ordinal<kManBits, kEmin, kMaxOrdinal>(y[k]);
    out[k] = small_integer_to_double(d < 0 ? -d : d);
  }
}

// ULP distance in a's dtype for each pair of the block, as double (exact below 2^53, which
// covers every format but f64). For f64 it also returns the exact greatest distance over finite
// pairs; for the other formats block_totals' maximum of `out` is already exact. `limit` is the
// ULP tolerance (0: none): an f64 distance past it that rounds down onto it as a double is
// stored just above it, so `out[k] <= limit` decides exactly what `u <= limit` does.
RUBRIC_MULTIVERSION
std::optional<std::uint64_t> ulp_block(DType dtype, const double* x, const double* y, std::int64_t n, double* out,
                                       std::uint64_t limit) {
  switch (dtype) {
    case DType::f64: {
      std::uint64_t exact_max = 0;
      const double limit_double = static_cast<double>(limit);
      const double above_limit = std::nextafter(limit_double, kInf);
      for (std::int64_t k = 0; k < n; ++k) {
        std::uint64_t bx, by;
        std::memcpy(&bx, &x[k], 8);
        std::memcpy(&by, &y[k], 8);
        const std::uint64_t u = tensor::ulp_distance_bits(bx, by, 63);
        out[k] = static_cast<double>(u);
        if (limit > 0 && u > limit && out[k] <= limit_double) out[k] = above_limit;
        if (std::fabs(x[k]) < kInf && std::fabs(y[k]) < kInf && u > exact_max) exact_max = u;
      }
      return exact_max;
    }
    case DType::f32:
#pragma omp simd
      for (std::int64_t k = 0; k < n; ++k) {
        const float fx = static_cast<float>(x[k]), fy = static_cast<float>(y[k]);
        std::uint32_t bx, by;
        std::memcpy(&bx, &fx, 4);
        std::memcpy(&by, &fy, 4);
        // Sign-magnitude → monotonic integer order (numpy's integer_repr), branch-free:
        // negate the magnitude when the sign bit is set.
        const std::uint32_t sx = bx >> 31, sy = by >> 31;
        const auto ix = static_cast<std::int32_t>(((bx & 0x7fffffffu) ^ (0u - sx)) + sx);
        const auto iy = static_cast<std::int32_t>(((by & 0x7fffffffu) ^ (0u - sy)) + sy);
        const double ox = ix, oy = iy;
        out[k] = std::fabs(ox - oy);
      }
      break;
    case DType::f16: narrow_ulp_block<10, -14, 0x7c00>(x, y, n, out); break;
    case DType::bf16: narrow_ulp_block<7, -126, 0x7f80>(x, y, n, out); break;
    case DType::f8e4m3: narrow_ulp_block<3, -6, 0x7e>(x, y, n, out); break;  // saturating: no inf
    case DType::f8e5m2: narrow_ulp_block<2, -14, 0x7c>(x, y, n, out); break;
    default:  // integers and bool: the distance between the integer values
#pragma omp simd
      for (std::int64_t k = 0; k < n; ++k) out[k] = std::fabs(x[k] - y[k]);
      break;
  }
  return std::nullopt;
}

struct BlockTotals {
  std::int64_t mismatches = 0, nan_a = 0, nan_b = 0, inf_a = 0, inf_b = 0, unequal_nonfinite = 0;
  double sum_sq_diff = 0, sum_sq_a = 0, sum_sq_b = 0, dot_ab = 0;
  double max_abs = -1, max_rel = -1, max_abs_b = 0, max_ulp = 0;
};

// The exact rules, element by element: used for blocks that hold a NaN or an infinity (rare).
template <bool kUlp>
BlockTotals block_totals_careful(const double* x, const double* y, const double* ulp, std::int64_t n, Settings s) {
  BlockTotals t;
  for (std::int64_t k = 0; k < n; ++k) {
    const double xv = x[k], yv = y[k], ax = std::fabs(xv), ay = std::fabs(yv);
    const bool fx = ax < kInf, fy = ay < kInf, both = fx && fy;
    t.mismatches += !is_close(xv, yv, ulp[k], s);
    t.nan_a += std::isnan(xv);
    t.nan_b += std::isnan(yv);
    t.inf_a += std::isinf(xv);
    t.inf_b += std::isinf(yv);
    t.unequal_nonfinite += !both && !(xv == yv);
    if (fy && ay > t.max_abs_b) t.max_abs_b = ay;
    if (!both) continue;
    const double d = xv - yv, ad = std::fabs(d);
    t.sum_sq_diff += d * d;
    t.sum_sq_a += xv * xv;
    t.sum_sq_b += yv * yv;
    t.dot_ab += xv * yv;
    if (ad > t.max_abs) t.max_abs = ad;
    const double rel = ad == 0 ? 0.0 : ad / ay;
    if (rel > t.max_rel) t.max_rel = rel;
    if (ulp[k] > t.max_ulp) t.max_ulp = ulp[k];
  }
  return t;
}

// The fast path assumes every pair is finite, which makes it branch- and select-free so the
// compiler vectorizes all reductions at once. A NaN or infinity anywhere in the block makes
// the sums of squares non-finite; the block is then redone by block_totals_careful.
template <bool kUlp>
RUBRIC_MULTIVERSION
BlockTotals block_totals(const double* x, const double* y, const double* ulp, std::int64_t n, Settings s) {
  double mism = 0;  // counts in doubles (exact: 1024 per block) so they stay in vector lanes
  double sdd = 0, saa = 0, sbb = 0, sab = 0, max_abs = -1, max_rel = -1, max_b = 0, max_ulp = 0;
  const double rtol = s.rtol, atol = s.atol, ulp_limit = static_cast<double>(s.ulp);
#pragma omp simd reduction(+ : mism, sdd, saa, sbb, sab) reduction(max : max_abs, max_rel, max_b, max_ulp)
  for (std::int64_t k = 0; k < n; ++k) {
    const double xv = x[k], yv = y[k];
    const double d = xv - yv, ad = std::fabs(d), ay = std::fabs(yv);
    bool near;
    if constexpr (kUlp) near = ulp[k] <= ulp_limit;
    else near = ad <= atol + rtol * ay;
    mism += near ? 0.0 : 1.0;
    sdd += d * d;
    saa += xv * xv;
    sbb += yv * yv;
    sab += xv * yv;
    max_abs = ad > max_abs ? ad : max_abs;
    const double rel = ad / ay;  // 0/0 is NaN and never wins the max: same as rel = 0
    max_rel = rel > max_rel ? rel : max_rel;
    max_b = ay > max_b ? ay : max_b;
    max_ulp = ulp[k] > max_ulp ? ulp[k] : max_ulp;
  }
  if (!(std::fabs(saa) < kInf && std::fabs(sbb) < kInf && std::fabs(sdd) < kInf)) {
    return block_totals_careful<kUlp>(x, y, ulp, n, s);
  }
  BlockTotals t;
  t.mismatches = static_cast<std::int64_t>(mism);
  t.sum_sq_diff = sdd;
  t.sum_sq_a = saa;
  t.sum_sq_b = sbb;
  t.dot_ab = sab;
  t.max_abs = max_abs;
  t.max_rel = max_rel < 0 && n > 0 ? 0.0 : max_rel;
  t.max_abs_b = max_b;
  t.max_ulp = max_ulp;
  return t;
}

// The greatest |x − y| / |y| of an f32 block as block_totals finds it (a 0/0 never wins; 0 when
// nothing else does): the division, kept out of block_totals_f32's loop, for the blocks that may
// hold a new greatest relative difference.
RUBRIC_MULTIVERSION
double block_max_rel_f32(const float* x, const float* y, std::int64_t n) {
  double max_rel = -1;
#pragma omp simd reduction(max : max_rel)
  for (std::int64_t k = 0; k < n; ++k) {
    const double xv = x[k], yv = y[k];
    const double rel = std::fabs(xv - yv) / std::fabs(yv);
    max_rel = rel > max_rel ? rel : max_rel;
  }
  return max_rel < 0 && n > 0 ? 0.0 : max_rel;
}

// The same fast path reading two contiguous f32 arrays directly: no decode pass, ULPs from the
// float bits. Returns false (and leaves `out` alone) when the block holds a NaN or infinity.
// A division per element would cost as much as the rest of the loop, so the greatest relative
// difference is only found (by block_max_rel_f32) when some element may exceed `rel_floor`, the
// greatest one already found (negative: none yet); otherwise out.max_rel is -1.
// Without kSums (Figures::shown under an rtol/atol rule) the norm sums and ULPs are skipped, about
// half the work per element, and a NaN or infinity is told by its exponent bits instead.
template <bool kUlp, bool kSums = true>
RUBRIC_MULTIVERSION
bool block_totals_f32(const float* x, const float* y, std::int64_t n, Settings s, double rel_floor, BlockTotals& out) {
  static_assert(kSums || !kUlp, "a ULP rule needs the ULP distances");
  double mism = 0, above = 0;
  double sdd = 0, saa = 0, sbb = 0, sab = 0, max_abs = -1, max_b = 0;
  std::uint32_t max_ulp = 0, exponents = 0;
  const double rtol = s.rtol, atol = s.atol;
  const std::uint32_t ulp_limit = static_cast<std::uint32_t>(std::min<std::uint64_t>(s.ulp, 0xffffffffu));
  // |x − y| / |y| > M implies |x − y| − M·|y| > 0 exactly; shrinking M by 2^-50 keeps the rounded
  // difference positive then (no underflow: a nonzero f32 ratio is at least 2^-277), so no element
  // above M is missed; a few at M may be looked at again. M = 0 tests |x − y| > 0, exact.
  const double floor_scaled = rel_floor > 0 ? rel_floor * (1 - 0x1p-50) : rel_floor;
#pragma omp simd reduction(+ : mism, sdd, saa, sbb, sab) reduction(max : max_abs, above, max_b, max_ulp, exponents)
  for (std::int64_t k = 0; k < n; ++k) {
    const float fx = x[k], fy = y[k];
    std::uint32_t bx, by;
    std::memcpy(&bx, &fx, 4);
    std::memcpy(&by, &fy, 4);
    const double xv = fx, yv = fy;
    const double d = xv - yv, ad = std::fabs(d), ay = std::fabs(yv);
    bool near = ad <= atol + rtol * ay;
    if constexpr (kSums) {
      // ULP distance on 32-bit lanes: the monotonic orders are 32-bit, their distance below 2^32.
      // Sign-magnitude → monotonic order: the magnitude, negated (m = all ones) when the sign is set.
      const std::uint32_t mx = 0u - (bx >> 31), my = 0u - (by >> 31);
      const auto ox = static_cast<std::int32_t>(((bx & 0x7fffffffu) ^ mx) - mx);
      const auto oy = static_cast<std::int32_t>(((by & 0x7fffffffu) ^ my) - my);
      const std::uint32_t apart = static_cast<std::uint32_t>(ox) - static_cast<std::uint32_t>(oy);  // mod 2^32
      const std::uint32_t ulp = ox < oy ? 0u - apart : apart;
      if constexpr (kUlp) near = ulp <= ulp_limit;
      sdd += d * d;
      saa += xv * xv;
      sbb += yv * yv;
      sab += xv * yv;
      max_ulp = ulp > max_ulp ? ulp : max_ulp;
    } else {
      const std::uint32_t ex = bx & 0x7f800000u, ey = by & 0x7f800000u;
      const std::uint32_t e = ex > ey ? ex : ey;
      exponents = e > exponents ? e : exponents;
    }
    mism += near ? 0.0 : 1.0;
    max_abs = ad > max_abs ? ad : max_abs;
    const double margin = ad - floor_scaled * ay;
    above = margin > above ? margin : above;
    max_b = ay > max_b ? ay : max_b;
  }
  if constexpr (kSums) {
    if (!(std::fabs(saa) < kInf && std::fabs(sbb) < kInf && std::fabs(sdd) < kInf)) return false;
  } else if (exponents == 0x7f800000u) {
    return false;  // a NaN or an infinity
  }
  out = BlockTotals{};
  out.mismatches = static_cast<std::int64_t>(mism);
  out.sum_sq_diff = sdd;
  out.sum_sq_a = saa;
  out.sum_sq_b = sbb;
  out.dot_ab = sab;
  out.max_abs = max_abs;
  out.max_rel = rel_floor < 0 || above > 0 ? block_max_rel_f32(x, y, n) : -1;
  out.max_abs_b = max_b;
  out.max_ulp = max_ulp;
  return true;
}

// One side of a chunk: the tensor, and where the chunk's first element lies in memory when its
// elements are there densely in this machine's byte order (a contiguous tensor, or a copy of the
// chunk); null: each block is decoded from the tensor, whatever its layout.
struct ChunkSide {
  const tensor::Tensor& t;
  const std::byte* bytes;
};

ChunkSide in_place(const tensor::Tensor& t, std::int64_t begin) {
  return {t, t.is_contiguous() ? t.data() + begin * static_cast<std::int64_t>(t.itemsize()) : nullptr};
}

bool is_aligned_f32(const ChunkSide& side) {
  return side.t.dtype() == DType::f32 && side.bytes && reinterpret_cast<std::uintptr_t>(side.bytes) % alignof(float) == 0;
}

struct ChunkResult {
  std::int64_t count = 0, mismatches = 0, nan_a = 0, nan_b = 0, inf_a = 0, inf_b = 0, unequal_nonfinite = 0;
  double max_abs = -1, max_rel = -1, max_abs_b = 0;
  std::int64_t max_abs_index = -1, max_rel_index = -1, first_mismatch_index = -1;
  NeumaierSum sum_sq_diff, sum_sq_a, sum_sq_b, dot_ab;
  std::uint64_t max_ulp = 0;
};

double relative_difference(double x, double y) {
  const double ad = std::fabs(x - y), ay = std::fabs(y);
  return ay > 0 ? ad / ay : (ad > 0 ? kInf : 0);
}

bool both_finite(double x, double y) { return std::fabs(x) < kInf && std::fabs(y) < kInf; }

// What a worker found in the parts it compared before this one, at lower indices (a striped
// pass's earlier stripes). The merge keeps the lowest index of a tie, so a maximum that does not
// exceed these, or a mismatch after one, cannot be the result's: its index is never searched.
struct FoundBefore {
  double max_abs = -1, max_rel = -1;
  bool mismatch = false;
};

// The figures of elements [begin, end). Maxima not above `before`'s are left at `before`'s values
// with no index.
ChunkResult compare_chunk(const ChunkSide& a, const ChunkSide& b, std::int64_t begin, std::int64_t end,
                          const Settings& s, const FoundBefore& before = {}) {
  ChunkResult r;
  r.max_abs = before.max_abs;
  r.max_rel = before.max_rel;
  std::vector<double> x(kBlock), y(kBlock);
  std::vector<double> ulp(kBlock);
  const bool f32_pair = is_aligned_f32(a) && is_aligned_f32(b);
  // The f32 fast path reads the chunk's elements where they lie: element `start` is at [start - begin].
  const auto* fa = reinterpret_cast<const float*>(a.bytes);
  const auto* fb = reinterpret_cast<const float*>(b.bytes);
  // The blocks holding the chunk's greatest differences and its first mismatch (-1: none); their
  // indices are searched once, after the pass.
  std::int64_t max_abs_block = -1, max_rel_block = -1, mismatch_block = -1;
  std::int64_t decoded_start = -1;
  std::optional<std::uint64_t> exact_max_ulp;
  // Widened copies of a block, made only when the generic path or an index search needs them.
  auto decode = [&](std::int64_t start) {
    if (decoded_start == start) return;
    const std::int64_t n = std::min(kBlock, end - start);
    auto widen = [&](const ChunkSide& side, double* out) {
      if (side.bytes) {
        tensor::decode_contiguous(side.t.dtype(), side.bytes + (start - begin) * static_cast<std::int64_t>(side.t.itemsize()), n, out);
      } else {
        tensor::decode_block(side.t, start, n, out);
      }
    };
    widen(a, x.data());
    widen(b, y.data());
    exact_max_ulp = ulp_block(a.t.dtype(), x.data(), y.data(), n, ulp.data(), s.ulp);
    decoded_start = start;
  };
  for (std::int64_t start = begin; start < end; start += kBlock) {
    const std::int64_t n = std::min(kBlock, end - start);
    BlockTotals t;
    exact_max_ulp.reset();
    const std::int64_t at = start - begin;
    const bool fast = f32_pair && (s.ulp > 0  ? block_totals_f32<true>(fa + at, fb + at, n, s, r.max_rel, t)
                                   : s.sums ? block_totals_f32<false>(fa + at, fb + at, n, s, r.max_rel, t)
                                            : block_totals_f32<false, false>(fa + at, fb + at, n, s, r.max_rel, t));
    if (!fast) {
      decode(start);
      t = s.ulp > 0 ? block_totals<true>(x.data(), y.data(), ulp.data(), n, s)
                    : block_totals<false>(x.data(), y.data(), ulp.data(), n, s);
    }
    // An integer answer against a float reference can be 2^64 or more apart: saturated, as the
    // device does (a double past 2^64 has no uint64).
    const std::uint64_t block_max_ulp = exact_max_ulp.value_or(
        t.max_ulp >= 0x1p64 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(t.max_ulp));
    r.count += n;
    r.nan_a += t.nan_a;
    r.nan_b += t.nan_b;
    r.inf_a += t.inf_a;
    r.inf_b += t.inf_b;
    r.unequal_nonfinite += t.unequal_nonfinite;
    r.sum_sq_diff.add(t.sum_sq_diff);
    r.sum_sq_a.add(t.sum_sq_a);
    r.sum_sq_b.add(t.sum_sq_b);
    r.dot_ab.add(t.dot_ab);
    if (t.max_abs_b > r.max_abs_b) r.max_abs_b = t.max_abs_b;
    if (block_max_ulp > r.max_ulp) r.max_ulp = block_max_ulp;
    if (t.max_abs > r.max_abs) {
      r.max_abs = t.max_abs;
      max_abs_block = start;
    }
    if (t.max_rel > r.max_rel) {
      r.max_rel = t.max_rel;
      max_rel_block = start;
    }
    if (t.mismatches > 0 && mismatch_block < 0 && !before.mismatch) mismatch_block = start;
    r.mismatches += t.mismatches;
  }
  // The first index in the block at `start` where `hit(x, y, ulp)` holds, or -1.
  auto first_in_block = [&](std::int64_t start, auto hit) -> std::int64_t {
    if (start < 0) return -1;
    decode(start);
    const std::int64_t n = std::min(kBlock, end - start);
    for (std::int64_t k = 0; k < n; ++k) {
      if (hit(x[k], y[k], ulp[k])) return start + k;
    }
    return -1;
  };
  r.max_abs_index = first_in_block(max_abs_block, [&](double xv, double yv, double) {
    return both_finite(xv, yv) && std::fabs(xv - yv) == r.max_abs;
  });
  r.max_rel_index = first_in_block(max_rel_block, [&](double xv, double yv, double) {
    return both_finite(xv, yv) && relative_difference(xv, yv) == r.max_rel;
  });
  r.first_mismatch_index = first_in_block(mismatch_block, [&](double xv, double yv, double u) {
    return !is_close(xv, yv, u, s);
  });
  return r;
}

// Merges results in order (chunks or stripes, by position) so ties keep the lowest index.
CompareStats merge_parts(const std::vector<ChunkResult>& parts) {
  CompareStats out;
  NeumaierSum sdd, saa, sbb, sab;
  double max_abs = -1, max_rel = -1;
  for (const ChunkResult& p : parts) {
    out.count += p.count;
    out.mismatches += p.mismatches;
    out.nan_a += p.nan_a;
    out.nan_b += p.nan_b;
    out.inf_a += p.inf_a;
    out.inf_b += p.inf_b;
    out.unequal_nonfinite += p.unequal_nonfinite;
    sdd.add(p.sum_sq_diff);
    saa.add(p.sum_sq_a);
    sbb.add(p.sum_sq_b);
    sab.add(p.dot_ab);
    if (p.max_abs > max_abs) {
      max_abs = p.max_abs;
      out.max_abs_index = p.max_abs_index;
    }
    if (p.max_rel > max_rel) {
      max_rel = p.max_rel;
      out.max_rel_index = p.max_rel_index;
    }
    if (out.first_mismatch_index < 0) out.first_mismatch_index = p.first_mismatch_index;
    if (p.max_abs_b > out.max_abs_b) out.max_abs_b = p.max_abs_b;
    if (p.max_ulp > out.max_ulp) out.max_ulp = p.max_ulp;
  }
  out.max_abs = max_abs < 0 ? 0 : max_abs;
  out.max_rel = max_rel < 0 ? 0 : max_rel;
  out.sum_sq_diff = sdd.value();
  out.sum_sq_a = saa.value();
  out.sum_sq_b = sbb.value();
  out.dot_ab = sab.value();
  return out;
}

// A pass asked for the shown figures only: its sums are not to be read, whichever path it took.
CompareStats with_figures(CompareStats stats, Figures figures) {
  if (figures == Figures::shown) stats.sums = false;
  return stats;
}

}  // namespace

void require_same_shape(const tensor::Tensor& a, const tensor::Tensor& b) {
  if (a.shape() != b.shape()) {
    throw ShapeMismatchError(fmt::format("shapes differ: {} in {} vs {} in {} (no broadcasting)",
                                         tensor::format_shape(a.shape()), a.source(),
                                         tensor::format_shape(b.shape()), b.source()));
  }
}

CompareStats compare(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol, unsigned threads,
                     Figures figures) {
  CompareStats out = compare_unchecked(a, b, tol, threads, figures);
  tensor::require_intact(a, b);
  return out;
}

namespace {

// The feeds' turn, passed from stripe to stripe in file order whichever worker compared each.
class FeedTurn {
 public:
  bool is(std::int64_t stripe) {
    std::lock_guard<std::mutex> lock(mutex_);
    return next_ == stripe;
  }
  void wait_for(std::int64_t stripe) {
    std::unique_lock<std::mutex> lock(mutex_);
    turn_.wait(lock, [&] { return next_ == stripe; });
  }
  void pass(std::int64_t stripe) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      next_ = stripe + 1;
    }
    turn_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable turn_;
  std::int64_t next_ = 0;
};

bool stripes_fit(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol) {
  return a.is_contiguous() && b.is_contiguous() && is_tolerance_bound(tol.rtol) && is_tolerance_bound(tol.atol) &&
         tol.ulp >= 0 && !needs_integer_comparison(a, b);
}

// Stripes of kStripe elements, each taken by whichever worker is free; a worker reads its stripes of
// both tensors (tensor::StripeReader: out of the files with pread(), into buffers of its own),
// compares them and feeds them, in file order, to `feeds` while they are in its cache. A worker holds
// up to kHeld stripes whose turn to be fed has not come before it waits for the other workers.
// Results merge in stripe order.
CompareStats striped_pass(const tensor::Tensor& a, const tensor::Tensor& b, const Settings& s, const PassFeeds& feeds,
                          unsigned threads) {
  constexpr int kHeld = 4;
  const std::int64_t n = a.size();
  const std::int64_t stripes = (n + kStripe - 1) / kStripe;
  const unsigned workers = static_cast<unsigned>(
      std::min<std::int64_t>(threads > 0 ? threads : tensor::worker_count(n), std::max<std::int64_t>(1, stripes)));
  const bool fed = feeds.a || feeds.b;
  std::vector<ChunkResult> parts(static_cast<std::size_t>(stripes));
  FeedTurn turn;
  std::atomic<std::int64_t> next_stripe{0};  // taken in order by whichever worker is free
  tensor::parallel_chunks(workers, workers, [&](unsigned, std::int64_t, std::int64_t) {
    tensor::StripeReader read_a(a, kStripe, kHeld), read_b(b, kStripe, kHeld);
    struct Held {
      std::int64_t stripe;
      const std::byte *a, *b;
    };
    std::deque<Held> held;  // compared, not yet fed, in stripe order
    auto feed = [&](const Held& h) {
      const std::int64_t begin = h.stripe * kStripe, end = std::min(n, begin + kStripe);
      auto tell = [&](const PassFeeds::Feed& to, std::size_t base, const tensor::Tensor& t,
                      const tensor::StripeReader& reader, const std::byte* bytes) {
        if (!to) return;
        to(base + static_cast<std::size_t>(end) * t.itemsize(), reader.copies() ? bytes : nullptr,
           static_cast<std::size_t>(end - begin) * t.itemsize());
      };
      tell(feeds.a, feeds.a_base, a, read_a, h.a);
      tell(feeds.b, feeds.b_base, b, read_b, h.b);
      turn.pass(h.stripe);
    };
    // Feeds the held stripes whose turn has come; with `wait`, waits for the oldest's turn first.
    auto feed_ready = [&](bool wait) {
      if (wait && !held.empty()) turn.wait_for(held.front().stripe);
      while (!held.empty() && turn.is(held.front().stripe)) {
        feed(held.front());
        held.pop_front();
      }
    };
    FoundBefore found;
    int slot = 0;
    for (std::int64_t j = next_stripe++; j < stripes; j = next_stripe++) {
      if (fed && held.size() == kHeld) feed_ready(true);  // every slot holds a stripe not fed yet
      const std::int64_t begin = j * kStripe, end = std::min(n, begin + kStripe);
      const std::byte* in_a = read_a.read(begin, end, slot);
      const std::byte* in_b = read_b.read(begin, end, slot);
      slot = (slot + 1) % kHeld;
      const ChunkResult& part = parts[static_cast<std::size_t>(j)] =
          compare_chunk({a, in_a}, {b, in_b}, begin, end, s, found);
      found = {part.max_abs, part.max_rel, found.mismatch || part.mismatches > 0};
      if (!fed) continue;
      held.push_back({j, in_a, in_b});
      feed_ready(false);
    }
    while (!held.empty()) feed_ready(true);
  });
  return merge_parts(parts);
}

}  // namespace

CompareStats compare_unchecked(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol,
                               unsigned threads, Figures figures) {
  require_same_shape(a, b);
  if (!is_tolerance_bound(tol.rtol) || !is_tolerance_bound(tol.atol) || tol.ulp < 0) {
    throw OperatorError(fmt::format("tolerance must be finite and non-negative (rtol {}, atol {}, ulp {})", tol.rtol, tol.atol, tol.ulp));
  }
  if (needs_integer_comparison(a, b)) return with_figures(compare_integers(a, b, tol, threads), figures);
  const Settings s = settings_for(tol, figures);
  // Tensors of files are read stripe by stripe out of the files (see tensor::StripeReader).
  const std::int64_t n = a.size();
  if (n >= kStripe && stripes_fit(a, b, tol) && (a.mapped_file() || b.mapped_file())) {
    return with_figures(striped_pass(a, b, s, {}, threads), figures);
  }
  const unsigned workers = threads > 0 ? threads : tensor::worker_count(n);
  std::vector<ChunkResult> parts(workers);
  tensor::parallel_chunks(n, workers, [&](unsigned w, std::int64_t begin, std::int64_t end) {
    parts[w] = compare_chunk(in_place(a, begin), in_place(b, begin), begin, end, s);
  });
  return with_figures(merge_parts(parts), figures);
}

CompareStats compare_striped(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol,
                             const PassFeeds& feeds, unsigned threads, Figures figures) {
  require_same_shape(a, b);
  if (!stripes_fit(a, b, tol)) {
    // Compared as ever, the files read along afterwards.
    const std::int64_t n = a.size();
    CompareStats out = compare_unchecked(a, b, tol, threads, figures);
    if (feeds.a) feeds.a(feeds.a_base + static_cast<std::size_t>(n) * a.itemsize(), nullptr, 0);
    if (feeds.b) feeds.b(feeds.b_base + static_cast<std::size_t>(n) * b.itemsize(), nullptr, 0);
    tensor::require_intact(a, b);
    return out;
  }
  CompareStats out = with_figures(striped_pass(a, b, settings_for(tol, figures), feeds, threads), figures);
  tensor::require_intact(a, b);
  return out;
}

}  // namespace rubric::numerics
