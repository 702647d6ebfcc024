#pragma once
// .npy files: versions 1.0, 2.0 and 3.0; C and Fortran order; '<', '>', '|' and '=' byte orders;
// 0-d arrays. Loading maps the file and reads it in place (Fortran order through strides,
// big-endian by swapping each element as it is read).
#include <memory>
#include <string>

#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

class MappedFile;

// Throws OperatorError naming `path` for any malformed file: bad magic, unknown version,
// a header length past the end of file, a bad dict literal, an unsupported descr, or data
// whose size differs from what the header's shape and dtype need.
Tensor load_npy(const std::string& path);
// The same from a file already mapped (messages name file->path()); the tensor keeps it alive.
Tensor load_npy(std::shared_ptr<const MappedFile> file);

// Writes `t` as a version 1.0 file (2.0 when the header needs more than 64 KiB), C order,
// little-endian. bf16 and fp8 have no numpy dtype: saving them throws OperatorError.
void save_npy(const std::string& path, const Tensor& t);

// The numpy descr for a dtype in little-endian order ('<f4', '|b1'); throws for bf16/fp8.
std::string npy_descr(DType t);

}  // namespace rubric::tensor
