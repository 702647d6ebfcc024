#include "operators/numerics/tolerance.hpp"

#include <algorithm>
#include <cmath>

namespace rubric::numerics {

Tolerance default_tolerance(tensor::DType t) {
  using tensor::DType;
  switch (t) {
    case DType::f64: return {1e-7, 1e-7, 0};
    case DType::f32: return {1.3e-6, 1e-5, 0};
    case DType::f16: return {1e-3, 1e-5, 0};
    case DType::bf16: return {1.6e-2, 1e-5, 0};
    default: return {0, 0, 0};
  }
}

bool is_tolerance_bound(double v) { return v >= 0 && v < HUGE_VAL; }

Tolerance default_tolerance(tensor::DType a, tensor::DType b) {
  const Tolerance ta = default_tolerance(a), tb = default_tolerance(b);
  return {std::max(ta.rtol, tb.rtol), std::max(ta.atol, tb.atol), 0};
}

}  // namespace rubric::numerics
