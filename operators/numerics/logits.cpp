#include "operators/numerics/logits.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <vector>

#include "operators/error.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/neumaier_sum.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/parallel.hpp"

namespace rubric::numerics {
namespace {

std::int64_t row_length(const tensor::Tensor& a, const tensor::Tensor& b, const char* what) {
  require_same_shape(a, b);
  if (a.rank() == 0) throw OperatorError(fmt::format("{}: {} needs at least one dimension", a.source(), what));
  const std::int64_t len = a.shape().back();
  if (len == 0) throw OperatorError(fmt::format("{}: {} needs a non-empty last axis", a.source(), what));
  return len;
}

// Top-k indices of one row, as a sorted list.
void top_k(const std::vector<double>& row, std::int64_t k, std::vector<std::int64_t>& order) {
  order.resize(row.size());
  std::iota(order.begin(), order.end(), 0);
  auto greater = [&row](std::int64_t i, std::int64_t j) {
    const double x = row[i], y = row[j];
    if (std::isnan(x) != std::isnan(y)) return std::isnan(y);
    if (x != y && !std::isnan(x)) return x > y;
    return i < j;
  };
  std::partial_sort(order.begin(), order.begin() + k, order.end(), greater);
  order.resize(k);
  std::sort(order.begin(), order.end());
}

// log-sum-exp of a row, stable: max + log Σ exp(x − max).
double log_sum_exp(const std::vector<double>& row) {
  double m = -INFINITY;
  for (double v : row) {
    if (std::isnan(v)) return NAN;
    m = std::max(m, v);
  }
  if (std::isinf(m)) return m;
  double s = 0;
  for (double v : row) s += std::exp(v - m);
  return m + std::log(s);
}

}  // namespace

double topk_agree(const tensor::Tensor& a, const tensor::Tensor& b, std::int64_t k) {
  const std::int64_t len = row_length(a, b, "topk_agree");
  if (k < 1 || k > len) throw OperatorError(fmt::format("topk_agree: k = {} is outside [1, {}]", k, len));
  const std::int64_t rows = a.size() / len;
  const unsigned workers = tensor::worker_count(rows, 64);
  std::vector<std::int64_t> agree(std::max(1u, workers), 0);
  tensor::parallel_chunks(rows, workers, [&](unsigned w, std::int64_t begin, std::int64_t end) {
    std::vector<double> ra(len), rb(len);
    std::vector<std::int64_t> ia, ib;
    for (std::int64_t r = begin; r < end; ++r) {
      tensor::decode_block(a, r * len, len, ra.data());
      tensor::decode_block(b, r * len, len, rb.data());
      top_k(ra, k, ia);
      top_k(rb, k, ib);
      if (ia == ib) ++agree[w];
    }
  });
  tensor::require_intact(a, b);
  if (rows == 0) return 1;
  return static_cast<double>(std::accumulate(agree.begin(), agree.end(), std::int64_t{0})) / static_cast<double>(rows);
}

double kl_div(const tensor::Tensor& p, const tensor::Tensor& q) {
  const std::int64_t len = row_length(p, q, "kl_div");
  const std::int64_t rows = p.size() / len;
  if (rows == 0) return 0;
  const unsigned workers = tensor::worker_count(rows, 64);
  std::vector<NeumaierSum> sums(std::max(1u, workers));
  tensor::parallel_chunks(rows, workers, [&](unsigned w, std::int64_t begin, std::int64_t end) {
    std::vector<double> rp(len), rq(len);
    for (std::int64_t r = begin; r < end; ++r) {
      tensor::decode_block(p, r * len, len, rp.data());
      tensor::decode_block(q, r * len, len, rq.data());
      const double lp = log_sum_exp(rp), lq = log_sum_exp(rq);
      double kl = 0;
      for (std::int64_t i = 0; i < len; ++i) {
        const double log_p = rp[i] - lp, log_q = rq[i] - lq;
        const double prob = std::exp(log_p);
        if (prob > 0) kl += prob * (log_p - log_q);  // 0·log 0 = 0
        else if (std::isnan(prob)) kl = NAN;
      }
      sums[w].add(kl);
    }
  });
  tensor::require_intact(p, q);
  NeumaierSum total;
  for (const auto& s : sums) total.add(s);
  return total.value() / static_cast<double>(rows);
}

}  // namespace rubric::numerics
