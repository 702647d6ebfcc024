#pragma once
// Indexing and slicing as numpy does it, as views: the result points into the same memory
// (the mapped file or buffer) with an offset and new strides; nothing is copied.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "operators/error.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

// One component of a subscript: `i` (drops the axis), `start:stop:step` (each part optional)
// or `...` (as many full slices as the other components leave).
struct Subscript {
  enum class Kind { index, range, ellipsis };
  Kind kind = Kind::index;
  std::int64_t index = 0;
  std::optional<std::int64_t> start, stop, step;
};

// An index past the end of an axis, or more indices than the tensor has axes: the tensor's
// shape does not allow the subscript (the caller blames whoever supplied the tensor).
struct IndexOutOfRange : OperatorError {
  using OperatorError::OperatorError;
};
// A subscript that is wrong whatever the tensor (a step of 0, two ellipses): the writer's mistake.
struct MalformedSubscript : OperatorError {
  using OperatorError::OperatorError;
};

// The view t[subs...] with numpy's rules: a negative index or bound counts from the end; an
// integer index must lie in [-n, n); slice bounds are clamped to the axis (so `t[5:100]` of
// 10 rows is rows 5..9); a negative step walks backwards; axes not named keep their full extent.
Tensor slice(const Tensor& t, const std::vector<Subscript>& subs);

// "[0, 2:5, ::-1, ...]": how a subscript is shown in a view's source.
std::string format_subscripts(const std::vector<Subscript>& subs);

}  // namespace rubric::tensor
