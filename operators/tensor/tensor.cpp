#include "operators/tensor/tensor.hpp"

#include <cassert>
#include <cstdint>
#include <new>
#include <fmt/format.h>

#include "operators/error.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/mapped_file.hpp"

namespace rubric::tensor {

std::int64_t shape_element_count(const Shape& shape, const std::string& what) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw OperatorError(fmt::format("{}: negative dimension {} in shape", what, d));
    if (d != 0 && n > INT64_MAX / d) throw OperatorError(fmt::format("{}: shape has too many elements", what));
    n *= d;
  }
  return n;
}

std::vector<std::byte> allocate_elements(std::int64_t count, std::size_t itemsize, const std::string& what) {
  if (count < 0 || static_cast<std::uint64_t>(count) > SIZE_MAX / itemsize) {
    throw OperatorError(fmt::format("{}: {} elements are too many to allocate", what, count));
  }
  try {
    return std::vector<std::byte>(static_cast<std::size_t>(count) * itemsize);
  } catch (const std::bad_alloc&) {
    throw OperatorError(fmt::format("{}: cannot allocate {} bytes", what, static_cast<std::uint64_t>(count) * itemsize));
  }
}

std::vector<std::int64_t> c_order_strides(const Shape& shape, std::size_t itemsize) {
  std::vector<std::int64_t> s(shape.size());
  std::int64_t step = static_cast<std::int64_t>(itemsize);
  for (std::size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

std::vector<std::int64_t> fortran_order_strides(const Shape& shape, std::size_t itemsize) {
  std::vector<std::int64_t> s(shape.size());
  std::int64_t step = static_cast<std::int64_t>(itemsize);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    s[i] = step;
    step *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

Tensor::Tensor(DType dtype, Shape shape, const std::byte* data, std::vector<std::int64_t> byte_strides,
               bool byte_swapped, std::shared_ptr<const void> owner, std::string source)
    : dtype_(dtype),
      shape_(std::move(shape)),
      size_(shape_element_count(shape_, source)),
      data_(data),
      strides_(std::move(byte_strides)),
      swapped_(byte_swapped && dtype_size(dtype) > 1),
      owner_(std::move(owner)),
      source_(std::move(source)) {
  if (strides_.size() != shape_.size()) throw OperatorError(fmt::format("{}: strides do not match shape", source_));
  const auto c = c_order_strides(shape_, dtype_size(dtype_));
  bool dense = true;
  for (std::size_t i = 0; i < shape_.size(); ++i) {
    if (shape_[i] > 1 && strides_[i] != c[i]) dense = false;
  }
  contiguous_ = dense && !swapped_;
}

Tensor::Tensor(DType dtype, Shape shape, const std::byte* data, std::vector<std::int64_t> byte_strides,
               bool byte_swapped, std::shared_ptr<const MappedFile> file, std::string source)
    : Tensor(dtype, std::move(shape), data, std::move(byte_strides), byte_swapped, std::shared_ptr<const void>(file),
             source) {
  file_ = std::move(file);
  file_name_ = file_ ? file_->path() : std::string();
}

bool intact(const Tensor& t) { return !t.mapped_file() || !t.mapped_file()->damaged(); }

void require_intact(const Tensor& t) {
  if (t.mapped_file()) t.mapped_file()->require_intact(t.file_name());
}

void require_intact(const Tensor& answer, const Tensor& reference) {
  require_intact(reference);
  require_intact(answer);
}

Tensor Tensor::from_bytes(DType dtype, Shape shape, std::vector<std::byte> bytes, std::string source) {
  const std::int64_t n = shape_element_count(shape, source);
  if (static_cast<std::uint64_t>(n) * dtype_size(dtype) != bytes.size()) {
    throw OperatorError(fmt::format("{}: {} bytes do not hold {} elements of {}", source, bytes.size(), n,
                                    dtype_name(dtype)));
  }
  auto buffer = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  auto strides = c_order_strides(shape, dtype_size(dtype));
  return Tensor(dtype, std::move(shape), buffer->data(), std::move(strides), false, buffer, std::move(source));
}

std::int64_t Tensor::byte_offset(std::int64_t flat) const {
  if (contiguous_) return flat * static_cast<std::int64_t>(itemsize());
  std::int64_t offset = 0;
  for (std::size_t i = shape_.size(); i-- > 0;) {
    const std::int64_t extent = shape_[i];
    offset += (flat % extent) * strides_[i];
    flat /= extent;
  }
  return offset;
}

double Tensor::at(std::int64_t flat) const {
  assert(flat >= 0 && flat < size_);
  return decode_element(data_ + byte_offset(flat), dtype_, swapped_);
}

}  // namespace rubric::tensor
