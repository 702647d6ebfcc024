// int64 and uint64 tensors compare as integers, not through double (torch.testing's rule for int64).
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "operators/error.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_axis.hpp"
#include "operators/numerics/evidence.hpp"
#include "operators/numerics/mismatch_grid.hpp"

using namespace rubric::numerics;
using rubric::tensor::DType;
using rubric::tensor::Tensor;

namespace {

template <typename T>
Tensor integers(DType dtype, const std::vector<T>& v, rubric::tensor::Shape shape = {}) {
  std::vector<std::byte> bytes(v.size() * sizeof(T));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  if (shape.empty()) shape = {static_cast<std::int64_t>(v.size())};
  return Tensor::from_bytes(dtype, shape, std::move(bytes), "test");
}

constexpr std::int64_t kBig = std::int64_t{1} << 53;

}  // namespace

TEST_CASE("2^53 and 2^53 + 1 differ at tolerance 0; the difference is exact") {
  const Tensor a = integers<std::int64_t>(DType::i64, {kBig + 1, 5, std::numeric_limits<std::int64_t>::max()});
  const Tensor b = integers<std::int64_t>(DType::i64, {kBig, 5, std::numeric_limits<std::int64_t>::min()});
  const CompareStats s = compare(a, b, {0, 0, 0});
  CHECK(s.integers);
  CHECK(s.mismatches == 2);
  CHECK(s.first_mismatch_index == 0);
  CHECK(s.max_abs_integer == std::numeric_limits<std::uint64_t>::max());
  CHECK(s.max_abs_index == 2);
  CHECK(compare(a, a, {0, 0, 0}).mismatches == 0);
  CHECK(compare(a, b, {0, 0, 1}).mismatches == 1);  // a ULP of an integer is 1
  const std::vector<std::string> lines = comparison_evidence(s, a.shape(), {0, 0, 0});
  CHECK(lines.at(1).find("18446744073709551615") != std::string::npos);
}

TEST_CASE("the bound is compared with the exact difference: 2^53 + 1 exceeds an atol of 2^53") {
  const Tensor a = integers<std::int64_t>(DType::i64, {kBig + 1, kBig});
  const Tensor b = integers<std::int64_t>(DType::i64, {0, 0});
  CHECK(compare(a, b, {0, 0x1p53, 0}).mismatches == 1);  // through double both would be 2^53
  CHECK(compare(a, b, {0, 0x1p53, 0}).first_mismatch_index == 0);
  CHECK(compare(a, b, {0, 0x1p54, 0}).mismatches == 0);
}

TEST_CASE("per-axis comparison and the mismatch map decide int64 pairs as integers") {
  // Rows: an off-by-one past 2^53, equal extremes, a difference of 2 at 2^53 (rounds like 1).
  const Tensor a = integers<std::int64_t>(DType::i64, {kBig + 1, 1, 2, std::numeric_limits<std::int64_t>::min(), 0, 9, 3, 4, kBig + 2}, {3, 3});
  const Tensor b = integers<std::int64_t>(DType::i64, {kBig, 1, 2, std::numeric_limits<std::int64_t>::min(), 0, 9, 3, 4, kBig}, {3, 3});
  const AxisStats rows = compare_along(a, b, {1}, {0, 0, 0});
  REQUIRE(rows.stats.size() == 3);
  CHECK(rows.stats[0].integers);
  CHECK(rows.stats[0].mismatches == 1);
  CHECK(rows.stats[0].max_abs_integer == 1);
  CHECK(rows.stats[1].mismatches == 0);
  CHECK(rows.stats[2].max_abs_integer == 2);
  const AxisStats columns = compare_along(a, b, {0}, {0, 0, 0}, 1);  // strided: gathered per column
  CHECK(columns.stats[0].mismatches == 1);
  CHECK(columns.stats[1].mismatches == 0);
  CHECK(columns.stats[2].max_abs_integer == 2);

  const auto grid = mismatch_grid(a, b, {0, 0, 0});
  REQUIRE(grid);
  CHECK(grid->mismatches == std::vector<std::uint64_t>{1, 0, 0, 0, 0, 0, 0, 0, 1});
  CHECK(mismatch_grid(a, b, {0, 2, 0})->mismatches == std::vector<std::uint64_t>(9, 0));
}

TEST_CASE("int32 against int64 compares as integers; a tolerance still applies") {
  const Tensor a = integers<std::int32_t>(DType::i32, {1000, -7});
  const Tensor b = integers<std::int64_t>(DType::i64, {1010, -7});
  CHECK(compare(a, b, {0.01, 0, 0}).mismatches == 0);
  CHECK(compare(a, b, {0.009, 0, 0}).mismatches == 1);
  CHECK(compare(a, b, {0, 10, 0}).mismatches == 0);
}

TEST_CASE("an infinite or NaN tolerance is refused, as a negative one") {
  const Tensor a = integers<std::int64_t>(DType::i64, {1});
  CHECK_THROWS_AS(compare(a, a, {0, std::numeric_limits<double>::infinity(), 0}), rubric::OperatorError);
  CHECK_THROWS_AS(compare(a, a, {std::numeric_limits<double>::quiet_NaN(), 0, 0}), rubric::OperatorError);
}

TEST_CASE("evidence prints a tolerance with the digits that tell it from its neighbours") {
  CompareStats s;
  s.count = 1;
  s.max_abs = 1;
  s.max_abs_index = 0;
  const std::vector<std::string> lines = comparison_evidence(s, {1}, {0, 0.9999999999999998, 0});
  CHECK(lines.at(1) == "Greatest absolute difference: 1 at (0,) (up to 0.9999999999999998 + 0·|ref| allowed)");
  s.max_abs = 1.0000000000000002;
  CHECK(comparison_evidence(s, {1}, {0, 1, 0}).at(1).find("1.0000000000000002 at") != std::string::npos);
}

TEST_CASE("uint64 compares as integers: 2^64 - 1 and 2^64 - 2 differ (one double), evidence exact") {
  constexpr std::uint64_t kTop = std::numeric_limits<std::uint64_t>::max();
  const Tensor a = integers<std::uint64_t>(DType::u64, {kTop, 7, std::uint64_t{1} << 63});
  const Tensor b = integers<std::uint64_t>(DType::u64, {kTop - 1, 7, 0});
  const CompareStats s = compare(a, b, {0, 0, 0});
  CHECK(s.integers);
  CHECK(s.mismatches == 2);
  CHECK(s.first_mismatch_index == 0);
  CHECK(s.max_abs_integer == std::uint64_t{1} << 63);
  CHECK(s.max_abs_index == 2);
  CHECK(compare(a, b, {0, 0, 1}).mismatches == 1);
  CHECK(comparison_evidence(s, a.shape(), {0, 0, 0}).at(1).find("9223372036854775808 at (2,)") != std::string::npos);
  // The bound is compared with the exact difference past 2^64 too.
  CHECK(compare(a, b, {0, 0x1p63, 0}).mismatches == 0);
  CHECK(compare(a, b, {0, 0x1p62, 0}).first_mismatch_index == 2);
}

TEST_CASE("uint64 beside int64: values past 2^63 against negatives, differences past 64 bits, exactly") {
  constexpr std::uint64_t kTop = std::numeric_limits<std::uint64_t>::max();
  constexpr std::int64_t kBottom = std::numeric_limits<std::int64_t>::min();
  // 2^63 (u64) is not -2^63 (i64), the same 64 bits; 2^64 - 1 is not -1; 2^53 + 1 is not 2^53.
  const Tensor a = integers<std::uint64_t>(DType::u64, {std::uint64_t{1} << 63, kTop, (std::uint64_t{1} << 53) + 1, 5, kTop});
  const Tensor b = integers<std::int64_t>(DType::i64, {kBottom, -1, kBig, 5, kBottom});
  const CompareStats s = compare(a, b, {0, 0, 0});
  CHECK(s.integers);
  CHECK(s.mismatches == 4);
  CHECK(s.max_abs_index == 4);
  // 2^64 - 1 + 2^63 = 27670116110564327423, past 64 bits.
  CHECK(comparison_evidence(s, a.shape(), {0, 0, 0}).at(1).find("27670116110564327423 at (4,)") != std::string::npos);
  CHECK(comparison_evidence(s, a.shape(), {0, 0, 1}).at(1).find("Greatest ULP difference: 27670116110564327423") !=
        std::string::npos);
  // The same pairs the other way round, and a bound between 2^64 and 2^65 compared exactly.
  CHECK(compare(b, a, {0, 0, 0}).mismatches == 4);
  CHECK(compare(a, b, {0, 0x1p64 + 0x1p63, 0}).mismatches == 0);          // 2^64 + 2^63 ≥ every difference
  CHECK(compare(a, b, {0, 0x1p64 + 0x1p62, 0}).first_mismatch_index == 4);  // only the last pair exceeds it
  const auto grid = mismatch_grid(a, b, {0, 0, 0});
  REQUIRE(grid);
  CHECK(grid->mismatches == std::vector<std::uint64_t>{1, 1, 1, 0, 1, 0});
}
