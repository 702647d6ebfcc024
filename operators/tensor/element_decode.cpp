#include "operators/tensor/element_decode.hpp"

#include <cstdint>
#include <vector>

namespace rubric::tensor {
namespace {

template <typename T>
void widen(const std::byte* src, std::int64_t count, double* out) {
  if (reinterpret_cast<std::uintptr_t>(src) % alignof(T) == 0) {
    // Aligned (every numpy file and most safetensors): a plain typed loop the compiler vectorizes.
    const T* typed = reinterpret_cast<const T*>(src);
    for (std::int64_t k = 0; k < count; ++k) out[k] = static_cast<double>(typed[k]);
    return;
  }
  for (std::int64_t k = 0; k < count; ++k) {
    T v;
    std::memcpy(&v, src + k * static_cast<std::int64_t>(sizeof(T)), sizeof v);
    out[k] = static_cast<double>(v);
  }
}

void widen_contiguous(DType t, const std::byte* src, std::int64_t count, double* out) {
  switch (t) {
    case DType::f64: widen<double>(src, count, out); return;
    case DType::f32: widen<float>(src, count, out); return;
    case DType::i64: widen<std::int64_t>(src, count, out); return;
    case DType::i32: widen<std::int32_t>(src, count, out); return;
    case DType::i16: widen<std::int16_t>(src, count, out); return;
    case DType::i8: widen<std::int8_t>(src, count, out); return;
    case DType::u8: widen<std::uint8_t>(src, count, out); return;
    case DType::u64: widen<std::uint64_t>(src, count, out); return;
    case DType::bf16:
      for (std::int64_t k = 0; k < count; ++k) {
        std::uint16_t v;
        std::memcpy(&v, src + 2 * k, 2);
        out[k] = bf16_to_float(v);
      }
      return;
    case DType::f16:
      // Branch-free (vectorizable): the f16 exponent and mantissa placed in a float and scaled
      // by 2^112 give the exact value, subnormals included; exponent 31 becomes inf/NaN.
      for (std::int64_t k = 0; k < count; ++k) {
        std::uint16_t v;
        std::memcpy(&v, src + 2 * k, 2);
        const std::uint32_t magnitude = static_cast<std::uint32_t>(v & 0x7fffu) << 13;
        float f;
        std::memcpy(&f, &magnitude, 4);
        f *= 0x1p112f;
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        bits |= (v & 0x7c00u) == 0x7c00u ? 0x7f800000u : 0u;
        bits |= static_cast<std::uint32_t>(v & 0x8000u) << 16;
        std::memcpy(&f, &bits, 4);
        out[k] = f;
      }
      return;
    case DType::f8e4m3: {
      const float* table = f8e4m3_table();
      for (std::int64_t k = 0; k < count; ++k) out[k] = table[static_cast<std::uint8_t>(src[k])];
      return;
    }
    case DType::f8e5m2: {
      const float* table = f8e5m2_table();
      for (std::int64_t k = 0; k < count; ++k) out[k] = table[static_cast<std::uint8_t>(src[k])];
      return;
    }
    case DType::boolean:
      for (std::int64_t k = 0; k < count; ++k) out[k] = src[k] != std::byte{0} ? 1.0 : 0.0;
      return;
  }
}

}  // namespace

void decode_contiguous(DType dtype, const std::byte* src, std::int64_t count, double* out) {
  if (count > 0) widen_contiguous(dtype, src, count, out);
}

void decode_block(const Tensor& t, std::int64_t start, std::int64_t count, double* out) {
  if (count <= 0) return;
  const std::int64_t item = static_cast<std::int64_t>(t.itemsize());
  if (t.is_contiguous()) {
    widen_contiguous(t.dtype(), t.data() + start * item, count, out);
    return;
  }
  const auto& shape = t.shape();
  const auto& strides = t.byte_strides();
  const std::size_t rank = shape.size();
  if (rank == 0) {
    out[0] = decode_element(t.data(), t.dtype(), t.byte_swapped());
    return;
  }
  // Walk the multi-index like an odometer: the last dimension moves fastest.
  std::vector<std::int64_t> index(rank);
  std::int64_t rest = start, offset = 0;
  for (std::size_t i = rank; i-- > 0;) {
    index[i] = rest % shape[i];
    rest /= shape[i];
    offset += index[i] * strides[i];
  }
  for (std::int64_t k = 0; k < count; ++k) {
    out[k] = decode_element(t.data() + offset, t.dtype(), t.byte_swapped());
    for (std::size_t i = rank; i-- > 0;) {
      if (++index[i] < shape[i]) {
        offset += strides[i];
        break;
      }
      offset -= (shape[i] - 1) * strides[i];
      index[i] = 0;
    }
  }
}

void copy_native_element(const Tensor& t, std::int64_t flat, std::byte* out) {
  const std::byte* p = t.data() + t.byte_offset(flat);
  const std::size_t n = t.itemsize();
  if (!t.byte_swapped()) {
    std::memcpy(out, p, n);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = p[n - 1 - i];
}

WideInteger integer_element(const Tensor& t, std::int64_t flat) {
  std::byte bytes[8];
  copy_native_element(t, flat, bytes);
  auto as = [&](auto v) {
    std::memcpy(&v, bytes, sizeof v);
    return static_cast<WideInteger>(v);
  };
  switch (t.dtype()) {
    case DType::i64: return as(std::int64_t{});
    case DType::u64: return as(std::uint64_t{});
    case DType::i32: return as(std::int32_t{});
    case DType::i16: return as(std::int16_t{});
    case DType::i8: return as(std::int8_t{});
    case DType::u8: return as(std::uint8_t{});
    case DType::boolean: return bytes[0] != std::byte{0};
    default: return 0;
  }
}

}  // namespace rubric::tensor
