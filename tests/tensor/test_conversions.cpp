// Narrow float formats, cast, random and index formatting.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "operators/error.hpp"
#include "operators/tensor/cast.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/index_format.hpp"
#include "operators/tensor/minifloat.hpp"
#include "operators/tensor/random.hpp"

using namespace rubric::tensor;

TEST_CASE("every f16, bf16 and fp8 bit pattern survives decode then encode") {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const float h = f16_to_float(static_cast<std::uint16_t>(b));
    if (!std::isnan(h)) REQUIRE(float_to_f16(h) == b);
    const float g = bf16_to_float(static_cast<std::uint16_t>(b));
    if (!std::isnan(g)) REQUIRE(float_to_bf16(g) == b);
  }
  for (std::uint32_t b = 0; b < 256; ++b) {
    const float e4 = f8e4m3_to_float(static_cast<std::uint8_t>(b));
    if (!std::isnan(e4)) REQUIRE(float_to_f8e4m3(e4) == b);
    const float e5 = f8e5m2_to_float(static_cast<std::uint8_t>(b));
    if (!std::isnan(e5)) REQUIRE(float_to_f8e5m2(e5) == b);
  }
  CHECK(f16_to_float(0x3c00) == 1.0f);
  CHECK(f16_to_float(0x7bff) == 65504.0f);
  CHECK(f16_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(f8e4m3_to_float(0x7e) == 448.0f);
  CHECK(std::isnan(f8e4m3_to_float(0x7f)));
  CHECK(f8e5m2_to_float(0x7b) == 57344.0f);
  CHECK(std::isinf(f8e5m2_to_float(0x7c)));
}

TEST_CASE("encoding rounds to nearest even and handles overflow per format") {
  CHECK(float_to_f16(1.0 + std::ldexp(1.0, -11)) == 0x3c00);      // tie → even (down)
  CHECK(float_to_f16(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3c02);  // tie → even (up)
  CHECK(float_to_f16(1.0 + std::ldexp(1.0, -11) + 1e-12) == 0x3c01);
  CHECK(float_to_f16(65519.0) == 0x7bff);
  CHECK(float_to_f16(65520.0) == 0x7c00);  // rounds past the largest finite → inf
  CHECK(float_to_f16(-1e6) == 0xfc00);
  CHECK(float_to_f16(std::ldexp(1.0, -25)) == 0x0000);  // half the smallest subnormal: tie → 0
  CHECK(float_to_f16(std::ldexp(1.5, -25)) == 0x0001);
  CHECK(float_to_bf16(1.0 + std::ldexp(1.0, -8)) == 0x3f80);
  CHECK(float_to_bf16(1.0 + 3 * std::ldexp(1.0, -8)) == 0x3f82);
  CHECK(float_to_bf16(1e39) == 0x7f80);
  CHECK(float_to_f8e4m3(500.0) == 0x7e);   // saturates to 448
  CHECK(float_to_f8e4m3(-1e30) == 0xfe);
  CHECK(float_to_f8e4m3(INFINITY) == 0x7f);  // no infinity in e4m3: NaN
  CHECK(float_to_f8e4m3(1.0625) == 0x38);  // tie between 1 and 1.125 → 1
  CHECK(float_to_f8e5m2(60000.0) == 0x7b);
  CHECK(float_to_f8e5m2(62000.0) == 0x7c);  // past the midpoint to 2^16 → inf
  CHECK(float_to_f8e5m2(-INFINITY) == 0xfc);
  CHECK(float_to_f16(-0.0) == 0x8000);
}

TEST_CASE("cast converts through double with the documented rules") {
  const Tensor x = Tensor::from_bytes(DType::f64, {5}, [] {
    std::vector<std::byte> b(40);
    const double v[5] = {1.5, -300.7, 1e10, NAN, 65520.0};
    std::memcpy(b.data(), v, 40);
    return b;
  }(), "x");
  const Tensor h = cast(x, DType::f16);
  CHECK(h.dtype() == DType::f16);
  CHECK(h.at(0) == 1.5);
  CHECK(h.at(1) == -300.75);
  CHECK(std::isinf(h.at(2)));
  CHECK(std::isnan(h.at(3)));
  CHECK(std::isinf(h.at(4)));
  const Tensor i = cast(x, DType::i8);
  CHECK(i.at(0) == 1);
  CHECK(i.at(1) == -128);
  CHECK(i.at(2) == 127);
  CHECK(i.at(3) == 0);
  const Tensor e = cast(x, DType::f8e4m3);
  CHECK(e.at(1) == -288);  // nearest e4m3 to -300.7 (256 + 32)
  CHECK(e.at(2) == 448);
  CHECK(cast(x, DType::boolean).at(3) == 1);
}

TEST_CASE("random is deterministic, seeded and on the documented grid") {
  // Pinned words: the generator must give these on every machine.
  CHECK(random_word(0, 0) == 0xe220a8397b1dcdafull);
  CHECK(random_word(42, 7) != random_word(43, 7));
  const Tensor a = random_tensor({1000, 1000}, DType::f32, 7);
  const Tensor b = random_tensor({1000, 1000}, DType::f32, 7);
  const Tensor c = random_tensor({1000, 1000}, DType::f32, 8);
  CHECK(std::memcmp(a.data(), b.data(), 4'000'000) == 0);
  CHECK(std::memcmp(a.data(), c.data(), 4'000'000) != 0);
  double sum = 0, sum_sq = 0, lo = 1, hi = -1;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    const double v = a.at(i);
    sum += v;
    sum_sq += v * v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    REQUIRE(v * 8388608.0 == std::floor(v * 8388608.0));  // multiples of 2^-23
  }
  CHECK(lo >= -1);
  CHECK(hi < 1);
  CHECK(std::fabs(sum / 1e6) < 0.005);
  CHECK(std::fabs(sum_sq / 1e6 - 1.0 / 3) < 0.005);  // uniform on [-1, 1): variance 1/3
  for (DType t : {DType::f16, DType::bf16, DType::f8e4m3, DType::f8e5m2, DType::f64}) {
    const Tensor r = random_tensor({4096}, t, 1);
    for (std::int64_t i = 0; i < r.size(); ++i) REQUIRE((r.at(i) >= -1 && r.at(i) < 1));
  }
  const Tensor ints = random_tensor({4096}, DType::i32, 1);
  for (std::int64_t i = 0; i < ints.size(); ++i) REQUIRE(std::fabs(ints.at(i)) <= 16777216);
  const Tensor bits = random_tensor({4096}, DType::boolean, 1);
  double ones = 0;
  for (std::int64_t i = 0; i < bits.size(); ++i) ones += bits.at(i);
  CHECK(std::fabs(ones / 4096 - 0.5) < 0.05);
  CHECK_THROWS_AS(random_tensor({-1, 3}, DType::f32, 0), rubric::OperatorError);
  CHECK_THROWS_AS(random_tensor({1 << 30, 1 << 30, 1 << 30}, DType::f32, 0), rubric::OperatorError);
}

TEST_CASE("flat indices print as Python tuples") {
  CHECK(format_index({4, 2048}, 3 * 2048 + 1777) == "(3, 1777)");
  CHECK(format_index({7}, 5) == "(5,)");
  CHECK(format_index({}, 0) == "()");
  CHECK(format_index({2, 3, 4}, 23) == "(1, 2, 3)");
  CHECK(format_shape({256, 1}) == "(256, 1)");
  CHECK_THROWS_AS(format_index({2, 2}, 4), rubric::OperatorError);
}

TEST_CASE("block decoding gives the same values as element decoding for every f16 and bf16 pattern") {
  for (DType t : {DType::f16, DType::bf16}) {
    std::vector<std::byte> bytes(65536 * 2);
    for (std::uint32_t b = 0; b < 65536; ++b) {
      const auto v = static_cast<std::uint16_t>(b);
      std::memcpy(bytes.data() + 2 * b, &v, 2);
    }
    const Tensor all = Tensor::from_bytes(t, {65536}, bytes, "all patterns");
    std::vector<double> block(65536);
    decode_block(all, 0, 65536, block.data());
    for (std::uint32_t b = 0; b < 65536; ++b) {
      const double want = t == DType::f16 ? f16_to_float(static_cast<std::uint16_t>(b)) : bf16_to_float(static_cast<std::uint16_t>(b));
      REQUIRE(((std::isnan(want) && std::isnan(block[b])) || (want == block[b] && std::signbit(want) == std::signbit(block[b]))));
    }
  }
}

TEST_CASE("casts between integer dtypes are exact and saturate, u64 and i64 past 2^53 included") {
  const std::vector<std::uint64_t> wide{UINT64_MAX, (std::uint64_t{1} << 53) + 1, std::uint64_t{1} << 63, 5};
  std::vector<std::byte> bytes(wide.size() * 8);
  std::memcpy(bytes.data(), wide.data(), bytes.size());
  const Tensor u = Tensor::from_bytes(DType::u64, {4}, std::move(bytes), "u");
  const Tensor i = cast(u, DType::i64);
  CHECK(integer_element(i, 0) == INT64_MAX);                        // saturated, not wrapped to -1
  CHECK(integer_element(i, 1) == (WideInteger{1} << 53) + 1);      // not rounded to 2^53
  CHECK(integer_element(i, 2) == INT64_MAX);
  const Tensor back = cast(cast(i, DType::u64), DType::u64);
  CHECK(integer_element(back, 1) == (WideInteger{1} << 53) + 1);
  CHECK(integer_element(cast(u, DType::u8), 3) == 5);
  CHECK(integer_element(cast(u, DType::u8), 0) == 255);
  CHECK(integer_element(cast(u, DType::boolean), 3) == 1);
  // A negative i64 into u64 saturates at 0; a float into u64 goes through double as before.
  std::vector<std::byte> neg(8);
  const std::int64_t minus = -3;
  std::memcpy(neg.data(), &minus, 8);
  CHECK(integer_element(cast(Tensor::from_bytes(DType::i64, {1}, std::move(neg), "n"), DType::u64), 0) == 0);
  CHECK(cast(u, DType::f64).at(1) == 0x1p53);
}
