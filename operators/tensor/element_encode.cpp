#include "operators/tensor/element_encode.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "operators/tensor/minifloat.hpp"

namespace rubric::tensor {
namespace {

template <typename I>
void store_integer(double x, std::byte* out) {
  I v;
  if (std::isnan(x)) v = 0;
  else if (x <= static_cast<double>(std::numeric_limits<I>::min())) v = std::numeric_limits<I>::min();
  else if (x >= static_cast<double>(std::numeric_limits<I>::max())) v = std::numeric_limits<I>::max();
  else v = static_cast<I>(x);
  std::memcpy(out, &v, sizeof v);
}

template <typename I>
void store_wide(WideInteger x, std::byte* out) {
  const auto lo = static_cast<WideInteger>(std::numeric_limits<I>::min());
  const auto hi = static_cast<WideInteger>(std::numeric_limits<I>::max());
  const I v = static_cast<I>(x < lo ? lo : x > hi ? hi : x);
  std::memcpy(out, &v, sizeof v);
}

template <typename T>
void store(T v, std::byte* out) {
  std::memcpy(out, &v, sizeof v);
}

}  // namespace

void encode_element(double x, DType t, std::byte* out) {
  switch (t) {
    case DType::f64: store(x, out); return;
    case DType::f32: store(static_cast<float>(x), out); return;
    case DType::f16: store(float_to_f16(x), out); return;
    case DType::bf16: store(float_to_bf16(x), out); return;
    case DType::f8e4m3: store(float_to_f8e4m3(x), out); return;
    case DType::f8e5m2: store(float_to_f8e5m2(x), out); return;
    case DType::i64: store_integer<std::int64_t>(x, out); return;
    case DType::i32: store_integer<std::int32_t>(x, out); return;
    case DType::i16: store_integer<std::int16_t>(x, out); return;
    case DType::i8: store_integer<std::int8_t>(x, out); return;
    case DType::u8: store_integer<std::uint8_t>(x, out); return;
    case DType::u64: store_integer<std::uint64_t>(x, out); return;
    case DType::boolean: store(static_cast<std::uint8_t>(x != 0 ? 1 : 0), out); return;
  }
}

void encode_integer(WideInteger v, DType t, std::byte* out) {
  switch (t) {
    case DType::i64: store_wide<std::int64_t>(v, out); return;
    case DType::u64: store_wide<std::uint64_t>(v, out); return;
    case DType::i32: store_wide<std::int32_t>(v, out); return;
    case DType::i16: store_wide<std::int16_t>(v, out); return;
    case DType::i8: store_wide<std::int8_t>(v, out); return;
    case DType::u8: store_wide<std::uint8_t>(v, out); return;
    case DType::boolean: store(static_cast<std::uint8_t>(v != 0 ? 1 : 0), out); return;
    default: encode_element(static_cast<double>(v), t, out); return;
  }
}

}  // namespace rubric::tensor
