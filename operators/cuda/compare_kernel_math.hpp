#pragma once
// Per-element arithmetic shared by the device comparison kernel and its host reference (the CPU
// stand-in backend): decoding every tensor::DType to double, the closeness rule, ULP distance and
// the partial statistics with their combine step. Compiled by nvcc (host + device) and by the host
// compiler, so both paths apply literally the same rule.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "operators/numerics/compare_stats.hpp"
#include "operators/numerics/integer_closeness.hpp"
#include "operators/tensor/dtype.hpp"

#if defined(__CUDACC__)
#define RUBRIC_HD __host__ __device__ __forceinline__
#else
#define RUBRIC_HD inline
#endif

namespace rubric::cuda::math {

using tensor::DType;

RUBRIC_HD double bits_to_double(std::uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
RUBRIC_HD double inf_value() { return bits_to_double(0x7FF0000000000000ull); }
RUBRIC_HD double nan_value() { return bits_to_double(0x7FF8000000000000ull); }

RUBRIC_HD double pow2(int e) {
  double r = 1.0;
  if (e >= 0)
    for (int i = 0; i < e; ++i) r *= 2.0;
  else
    for (int i = 0; i < -e; ++i) r *= 0.5;
  return r;
}

// Generic small-float decoder: `exp_bits`/`man_bits` layout with IEEE-style bias.
RUBRIC_HD double decode_minifloat(std::uint32_t bits, int exp_bits, int man_bits, bool ieee_special) {
  std::uint32_t sign = (bits >> (exp_bits + man_bits)) & 1u;
  std::uint32_t e = (bits >> man_bits) & ((1u << exp_bits) - 1u);
  std::uint32_t m = bits & ((1u << man_bits) - 1u);
  int bias = (1 << (exp_bits - 1)) - 1;
  double v;
  if (e == 0) {
    v = pow2(1 - bias) * (static_cast<double>(m) / static_cast<double>(1u << man_bits));
  } else if (ieee_special && e == (1u << exp_bits) - 1u) {
    v = m ? nan_value() : inf_value();
  } else {
    v = pow2(static_cast<int>(e) - bias) * (1.0 + static_cast<double>(m) / static_cast<double>(1u << man_bits));
  }
  return sign ? -v : v;
}

RUBRIC_HD float bits_to_float(std::uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// IEEE half to float by moving fields (exact; no loops): the device decodes at memory speed.
RUBRIC_HD float decode_f16(std::uint32_t h) {
  std::uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1F) return bits_to_float(sign | 0x7F800000u | (m << 13));   // inf, NaN
  if (e == 0) {                                                            // zero, subnormal: m × 2^-24
    float v = static_cast<float>(m) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bits_to_float(sign | ((e + 112u) << 23) | (m << 13));
}

RUBRIC_HD double decode_e4m3(std::uint8_t b) {
  // e4m3 (fn): no infinities; S.1111.111 is NaN, the rest of the top binade is finite.
  if ((b & 0x7F) == 0x7F) return nan_value();
  std::uint32_t sign = (b & 0x80u) << 24, e = (b >> 3) & 0xFu, m = b & 0x7u;
  if (e == 0) {  // m × 2^-9
    float v = static_cast<float>(m) * 0.001953125f;
    return sign ? -v : v;
  }
  return bits_to_float(sign | ((e + 120u) << 23) | (m << 20));
}

// Decodes an element's raw bits (in the low bytes of `bits`) to double.
RUBRIC_HD double decode_bits(std::uint64_t bits, DType t) {
  switch (t) {
    case DType::f64: return bits_to_double(bits);
    case DType::f32: { std::uint32_t u = static_cast<std::uint32_t>(bits); float f; memcpy(&f, &u, 4); return f; }
    case DType::f16: return decode_f16(static_cast<std::uint32_t>(bits & 0xFFFFu));
    case DType::bf16: {
      std::uint32_t w = static_cast<std::uint32_t>(bits & 0xFFFFu) << 16; float f; memcpy(&f, &w, 4); return f;
    }
    case DType::f8e4m3: return decode_e4m3(static_cast<std::uint8_t>(bits));
    case DType::f8e5m2: return decode_f16(static_cast<std::uint32_t>(bits & 0xFFu) << 8);  // a half's top byte
    case DType::i64: return static_cast<double>(static_cast<std::int64_t>(bits));
    case DType::i32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    case DType::i16: return static_cast<std::int16_t>(static_cast<std::uint16_t>(bits));
    case DType::i8: return static_cast<std::int8_t>(static_cast<std::uint8_t>(bits));
    case DType::u8: return static_cast<std::uint8_t>(bits);
    case DType::u64: return static_cast<double>(bits);
    case DType::boolean: return (bits & 0xFFu) ? 1.0 : 0.0;
  }
  return 0;
}

RUBRIC_HD int dtype_width_bits(DType t) {
  switch (t) {
    case DType::f64: case DType::i64: case DType::u64: return 64;
    case DType::f32: case DType::i32: return 32;
    case DType::f16: case DType::bf16: case DType::i16: return 16;
    default: return 8;
  }
}

RUBRIC_HD std::uint64_t raw_bits(const unsigned char* base, int width, std::uint64_t i) {
  std::uint64_t v = 0;
  memcpy(&v, base + (width / 8) * i, width / 8);
  return v;
}

RUBRIC_HD double load_as_double(const unsigned char* base, DType t, std::uint64_t i) {
  return decode_bits(raw_bits(base, dtype_width_bits(t), i), t);
}

// Sign-magnitude bits mapped onto a monotonic integer line (numpy's nulp_diff), for the float
// dtypes; `bits` holds the element's raw bits.
RUBRIC_HD std::int64_t ordered_bits(std::uint64_t bits, int width_bits) {
  std::uint64_t sign = 1ull << (width_bits - 1);
  std::int64_t mag = static_cast<std::int64_t>(bits & (sign - 1));
  return (bits & sign) ? -mag : mag;
}

RUBRIC_HD int float_width(DType t) {
  switch (t) {
    case DType::f64: return 64;
    case DType::f32: return 32;
    case DType::f16: case DType::bf16: return 16;
    case DType::f8e4m3: case DType::f8e5m2: return 8;
    default: return 0;
  }
}

// Rounds a finite double to the nearest (ties to even) value of a small float format and returns
// its bits. Out of range: infinity for IEEE-style formats, NaN (0x7F) for e4m3 (no infinity).
RUBRIC_HD std::uint64_t encode_minifloat(double v, int exp_bits, int man_bits, bool ieee_special) {
  std::uint64_t sign = v < 0 ? 1ull << (exp_bits + man_bits) : 0;
  double a = v < 0 ? -v : v;
  if (a == 0) return sign;
  int bias = (1 << (exp_bits - 1)) - 1, emin = 1 - bias, ex = 0;
  frexp(a, &ex);
  int e = ex - 1;  // a = 1.f × 2^e
  std::uint64_t bits;
  if (e < emin) {
    bits = static_cast<std::uint64_t>(rint(ldexp(a, man_bits - emin)));  // 2^man_bits here is the smallest normal
  } else {
    std::uint64_t q = static_cast<std::uint64_t>(rint(ldexp(a, man_bits - e)));
    if (q == (2ull << man_bits)) {
      q >>= 1;
      ++e;
    }
    bits = (static_cast<std::uint64_t>(e + bias) << man_bits) | (q - (1ull << man_bits));
  }
  std::uint64_t top = (1ull << exp_bits) - 1;
  if (ieee_special) {
    if ((bits >> man_bits) >= top) bits = top << man_bits;  // infinity
  } else if (bits > ((top << man_bits) | ((1ull << man_bits) - 2))) {
    bits = (top << man_bits) | ((1ull << man_bits) - 1);  // e4m3: beyond 448 is NaN
  }
  return sign | bits;
}

// b's value rounded into dtype t, as t's raw bits.
RUBRIC_HD std::uint64_t encode_bits(double v, DType t) {
  switch (t) {
    case DType::f64: { std::uint64_t u; memcpy(&u, &v, 8); return u; }
    case DType::f32: { float f = static_cast<float>(v); std::uint32_t u; memcpy(&u, &f, 4); return u; }
    case DType::f16: return encode_minifloat(v, 5, 10, true);
    case DType::bf16: return encode_minifloat(v, 8, 7, true);
    case DType::f8e4m3: return encode_minifloat(v, 4, 3, false);
    case DType::f8e5m2: return encode_minifloat(v, 5, 2, true);
    default: return 0;
  }
}

// ULP distance in a's dtype (numpy nulp_diff) for a finite pair: b is rounded to a's dtype first;
// for integer and bool dtypes it is the distance between the values.
RUBRIC_HD std::uint64_t ulp_distance(std::uint64_t bits_a, DType ta, std::uint64_t bits_b, DType tb, double va,
                                     double vb) {
  int w = float_width(ta);
  if (w == 0) {
    double d = va > vb ? va - vb : vb - va;
    return d >= 1.8e19 ? ~0ull : static_cast<std::uint64_t>(d);
  }
  std::uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
  std::int64_t ia = ordered_bits(bits_a & mask, w);
  std::int64_t ib = ordered_bits((ta == tb ? bits_b : encode_bits(vb, ta)) & mask, w);
  return static_cast<std::uint64_t>(ia > ib ? ia - ib : ib - ia);
}

RUBRIC_HD bool is_nan(double v) { return v != v; }
RUBRIC_HD bool is_inf(double v) { return v == inf_value() || v == -inf_value(); }

struct Partial {
  std::int64_t count = 0, mismatches = 0;
  double max_abs = 0; std::int64_t max_abs_index = -1;
  // An integer pair with an i64 or u64 side (integers = 1): the greatest difference exactly,
  // which ranks the maxima (max_abs is its rounding).
  int integers = 0; tensor::WideUnsigned max_abs_integer = 0;
  double max_rel = 0; std::int64_t max_rel_index = -1;
  std::int64_t first_mismatch_index = -1;
  std::int64_t nan_a = 0, nan_b = 0, inf_a = 0, inf_b = 0;
  double sum_sq_diff = 0, sum_sq_a = 0, sum_sq_b = 0, dot_ab = 0, max_abs_b = 0;
  std::uint64_t max_ulp = 0;
};

struct Rule {
  double rtol, atol;
  std::int64_t ulp;         // > 0: ULP mode
  bool nan_equal = false;   // NaN matches NaN (the worker's run-to-run re-checks; never `matches`)
  bool ulp_stats = true;    // compute max_ulp outside ULP mode too (costly: off for the device path)
};

// Larger value wins; on a tie the smaller index (what a sequential left-to-right pass reports).
RUBRIC_HD void take_max(double& best, std::int64_t& best_i, double v, std::int64_t i) {
  if (best_i < 0 || v > best || (v == best && i < best_i)) { best = v; best_i = i; }
}

// Larger exact difference wins, then the larger double (the float pairs, whose exact field stays
// 0), then the smaller index.
RUBRIC_HD void take_max_abs(Partial& p, tensor::WideUnsigned v_integer, double v, std::int64_t i) {
  if (p.max_abs_index < 0 || v_integer > p.max_abs_integer ||
      (v_integer == p.max_abs_integer && (v > p.max_abs || (v == p.max_abs && i < p.max_abs_index)))) {
    p.max_abs_integer = v_integer; p.max_abs = v; p.max_abs_index = i;
  }
}

RUBRIC_HD bool is_integer_dtype(DType t) { return float_width(t) == 0; }

// Two integer (or bool) dtypes of which one is i64 or u64: compared as integers (numerics'
// needs_integer_comparison), since a double has 53 bits.
RUBRIC_HD bool integer_pair(DType ta, DType tb) {
  return is_integer_dtype(ta) && is_integer_dtype(tb) &&
         (ta == DType::i64 || tb == DType::i64 || ta == DType::u64 || tb == DType::u64);
}

RUBRIC_HD tensor::WideInteger integer_value(std::uint64_t bits, DType t) {
  switch (t) {
    case DType::i64: return static_cast<std::int64_t>(bits);
    case DType::u64: return bits;
    case DType::i32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    case DType::i16: return static_cast<std::int16_t>(static_cast<std::uint16_t>(bits));
    case DType::i8: return static_cast<std::int8_t>(static_cast<std::uint8_t>(bits));
    case DType::u8: return static_cast<std::uint8_t>(bits);
    case DType::boolean: return (bits & 0xFFu) ? 1 : 0;
    default: return 0;  // not reached: integer_pair admits integers only
  }
}

// One integer pair, as numerics' compare_integers decides and measures it.
RUBRIC_HD void accumulate_integers(Partial& p, tensor::WideInteger x, tensor::WideInteger y, std::uint64_t i,
                                   const Rule& rule) {
  const tensor::WideUnsigned d = numerics::integer_distance(x, y), ay = numerics::integer_magnitude(y);
  const double ax = numerics::wide_to_double(numerics::integer_magnitude(x)), dy_abs = numerics::wide_to_double(ay);
  const double dd = numerics::wide_to_double(d), dx = x < 0 ? -ax : ax, dy = y < 0 ? -dy_abs : dy_abs;
  ++p.count;
  p.integers = 1;
  if (dy_abs > p.max_abs_b) p.max_abs_b = dy_abs;
  p.sum_sq_diff += dd * dd; p.sum_sq_a += dx * dx; p.sum_sq_b += dy * dy; p.dot_ab += dx * dy;
  take_max_abs(p, d, dd, static_cast<std::int64_t>(i));
  const double rel = numerics::integer_relative_difference(d, ay);
  if (rel > 0 || p.max_rel_index < 0) take_max(p.max_rel, p.max_rel_index, rel, static_cast<std::int64_t>(i));
  // An integer's ULP is 1; max_ulp saturates at 2^64 − 1 (max_abs_integer holds it exactly).
  const std::uint64_t ulps = (d >> 64) != 0 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(d);
  if (ulps > p.max_ulp) p.max_ulp = ulps;
  if (!numerics::integers_close(d, ay, rule.rtol, rule.atol, rule.ulp)) {
    ++p.mismatches;
    if (p.first_mismatch_index < 0 || static_cast<std::int64_t>(i) < p.first_mismatch_index)
      p.first_mismatch_index = static_cast<std::int64_t>(i);
  }
}

// One element pair, given as raw bits (low bytes) of dtypes ta and tb.
RUBRIC_HD void accumulate_bits(Partial& p, std::uint64_t bits_a, DType ta, std::uint64_t bits_b, DType tb,
                               std::uint64_t i, const Rule& rule) {
  if (integer_pair(ta, tb)) {
    accumulate_integers(p, integer_value(bits_a, ta), integer_value(bits_b, tb), i, rule);
    return;
  }
  double va = decode_bits(bits_a, ta), vb = decode_bits(bits_b, tb);
  ++p.count;
  bool nan_a = is_nan(va), nan_b = is_nan(vb), inf_a = is_inf(va), inf_b = is_inf(vb);
  p.nan_a += nan_a; p.nan_b += nan_b; p.inf_a += inf_a; p.inf_b += inf_b;
  if (!nan_b && !inf_b) {  // max |b| over finite b, whatever a holds
    double abs_b = vb < 0 ? -vb : vb;
    if (abs_b > p.max_abs_b) p.max_abs_b = abs_b;
  }
  bool close;
  if (nan_a || nan_b) {
    close = rule.nan_equal && nan_a && nan_b;
  } else if (inf_a || inf_b) {
    close = va == vb;
  } else {
    double diff = va > vb ? va - vb : vb - va;
    double abs_b = vb < 0 ? -vb : vb;
    std::uint64_t ulps = rule.ulp > 0 || rule.ulp_stats ? ulp_distance(bits_a, ta, bits_b, tb, va, vb) : 0;
    close = rule.ulp > 0 ? ulps <= static_cast<std::uint64_t>(rule.ulp) : diff <= rule.atol + rule.rtol * abs_b;
    p.sum_sq_diff += diff * diff; p.sum_sq_a += va * va; p.sum_sq_b += vb * vb; p.dot_ab += va * vb;
    if (diff > 0 || p.max_abs_index < 0) take_max_abs(p, 0, diff, static_cast<std::int64_t>(i));
    // The division only for a pair that can reach the running maximum: a cross-multiplication
    // screens the rest. The margin covers the product's rounding, so the quotient of every
    // screened-out pair rounds below max_rel and the result is exactly the undivided rule's.
    double screen = p.max_rel * abs_b * 0.999999999999;
    if (p.max_rel_index < 0 || !(diff < screen) || screen == inf_value()) {
      double rel = abs_b > 0 ? diff / abs_b : (diff == 0 ? 0.0 : inf_value());
      if (rel > 0 || p.max_rel_index < 0) take_max(p.max_rel, p.max_rel_index, rel, static_cast<std::int64_t>(i));
    }
    if (ulps > p.max_ulp) p.max_ulp = ulps;
  }
  if (!close) {
    ++p.mismatches;
    if (p.first_mismatch_index < 0 || static_cast<std::int64_t>(i) < p.first_mismatch_index)
      p.first_mismatch_index = static_cast<std::int64_t>(i);
  }
}

// accumulate_bits with both dtypes known at compile time: the decoding and width dispatch fold
// away (the device kernel and the stand-in are instantiated per dtype pair).
template <DType TA, DType TB>
RUBRIC_HD void accumulate_typed(Partial& p, std::uint64_t bits_a, std::uint64_t bits_b, std::uint64_t i,
                                const Rule& rule) {
  accumulate_bits(p, bits_a, TA, bits_b, TB, i, rule);
}

template <DType T>
inline constexpr int kWidthBytes = T == DType::f64 || T == DType::i64 || T == DType::u64 ? 8
                                   : T == DType::f32 || T == DType::i32                  ? 4
                                   : T == DType::f16 || T == DType::bf16 || T == DType::i16 ? 2
                                                                                         : 1;

RUBRIC_HD void accumulate(Partial& p, const unsigned char* a, DType ta, const unsigned char* b, DType tb,
                          std::uint64_t i, const Rule& rule) {
  accumulate_bits(p, raw_bits(a, dtype_width_bits(ta), i), ta, raw_bits(b, dtype_width_bits(tb), i), tb, i, rule);
}

RUBRIC_HD void combine(Partial& into, const Partial& o) {
  into.count += o.count; into.mismatches += o.mismatches;
  into.integers |= o.integers;
  if (o.max_abs_index >= 0) take_max_abs(into, o.max_abs_integer, o.max_abs, o.max_abs_index);
  if (o.max_rel_index >= 0) take_max(into.max_rel, into.max_rel_index, o.max_rel, o.max_rel_index);
  if (o.first_mismatch_index >= 0 &&
      (into.first_mismatch_index < 0 || o.first_mismatch_index < into.first_mismatch_index))
    into.first_mismatch_index = o.first_mismatch_index;
  into.nan_a += o.nan_a; into.nan_b += o.nan_b; into.inf_a += o.inf_a; into.inf_b += o.inf_b;
  into.sum_sq_diff += o.sum_sq_diff; into.sum_sq_a += o.sum_sq_a; into.sum_sq_b += o.sum_sq_b;
  into.dot_ab += o.dot_ab;
  if (o.max_abs_b > into.max_abs_b) into.max_abs_b = o.max_abs_b;
  if (o.max_ulp > into.max_ulp) into.max_ulp = o.max_ulp;
}

inline numerics::CompareStats to_stats(const Partial& p) {
  numerics::CompareStats s;
  s.count = p.count; s.mismatches = p.mismatches;
  s.max_abs = p.max_abs; s.max_abs_index = p.max_abs_index;
  s.max_rel = p.max_rel; s.max_rel_index = p.max_rel_index;
  s.first_mismatch_index = p.first_mismatch_index;
  s.nan_a = p.nan_a; s.nan_b = p.nan_b; s.inf_a = p.inf_a; s.inf_b = p.inf_b;
  s.sum_sq_diff = p.sum_sq_diff; s.sum_sq_a = p.sum_sq_a; s.sum_sq_b = p.sum_sq_b; s.dot_ab = p.dot_ab;
  s.max_abs_b = p.max_abs_b; s.max_ulp = p.max_ulp;
  s.integers = p.integers != 0; s.max_abs_integer = p.max_abs_integer;
  return s;
}

// Counter-based generator for fresh inputs: element i of draw `seed` is a pure function of both,
// so the device and the host produce the same values.
RUBRIC_HD std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1) for float dtypes, [0, 128) for integers, {0, 1} for bool; stored in `t`.
RUBRIC_HD void store_random(unsigned char* base, DType t, std::uint64_t i, std::uint64_t seed) {
  std::uint64_t r = splitmix64(seed * 0x2545F4914F6CDD1Dull + i);
  double u = static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
  std::uint64_t k = r % 128;
  switch (t) {
    case DType::f64: memcpy(base + 8 * i, &u, 8); break;
    case DType::f32: { float f = static_cast<float>(u); memcpy(base + 4 * i, &f, 4); break; }
    case DType::bf16: {
      float f = static_cast<float>(u); std::uint32_t w; memcpy(&w, &f, 4);
      std::uint16_t h = static_cast<std::uint16_t>(w >> 16); memcpy(base + 2 * i, &h, 2); break;
    }
    case DType::f16: {
      // |u| < 1: a normal half (or zero) built from the top mantissa bits, truncated.
      float f = static_cast<float>(u); std::uint32_t w; memcpy(&w, &f, 4);
      std::uint32_t sign = (w >> 16) & 0x8000u; int e = static_cast<int>((w >> 23) & 0xFF) - 127 + 15;
      std::uint16_t h = e <= 0 ? static_cast<std::uint16_t>(sign)
                               : static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(e) << 10) | ((w >> 13) & 0x3FFu));
      memcpy(base + 2 * i, &h, 2); break;
    }
    case DType::f8e4m3: case DType::f8e5m2: {
      // Small exact values: sign, exponent bias-1 (0.5..1 range) and random mantissa bits.
      std::uint8_t sign = (r >> 63) ? 0x80 : 0;
      base[i] = t == DType::f8e4m3 ? static_cast<std::uint8_t>(sign | (6u << 3) | (k & 7u))
                                   : static_cast<std::uint8_t>(sign | (14u << 2) | (k & 3u));
      break;
    }
    case DType::i64: { std::int64_t v = static_cast<std::int64_t>(k); memcpy(base + 8 * i, &v, 8); break; }
    case DType::u64: memcpy(base + 8 * i, &k, 8); break;
    case DType::i32: { std::int32_t v = static_cast<std::int32_t>(k); memcpy(base + 4 * i, &v, 4); break; }
    case DType::i16: { std::int16_t v = static_cast<std::int16_t>(k); memcpy(base + 2 * i, &v, 2); break; }
    case DType::i8: case DType::u8: base[i] = static_cast<std::uint8_t>(k); break;
    case DType::boolean: base[i] = static_cast<std::uint8_t>(k & 1u); break;
  }
}

}  // namespace rubric::cuda::math
