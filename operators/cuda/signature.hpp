#pragma once
// The C signature a candidate's entry point must have, as written in a rubric:
//   "void(const float*, float*, int, int, cudaStream_t)"
// Pointers to any tensor::DType element type, scalar int / int64_t / float / double, and
// cudaStream_t. The return type must be void.
#include <string>
#include <string_view>
#include <vector>

#include "operators/error.hpp"
#include "operators/tensor/dtype.hpp"

namespace rubric::cuda {

enum class ParamKind { pointer, int32, int64, float32, float64, stream };

struct Param {
  ParamKind kind = ParamKind::int32;
  tensor::DType dtype = tensor::DType::f32;  // element type, for pointers only
  bool is_const = false;                     // pointer to const: an input the entry may not write
  std::string c_type;                        // spelling used in generated code, e.g. "const float*"
};

struct Signature {
  std::vector<Param> params;
  std::string text;  // normalised: "void(const float*, float*, int, int, cudaStream_t)"

  // Parameters the caller supplies (every one except cudaStream_t, which the backend provides).
  std::size_t caller_arity() const;
};

// Throws OperatorError naming the offending parameter: "signature parameter 3 'long double':
// unsupported type (expected ...)".
Signature parse_signature(std::string_view text);

}  // namespace rubric::cuda
