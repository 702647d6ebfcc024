#include "operators/tensor/dtype.hpp"

namespace rubric::tensor {

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::f64: case DType::i64: case DType::u64: return 8;
    case DType::f32: case DType::i32: return 4;
    case DType::f16: case DType::bf16: case DType::i16: return 2;
    case DType::f8e4m3: case DType::f8e5m2: case DType::i8: case DType::u8: case DType::boolean: return 1;
  }
  return 0;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::f64: return "f64";
    case DType::f32: return "f32";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
    case DType::f8e4m3: return "f8e4m3";
    case DType::f8e5m2: return "f8e5m2";
    case DType::i64: return "i64";
    case DType::i32: return "i32";
    case DType::i16: return "i16";
    case DType::i8: return "i8";
    case DType::u8: return "u8";
    case DType::u64: return "u64";
    case DType::boolean: return "bool";
  }
  return "?";
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (DType t : {DType::f64, DType::f32, DType::f16, DType::bf16, DType::f8e4m3, DType::f8e5m2, DType::i64,
                  DType::i32, DType::i16, DType::i8, DType::u8, DType::u64, DType::boolean}) {
    if (dtype_name(t) == name) return t;
  }
  return std::nullopt;
}

bool dtype_is_float(DType t) {
  switch (t) {
    case DType::f64: case DType::f32: case DType::f16: case DType::bf16: case DType::f8e4m3: case DType::f8e5m2:
      return true;
    default:
      return false;
  }
}

bool dtype_is_wide_integer(DType t) { return t == DType::i64 || t == DType::u64; }

}  // namespace rubric::tensor
