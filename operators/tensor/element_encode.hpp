#pragma once
// Writing a double into one element of a dtype (native byte order), the inverse of decode.
#include <cstddef>

#include "operators/tensor/dtype.hpp"

namespace rubric::tensor {

// Floats round to nearest even (fp8 per minifloat.hpp). Integers truncate toward zero and
// saturate at the type's range, NaN becomes 0; bool is x != 0 (NaN is true, as in numpy).
void encode_element(double x, DType t, std::byte* out);

}  // namespace rubric::tensor
