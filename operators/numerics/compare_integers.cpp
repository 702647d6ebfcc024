#include "operators/numerics/compare_integers.hpp"

#include <vector>

#include "operators/numerics/integer_closeness.hpp"
#include "operators/numerics/neumaier_sum.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/parallel.hpp"

namespace rubric::numerics {
namespace {

using tensor::DType;

bool is_integer(DType t) { return !tensor::dtype_is_float(t); }

struct Part {
  CompareStats stats;
  NeumaierSum sdd, saa, sbb, sab;
  double max_rel = -1;
};

}  // namespace

bool needs_integer_comparison(const tensor::Tensor& a, const tensor::Tensor& b) {
  return is_integer(a.dtype()) && is_integer(b.dtype()) &&
         (tensor::dtype_is_wide_integer(a.dtype()) || tensor::dtype_is_wide_integer(b.dtype()));
}

CompareStats compare_integers(const tensor::Tensor& a, const tensor::Tensor& b, const Tolerance& tol, unsigned threads) {
  const std::int64_t n = a.size();
  const unsigned workers = threads > 0 ? threads : tensor::worker_count(n);
  std::vector<Part> parts(workers);
  tensor::parallel_chunks(n, workers, [&](unsigned w, std::int64_t begin, std::int64_t end) {
    Part& p = parts[w];
    CompareStats& s = p.stats;
    bool any = false;
    for (std::int64_t k = begin; k < end; ++k) {
      const WideInteger x = tensor::integer_element(a, k), y = tensor::integer_element(b, k);
      const WideUnsigned d = integer_distance(x, y), ay = integer_magnitude(y);
      const bool close = integers_close(d, ay, tol.rtol, tol.atol, tol.ulp);
      ++s.count;
      if (!close && s.mismatches++ == 0) s.first_mismatch_index = k;
      if (!any || d > s.max_abs_integer) s.max_abs_integer = d, s.max_abs_index = k;
      const double rel = integer_relative_difference(d, ay);
      if (rel > p.max_rel) p.max_rel = rel, s.max_rel_index = k;
      const double dy_abs = wide_to_double(ay);
      if (dy_abs > s.max_abs_b) s.max_abs_b = dy_abs;
      const double dx = x < 0 ? -wide_to_double(integer_magnitude(x)) : wide_to_double(integer_magnitude(x));
      const double dy = y < 0 ? -dy_abs : dy_abs, dd = wide_to_double(d);
      p.sdd.add(dd * dd);
      p.saa.add(dx * dx);
      p.sbb.add(dy * dy);
      p.sab.add(dx * dy);
      any = true;
    }
  });
  // Merged in chunk order, so a tie keeps the lowest index, as compare() does.
  CompareStats out;
  out.integers = true;
  NeumaierSum sdd, saa, sbb, sab;
  double max_rel = -1;
  for (const Part& p : parts) {
    const CompareStats& s = p.stats;
    if (s.count == 0) continue;
    if (out.first_mismatch_index < 0) out.first_mismatch_index = s.first_mismatch_index;
    if (out.max_abs_index < 0 || s.max_abs_integer > out.max_abs_integer)
      out.max_abs_integer = s.max_abs_integer, out.max_abs_index = s.max_abs_index;
    if (p.max_rel > max_rel) max_rel = p.max_rel, out.max_rel_index = s.max_rel_index;
    out.count += s.count;
    out.mismatches += s.mismatches;
    if (s.max_abs_b > out.max_abs_b) out.max_abs_b = s.max_abs_b;
    sdd.add(p.sdd.value());
    saa.add(p.saa.value());
    sbb.add(p.sbb.value());
    sab.add(p.sab.value());
  }
  out.max_abs = wide_to_double(out.max_abs_integer);
  constexpr std::uint64_t kMax64 = ~std::uint64_t{0};
  out.max_ulp = out.max_abs_integer > kMax64 ? kMax64 : static_cast<std::uint64_t>(out.max_abs_integer);
  out.max_rel = max_rel < 0 ? 0 : max_rel;
  out.sum_sq_diff = sdd.value();
  out.sum_sq_a = saa.value();
  out.sum_sq_b = sbb.value();
  out.dot_ab = sab.value();
  return out;
}

}  // namespace rubric::numerics
