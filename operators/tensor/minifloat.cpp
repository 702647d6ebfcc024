#include "operators/tensor/minifloat.hpp"

#include <array>
#include <cmath>

namespace rubric::tensor {
namespace {

struct MiniFormat {
  int exp_bits;
  int man_bits;
  int bias;
  bool has_inf;      // IEEE-like: exponent all ones is inf/NaN
  double max_finite;
  std::uint32_t nan_bits;  // without sign
};

constexpr MiniFormat kF16{5, 10, 15, true, 65504.0, 0x7e00u};
constexpr MiniFormat kBF16{8, 7, 127, true, 3.3895313892515355e38, 0x7fc0u};
constexpr MiniFormat kE4M3{4, 3, 7, false, 448.0, 0x7fu};
constexpr MiniFormat kE5M2{5, 2, 15, true, 57344.0, 0x7eu};

std::uint32_t encode(double x, const MiniFormat& f) {
  const std::uint32_t sign = std::signbit(x) ? (1u << (f.exp_bits + f.man_bits)) : 0u;
  const std::uint32_t inf_bits = ((1u << f.exp_bits) - 1u) << f.man_bits;
  if (std::isnan(x)) return f.has_inf ? (sign | f.nan_bits) : f.nan_bits;
  const double a = std::fabs(x);
  if (std::isinf(a)) return f.has_inf ? (sign | inf_bits) : f.nan_bits;
  if (a == 0) return sign;
  const int emin = 1 - f.bias;
  int e = 0;
  std::frexp(a, &e);
  e -= 1;  // a = m · 2^e with m in [1, 2)
  const int quantum_exp = (e > emin ? e : emin) - f.man_bits;
  const double q = std::nearbyint(std::ldexp(a, -quantum_exp));  // default rounding: nearest even
  const double r = std::ldexp(q, quantum_exp);
  if (r > f.max_finite) {
    if (f.has_inf) return sign | inf_bits;
    int me = 0;
    std::frexp(f.max_finite, &me);
    me -= 1;
    const auto man = static_cast<std::uint32_t>(std::ldexp(f.max_finite, f.man_bits - me)) - (1u << f.man_bits);
    return sign | (static_cast<std::uint32_t>(me + f.bias) << f.man_bits) | man;
  }
  if (r == 0) return sign;
  if (r < std::ldexp(1.0, emin)) return sign | static_cast<std::uint32_t>(q);  // subnormal
  int re = 0;
  std::frexp(r, &re);
  re -= 1;
  const auto man = static_cast<std::uint32_t>(std::ldexp(r, f.man_bits - re)) - (1u << f.man_bits);
  return sign | (static_cast<std::uint32_t>(re + f.bias) << f.man_bits) | man;
}

std::array<float, 256> build_e4m3() {
  std::array<float, 256> t{};
  for (int b = 0; b < 256; ++b) {
    const int exp = (b >> 3) & 0xf, man = b & 7;
    double v;
    if (exp == 15 && man == 7) v = std::nan("");
    else if (exp == 0) v = std::ldexp(man, -9);
    else v = std::ldexp(8 + man, exp - 10);
    t[b] = static_cast<float>((b & 0x80) ? -v : v);
  }
  return t;
}

std::array<float, 256> build_e5m2() {
  std::array<float, 256> t{};
  for (int b = 0; b < 256; ++b) {
    const int exp = (b >> 2) & 0x1f, man = b & 3;
    double v;
    if (exp == 31) v = man == 0 ? HUGE_VAL : std::nan("");
    else if (exp == 0) v = std::ldexp(man, -16);
    else v = std::ldexp(4 + man, exp - 17);
    t[b] = static_cast<float>((b & 0x80) ? -v : v);
  }
  return t;
}

}  // namespace

const float* f8e4m3_table() {
  static const std::array<float, 256> table = build_e4m3();
  return table.data();
}
const float* f8e5m2_table() {
  static const std::array<float, 256> table = build_e5m2();
  return table.data();
}
float f8e4m3_to_float(std::uint8_t b) { return f8e4m3_table()[b]; }
float f8e5m2_to_float(std::uint8_t b) { return f8e5m2_table()[b]; }

std::uint16_t float_to_f16(double x) { return static_cast<std::uint16_t>(encode(x, kF16)); }
std::uint16_t float_to_bf16(double x) { return static_cast<std::uint16_t>(encode(x, kBF16)); }
std::uint8_t float_to_f8e4m3(double x) { return static_cast<std::uint8_t>(encode(x, kE4M3)); }
std::uint8_t float_to_f8e5m2(double x) { return static_cast<std::uint8_t>(encode(x, kE5M2)); }

}  // namespace rubric::tensor
