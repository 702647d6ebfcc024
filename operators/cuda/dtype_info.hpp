#pragma once
// Element facts the CUDA backend needs about tensor::DType: sizes, names on the wire, and the
// bit pattern used to poison output buffers (NaN for floating types, 0xFF bytes otherwise).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "operators/tensor/dtype.hpp"

namespace rubric::cuda {

std::size_t element_bytes(tensor::DType t);
// "f32", "bf16", "bool", ...: the same names as the language; used in the worker protocol.
std::string_view dtype_label(tensor::DType t);
std::optional<tensor::DType> dtype_from_label(std::string_view label);
bool is_floating(tensor::DType t);
// One element's poison pattern, little-endian in the low element_bytes(t) bytes: a quiet NaN for
// float types (fp8 e4m3 and e5m2 use 0x7F), all-ones for integers and bool.
std::uint64_t poison_pattern(tensor::DType t);

}  // namespace rubric::cuda
