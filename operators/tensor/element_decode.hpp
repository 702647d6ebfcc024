#pragma once
// Reading elements as double, on the fly: one element, or a block of consecutive logical
// (C-order) indices into a caller's small buffer. The comparison pass and every reduction
// use blocks, so no tensor is ever widened into a full-size copy.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "operators/tensor/dtype.hpp"
#include "operators/tensor/minifloat.hpp"
#include "operators/tensor/tensor.hpp"
#include "operators/tensor/wide_integer.hpp"

namespace rubric::tensor {

template <typename T>
inline T load_unaligned(const std::byte* p, bool swapped) {
  T v;
  if (!swapped) {
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  unsigned char bytes[sizeof(T)];
  for (std::size_t i = 0; i < sizeof(T); ++i) bytes[i] = static_cast<unsigned char>(p[sizeof(T) - 1 - i]);
  std::memcpy(&v, bytes, sizeof v);
  return v;
}

inline double decode_element(const std::byte* p, DType t, bool swapped) {
  switch (t) {
    case DType::f64: return load_unaligned<double>(p, swapped);
    case DType::f32: return load_unaligned<float>(p, swapped);
    case DType::f16: return f16_to_float(load_unaligned<std::uint16_t>(p, swapped));
    case DType::bf16: return bf16_to_float(load_unaligned<std::uint16_t>(p, swapped));
    case DType::f8e4m3: return f8e4m3_to_float(static_cast<std::uint8_t>(*p));
    case DType::f8e5m2: return f8e5m2_to_float(static_cast<std::uint8_t>(*p));
    case DType::i64: return static_cast<double>(load_unaligned<std::int64_t>(p, swapped));
    case DType::i32: return load_unaligned<std::int32_t>(p, swapped);
    case DType::i16: return load_unaligned<std::int16_t>(p, swapped);
    case DType::i8: return static_cast<std::int8_t>(*p);
    case DType::u8: return static_cast<std::uint8_t>(*p);
    case DType::u64: return static_cast<double>(load_unaligned<std::uint64_t>(p, swapped));
    case DType::boolean: return *p != std::byte{0} ? 1.0 : 0.0;
  }
  return 0;
}

// out[k] = t.at(start + k) for k in [0, count). Fast paths for contiguous tensors.
void decode_block(const Tensor& t, std::int64_t start, std::int64_t count, double* out);
// The same for `count` elements of `dtype` stored densely at `src` in this machine's byte order
// (a contiguous tensor's elements, or a copy of them).
void decode_contiguous(DType dtype, const std::byte* src, std::int64_t count, double* out);

// Copies the element at a flat index into `out` in this machine's byte order (itemsize bytes).
void copy_native_element(const Tensor& t, std::int64_t flat, std::byte* out);

// The element at a flat index of an integer or bool tensor, exactly (a double rounds i64 and u64
// past 2^53); 0 for a float dtype.
WideInteger integer_element(const Tensor& t, std::int64_t flat);

}  // namespace rubric::tensor
