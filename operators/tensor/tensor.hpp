#pragma once
// Tensor: an immutable n-dimensional view of typed elements. Data lives in a memory-mapped
// file or an owned buffer (kept alive by shared ownership); the view has per-dimension byte
// strides and a byte-order flag, so Fortran-order and big-endian files are read in place.
// Logical indices are always flat, row-major (C order), whatever the layout in memory.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "operators/tensor/dtype.hpp"

namespace rubric::tensor {

using Shape = std::vector<std::int64_t>;

// Number of elements of a shape; throws OperatorError (naming `what`) for negative
// extents or a product that overflows.
std::int64_t shape_element_count(const Shape& shape, const std::string& what);

class MappedFile;

class Tensor {
 public:
  // A view over existing bytes. `byte_strides` has one entry per dimension.
  Tensor(DType dtype, Shape shape, const std::byte* data, std::vector<std::int64_t> byte_strides, bool byte_swapped,
         std::shared_ptr<const void> owner, std::string source);

  // A view into a mapped file, which it keeps alive; `require_intact` checks the file after a pass.
  Tensor(DType dtype, Shape shape, const std::byte* data, std::vector<std::int64_t> byte_strides, bool byte_swapped,
         std::shared_ptr<const MappedFile> file, std::string source);

  // A C-contiguous, native-byte-order tensor owning `bytes` (size must be size(shape)·itemsize).
  static Tensor from_bytes(DType dtype, Shape shape, std::vector<std::byte> bytes, std::string source);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  std::int64_t size() const { return size_; }
  std::size_t rank() const { return shape_.size(); }
  std::size_t itemsize() const { return dtype_size(dtype_); }
  // Where the tensor came from ("out.npy", "model.safetensors:w1", "random(...)"), for messages.
  const std::string& source() const { return source_; }

  const std::byte* data() const { return data_; }
  const std::vector<std::int64_t>& byte_strides() const { return strides_; }
  bool byte_swapped() const { return swapped_; }
  // True when elements are stored in C order, densely, in this machine's byte order.
  bool is_contiguous() const { return contiguous_; }

  // Byte offset (from data()) of the element at a flat C-order index.
  std::int64_t byte_offset(std::int64_t flat) const;
  // The element at a flat C-order index, widened to double. No bounds check beyond a debug assert.
  double at(std::int64_t flat) const;

  // Another view of the same memory (kept alive with this one): a slice, a permutation of axes.
  Tensor view(Shape shape, const std::byte* data, std::vector<std::int64_t> byte_strides, std::string source) const {
    Tensor t(dtype_, std::move(shape), data, std::move(byte_strides), swapped_, owner_, std::move(source));
    t.file_ = file_;
    t.file_name_ = file_name_;
    return t;
  }
  // The same view under another name: `source` for messages, `file_name` for the file it reads
  // (a loader names files by their path on this machine; the language by their root).
  Tensor renamed(std::string source, std::string file_name) const {
    Tensor t = *this;
    t.source_ = std::move(source);
    if (file_) t.file_name_ = std::move(file_name);
    return t;
  }

  // The mapped file the elements live in (null for owned buffers), and its name for messages.
  const std::shared_ptr<const MappedFile>& mapped_file() const { return file_; }
  const std::string& file_name() const { return file_name_; }

 private:
  DType dtype_;
  Shape shape_;
  std::int64_t size_;
  const std::byte* data_;
  std::vector<std::int64_t> strides_;
  bool swapped_;
  bool contiguous_;
  std::shared_ptr<const void> owner_;
  std::string source_;
  std::shared_ptr<const MappedFile> file_;
  std::string file_name_;
};

// Whether the file a tensor reads (if any) is still whole: false once it shrank while mapped.
bool intact(const Tensor& t);
// Throws files::FileChanged naming t.file_name() when the file it reads shrank while mapped. Every
// pass over a tensor's elements ends with this check: what it read past the new end was zeros.
void require_intact(const Tensor& t);
// Both; the second (the reference in a comparison) is checked first.
void require_intact(const Tensor& answer, const Tensor& reference);

// A zeroed buffer for `count` elements of `itemsize` bytes; OperatorError naming `what` when
// the size overflows or the memory cannot be had (instead of std::bad_alloc).
std::vector<std::byte> allocate_elements(std::int64_t count, std::size_t itemsize, const std::string& what);

// C-order byte strides for a shape.
std::vector<std::int64_t> c_order_strides(const Shape& shape, std::size_t itemsize);
// Fortran-order byte strides for a shape.
std::vector<std::int64_t> fortran_order_strides(const Shape& shape, std::size_t itemsize);

}  // namespace rubric::tensor
