// int64 tensors compare as integers, not through double (torch.testing's rule).
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "operators/error.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/evidence.hpp"

using namespace rubric::numerics;
using rubric::tensor::DType;
using rubric::tensor::Tensor;

namespace {

template <typename T>
Tensor integers(DType dtype, const std::vector<T>& v) {
  std::vector<std::byte> bytes(v.size() * sizeof(T));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return Tensor::from_bytes(dtype, {static_cast<std::int64_t>(v.size())}, std::move(bytes), "test");
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
