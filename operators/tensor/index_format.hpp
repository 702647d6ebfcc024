#pragma once
// Python-tuple rendering of shapes and of flat C-order indices: (3, 1777), (5,), ().
#include <cstdint>
#include <string>

#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

// The multi-dimensional index of a flat C-order index; OperatorError when out of range.
std::vector<std::int64_t> unravel_index(const Shape& shape, std::int64_t flat);
// "(3, 1777)" for flat = 3·cols + 1777; one dimension gives "(5,)", zero dimensions "()".
std::string format_index(const Shape& shape, std::int64_t flat);
std::string format_shape(const Shape& shape);

}  // namespace rubric::tensor
