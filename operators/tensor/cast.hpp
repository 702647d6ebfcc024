#pragma once
// Conversion of a tensor to another dtype into a new C-contiguous tensor.
#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

// Each element goes through double, then encode_element's rules (element_encode.hpp):
// round to nearest even for floats (f16/bf16/e5m2 overflow to ±inf, e4m3 saturates to ±448,
// inf/NaN → NaN), integers truncate and saturate. Between integer (and bool) dtypes the values
// go exactly, saturated (an i64 or u64 past 2^53 is not rounded on the way).
Tensor cast(const Tensor& t, DType to);

}  // namespace rubric::tensor
