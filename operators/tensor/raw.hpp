#pragma once
// Raw binary files: elements only, C order, little-endian unless told otherwise.
#include <memory>
#include <string>

#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

class MappedFile;

// The file's size must be exactly size(shape)·itemsize; otherwise OperatorError naming the file.
Tensor load_raw(const std::string& path, DType dtype, const Shape& shape, bool big_endian = false);
// The same from a file already mapped (messages name file->path()).
Tensor load_raw(std::shared_ptr<const MappedFile> file, DType dtype, const Shape& shape, bool big_endian = false);

// Writes the elements C order, in this machine's byte order.
void save_raw(const std::string& path, const Tensor& t);

}  // namespace rubric::tensor
