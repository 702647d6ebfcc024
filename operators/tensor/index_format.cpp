#include "operators/tensor/index_format.hpp"

#include <fmt/format.h>

#include "operators/error.hpp"

namespace rubric::tensor {

std::vector<std::int64_t> unravel_index(const Shape& shape, std::int64_t flat) {
  const std::int64_t n = shape_element_count(shape, "index");
  if (flat < 0 || flat >= n) throw OperatorError(fmt::format("index {} is out of range for {} elements", flat, n));
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

std::string format_shape(const Shape& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::string format_index(const Shape& shape, std::int64_t flat) { return format_shape(unravel_index(shape, flat)); }

}  // namespace rubric::tensor
