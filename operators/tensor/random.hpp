#pragma once
// Deterministic random tensors: the same (shape, dtype, seed) gives the same bytes on every
// machine and with any thread count.
#include <cstdint>

#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

// Element i is drawn from a counter-based generator, z_i = mix64(key + (i + 1)·0x9E3779B97F4A7C15)
// with key = mix64(seed) (the SplitMix64 stream, read at random positions), so chunks fill in
// parallel. Distributions:
//   floats: uniform on the grid {-1 + k·2^(1-p) : 0 ≤ k < 2^p} ⊂ [-1, 1), p the dtype's
//           significand bits (f64 53, f32 24, f16 11, bf16 8, f8e4m3 4, f8e5m2 3); every value
//           is exactly representable, so no rounding happens;
//   i8, u8, i16: uniform over the type's whole range; i32, i64: uniform in [-2^24, 2^24);
//   bool: true with probability 1/2.
Tensor random_tensor(const Shape& shape, DType dtype, std::uint64_t seed);

// The generator's word for one element (exposed for tests and documentation).
std::uint64_t random_word(std::uint64_t seed, std::uint64_t index);

}  // namespace rubric::tensor
