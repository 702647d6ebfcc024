#include "operators/numerics/summary.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "operators/numerics/multiversion.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/parallel.hpp"

namespace rubric::numerics {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Moments {
  std::int64_t n = 0;  // finite values
  double mean = 0, m2 = 0;
  std::int64_t nan = 0, pos_inf = 0, neg_inf = 0;
  double min = kInf, max = -kInf;  // over non-NaN values

  void merge(const Moments& o) {
    if (o.n > 0) {
      const double total = static_cast<double>(n + o.n);
      const double delta = o.mean - mean;
      mean += delta * static_cast<double>(o.n) / total;
      m2 += o.m2 + delta * delta * static_cast<double>(n) * static_cast<double>(o.n) / total;
      n += o.n;
    }
    nan += o.nan;
    pos_inf += o.pos_inf;
    neg_inf += o.neg_inf;
    if (o.min < min) min = o.min;
    if (o.max > max) max = o.max;
  }
};

Moments block_moments_careful(const double* x, std::int64_t count) {
  Moments m;
  double sum = 0;
  for (std::int64_t k = 0; k < count; ++k) {
    const double v = x[k];
    if (v != v) {
      ++m.nan;
      continue;
    }
    if (v < m.min) m.min = v;
    if (v > m.max) m.max = v;
    if (v == kInf) ++m.pos_inf;
    else if (v == -kInf) ++m.neg_inf;
    else {
      sum += v;
      ++m.n;
    }
  }
  if (m.n == 0) return m;
  m.mean = sum / static_cast<double>(m.n);
  for (std::int64_t k = 0; k < count; ++k) {
    if (std::fabs(x[k]) < kInf) m.m2 += (x[k] - m.mean) * (x[k] - m.mean);
  }
  return m;
}

// Fast path for blocks of finite values (vectorized); a NaN or infinity makes the sum
// non-finite and sends the block to the careful version.
RUBRIC_MULTIVERSION
Moments block_moments(const double* x, std::int64_t count) {
  double sum = 0, lo = kInf, hi = -kInf;
#pragma omp simd reduction(+ : sum) reduction(min : lo) reduction(max : hi)
  for (std::int64_t k = 0; k < count; ++k) {
    sum += x[k];
    lo = x[k] < lo ? x[k] : lo;
    hi = x[k] > hi ? x[k] : hi;
  }
  if (!(std::fabs(sum) < kInf)) return block_moments_careful(x, count);
  Moments m;
  m.n = count;
  m.min = lo;
  m.max = hi;
  if (count == 0) return m;
  m.mean = sum / static_cast<double>(count);
  const double mean = m.mean;
  double m2 = 0;
#pragma omp simd reduction(+ : m2)
  for (std::int64_t k = 0; k < count; ++k) m2 += (x[k] - mean) * (x[k] - mean);
  m.m2 = m2;
  return m;
}

}  // namespace

TensorSummary summarize(const tensor::Tensor& t, unsigned threads) {
  const std::int64_t n = t.size();
  const unsigned workers = threads > 0 ? threads : tensor::worker_count(n);
  std::vector<Moments> parts(workers);
  tensor::parallel_chunks(n, workers, [&](unsigned w, std::int64_t begin, std::int64_t end) {
    constexpr std::int64_t kBlock = 1024;
    std::vector<double> x(kBlock);
    Moments acc;
    for (std::int64_t s = begin; s < end; s += kBlock) {
      const std::int64_t c = std::min(kBlock, end - s);
      tensor::decode_block(t, s, c, x.data());
      acc.merge(block_moments(x.data(), c));
    }
    parts[w] = acc;
  });
  tensor::require_intact(t);
  Moments all;
  for (const Moments& p : parts) all.merge(p);
  TensorSummary out;
  out.count = n;
  out.nan_count = all.nan;
  out.inf_count = all.pos_inf + all.neg_inf;
  if (n == 0 || all.nan > 0) {
    out.min = out.max = out.mean = out.std = kNaN;
    return out;
  }
  out.min = all.min;
  out.max = all.max;
  if (all.pos_inf > 0 || all.neg_inf > 0) {
    out.mean = (all.pos_inf > 0 && all.neg_inf > 0) ? kNaN : (all.pos_inf > 0 ? kInf : -kInf);
    out.std = kNaN;
    return out;
  }
  out.mean = all.mean;
  out.std = std::sqrt(all.m2 / static_cast<double>(all.n));
  return out;
}

std::int64_t count_within(const tensor::Tensor& t, double bound, unsigned threads) {
  const std::int64_t n = t.size();
  const unsigned workers = threads > 0 ? threads : tensor::worker_count(n);
  std::vector<std::int64_t> parts(workers, 0);
  tensor::parallel_chunks(n, workers, [&](unsigned w, std::int64_t begin, std::int64_t end) {
    constexpr std::int64_t kBlock = 1024;
    std::vector<double> x(kBlock);
    std::int64_t within = 0;
    for (std::int64_t s = begin; s < end; s += kBlock) {
      const std::int64_t c = std::min(kBlock, end - s);
      tensor::decode_block(t, s, c, x.data());
      for (std::int64_t k = 0; k < c; ++k) within += std::fabs(x[k]) <= bound ? 1 : 0;
    }
    parts[w] = within;
  });
  tensor::require_intact(t);
  std::int64_t all = 0;
  for (std::int64_t p : parts) all += p;
  return all;
}

}  // namespace rubric::numerics
