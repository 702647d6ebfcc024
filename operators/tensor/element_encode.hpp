#pragma once
// Writing a double into one element of a dtype (native byte order), the inverse of decode.
#include <cstddef>

#include "operators/tensor/dtype.hpp"
#include "operators/tensor/wide_integer.hpp"

namespace rubric::tensor {

// Floats round to nearest even (fp8 per minifloat.hpp). Integers truncate toward zero and
// saturate at the type's range, NaN becomes 0; bool is x != 0 (NaN is true, as in numpy).
void encode_element(double x, DType t, std::byte* out);

// An exact integer into an integer or bool dtype: saturated at the type's range (bool: v != 0),
// with no rounding through double on the way.
void encode_integer(WideInteger v, DType t, std::byte* out);

}  // namespace rubric::tensor
