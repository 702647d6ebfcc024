#pragma once
// Conversions between double and the narrow float formats (f16, bf16, OCP fp8 e4m3/e5m2).
// Decoding is inline because the comparison pass calls it per element; encoding rounds to
// nearest, ties to even, directly from double (no double rounding through float).
#include <cstdint>
#include <cstring>

namespace rubric::tensor {

inline float float_from_bits(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline float f16_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  const std::uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return float_from_bits(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    const float sub = static_cast<float>(man) * 5.9604644775390625e-8f;  // man · 2^-24
    return sign ? -sub : sub;
  }
  return float_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

inline float bf16_to_float(std::uint16_t b) { return float_from_bits(static_cast<std::uint32_t>(b) << 16); }

// fp8 decoding goes through 256-entry tables built once (immutable after construction).
float f8e4m3_to_float(std::uint8_t b);
float f8e5m2_to_float(std::uint8_t b);
const float* f8e4m3_table();
const float* f8e5m2_table();

// Encoding from double, round to nearest even. Overflow: f16, bf16 and e5m2 give ±inf;
// e4m3 (no infinity in the OCP "fn" variant) saturates finite values to ±448 and maps ±inf
// and NaN to NaN (0x7f / 0xff).
std::uint16_t float_to_f16(double x);
std::uint16_t float_to_bf16(double x);
std::uint8_t float_to_f8e4m3(double x);
std::uint8_t float_to_f8e5m2(double x);

// Sign-magnitude bits → distance in units in the last place (numpy nulp_diff): +0 and -0
// are 0 apart, and the distance across zero is the sum of both magnitudes.
inline std::uint64_t ulp_distance_bits(std::uint64_t a, std::uint64_t b, int sign_bit) {
  const std::uint64_t sign = std::uint64_t{1} << sign_bit;
  const std::uint64_t ma = a & (sign - 1), mb = b & (sign - 1);
  if ((a & sign) == (b & sign)) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;
}

}  // namespace rubric::tensor
