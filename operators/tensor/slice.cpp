#include "operators/tensor/slice.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "operators/tensor/index_format.hpp"

namespace rubric::tensor {
namespace {

// numpy's PySlice_AdjustIndices: the first index and the length of start:stop:step on an axis of n.
void adjust_range(const Subscript& s, std::int64_t n, std::int64_t& first, std::int64_t& length) {
  const std::int64_t step = s.step.value_or(1);
  std::int64_t start, stop;
  if (step > 0) {
    start = s.start ? *s.start : 0;
    stop = s.stop ? *s.stop : n;
    if (start < 0) start = std::max<std::int64_t>(0, start + n);
    if (stop < 0) stop = std::max<std::int64_t>(0, stop + n);
    start = std::min(start, n);
    stop = std::min(stop, n);
    length = stop > start ? (stop - start + step - 1) / step : 0;
  } else {
    start = s.start ? *s.start : n - 1;
    stop = s.stop ? *s.stop : -1 - n;  // "before the first element"
    if (start < 0) start = std::max<std::int64_t>(-1, start + n);
    if (stop < 0) stop = std::max<std::int64_t>(-1, stop + n);
    start = std::min(start, n - 1);
    stop = std::min(stop, n - 1);
    length = start > stop ? (start - stop + (-step) - 1) / (-step) : 0;
  }
  first = start;
}

std::string format_one(const Subscript& s) {
  switch (s.kind) {
    case Subscript::Kind::index: return fmt::format("{}", s.index);
    case Subscript::Kind::ellipsis: return "...";
    case Subscript::Kind::range: {
      std::string out = s.start ? fmt::format("{}", *s.start) : "";
      out += ":";
      if (s.stop) out += fmt::format("{}", *s.stop);
      if (s.step) out += fmt::format(":{}", *s.step);
      return out;
    }
  }
  return "";
}

}  // namespace

std::string format_subscripts(const std::vector<Subscript>& subs) {
  std::string out = "[";
  for (std::size_t i = 0; i < subs.size(); ++i) out += (i ? ", " : "") + format_one(subs[i]);
  return out + "]";
}

Tensor slice(const Tensor& t, const std::vector<Subscript>& subs) {
  const std::string source = t.source() + format_subscripts(subs);
  std::size_t ellipses = 0, named = 0;
  for (const auto& s : subs) {
    if (s.kind == Subscript::Kind::ellipsis) ++ellipses;
    else ++named;
    if (s.kind == Subscript::Kind::range && s.step && *s.step == 0)
      throw MalformedSubscript(fmt::format("{}: slice step cannot be zero", source));
  }
  if (ellipses > 1) throw MalformedSubscript(fmt::format("{}: an index can only have a single ellipsis ('...')", source));
  if (named > t.rank())
    throw IndexOutOfRange(fmt::format("{}: too many indices: {} for a tensor of rank {} with shape {}", source, named,
                                      t.rank(), format_shape(t.shape())));

  Shape shape;
  std::vector<std::int64_t> strides;
  std::int64_t offset = 0;
  std::size_t axis = 0;
  auto full_axis = [&] {
    shape.push_back(t.shape()[axis]);
    strides.push_back(t.byte_strides()[axis]);
    ++axis;
  };
  for (const auto& s : subs) {
    if (s.kind == Subscript::Kind::ellipsis) {
      for (std::size_t k = 0; k < t.rank() - named; ++k) full_axis();
      continue;
    }
    const std::int64_t n = t.shape()[axis], stride = t.byte_strides()[axis];
    if (s.kind == Subscript::Kind::index) {
      const std::int64_t k = s.index < 0 ? s.index + n : s.index;
      if (k < 0 || k >= n)
        throw IndexOutOfRange(fmt::format("{}: index {} is out of range for axis {} with {} element{}", source, s.index,
                                          axis, n, n == 1 ? "" : "s"));
      offset += k * stride;
    } else {
      std::int64_t first = 0, length = 0;
      adjust_range(s, n, first, length);
      if (length > 0) offset += first * stride;
      shape.push_back(length);
      strides.push_back(stride * s.step.value_or(1));
    }
    ++axis;
  }
  while (axis < t.rank()) full_axis();
  return t.view(std::move(shape), t.data() + offset, std::move(strides), source);
}

}  // namespace rubric::tensor
