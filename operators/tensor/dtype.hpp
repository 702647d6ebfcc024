#pragma once
// Element types shared by every operator library (tensor files, numerics, the CUDA backend).
#include <cstddef>
#include <optional>
#include <string_view>

namespace rubric::tensor {

enum class DType { f64, f32, f16, bf16, f8e4m3, f8e5m2, i64, i32, i16, i8, u8, boolean, u64 };

// Bytes per element.
std::size_t dtype_size(DType t);
// The language's name: "f32", "bf16", "bool", ...
std::string_view dtype_name(DType t);
std::optional<DType> dtype_from_name(std::string_view name);
bool dtype_is_float(DType t);
// i64 and u64: the integers a double does not hold exactly (past 2^53), compared as integers.
bool dtype_is_wide_integer(DType t);

}  // namespace rubric::tensor
