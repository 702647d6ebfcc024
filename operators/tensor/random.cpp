#include "operators/tensor/random.hpp"

#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <vector>

#include "operators/tensor/element_encode.hpp"
#include "operators/tensor/parallel.hpp"

namespace rubric::tensor {
namespace {

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int significand_bits(DType t) {
  switch (t) {
    case DType::f64: return 53;
    case DType::f32: return 24;
    case DType::f16: return 11;
    case DType::bf16: return 8;
    case DType::f8e4m3: return 4;
    case DType::f8e5m2: return 3;
    default: return 0;
  }
}

template <typename T>
void put(T v, std::byte* out) {
  std::memcpy(out, &v, sizeof v);
}

}  // namespace

std::uint64_t random_word(std::uint64_t seed, std::uint64_t index) {
  return mix64(mix64(seed) + (index + 1) * 0x9E3779B97F4A7C15ull);
}

Tensor random_tensor(const Shape& shape, DType dtype, std::uint64_t seed) {
  std::string shape_text;
  for (std::size_t i = 0; i < shape.size(); ++i) shape_text += fmt::format("{}{}", i ? ", " : "", shape[i]);
  const std::string source = fmt::format("random([{}], {}, seed = {})", shape_text, dtype_name(dtype), seed);
  const std::int64_t n = shape_element_count(shape, source);
  const std::size_t item = dtype_size(dtype);
  std::vector<std::byte> bytes = allocate_elements(n, item, source);
  const int p = significand_bits(dtype);
  const double step = std::ldexp(1.0, 1 - p);  // grid spacing 2^(1-p)
  parallel_chunks(n, worker_count(n), [&](unsigned, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const std::uint64_t z = random_word(seed, static_cast<std::uint64_t>(i));
      std::byte* out = bytes.data() + i * item;
      switch (dtype) {
        case DType::i8: put(static_cast<std::int8_t>(z >> 56), out); break;
        case DType::u8: put(static_cast<std::uint8_t>(z >> 56), out); break;
        case DType::i16: put(static_cast<std::int16_t>(z >> 48), out); break;
        case DType::i32: put(static_cast<std::int32_t>(static_cast<std::int64_t>(z >> 39) - (1 << 24)), out); break;
        case DType::i64: put(static_cast<std::int64_t>(z >> 39) - (std::int64_t{1} << 24), out); break;
        case DType::u64: put(z >> 39, out); break;
        case DType::boolean: put(static_cast<std::uint8_t>(z >> 63), out); break;
        case DType::f32: {
          const auto k = static_cast<std::int64_t>(z >> (64 - p));
          put(static_cast<float>(static_cast<double>(k) * step - 1.0), out);
          break;
        }
        default: {
          const auto k = static_cast<std::int64_t>(z >> (64 - p));
          encode_element(static_cast<double>(k) * step - 1.0, dtype, out);
        }
      }
    }
  });
  return Tensor::from_bytes(dtype, shape, std::move(bytes), source);
}

}  // namespace rubric::tensor
