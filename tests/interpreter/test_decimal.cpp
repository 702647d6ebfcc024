#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "interpreter/decimal.hpp"
#include "interpreter/units.hpp"

using namespace rubric;

TEST_CASE("a double's decimal is the shortest that reads back; the way back rounds to nearest") {
  auto d = decimal::of(3.584e-6);
  REQUIRE(d);
  CHECK(static_cast<long long>(d->coefficient) == 3584);
  CHECK(d->exponent == -9);
  CHECK(decimal::to_double({3584, -9}) == 3.584e-6);
  CHECK(decimal::to_double({-5, -1}) == -0.5);
  CHECK_FALSE(decimal::of(std::numeric_limits<double>::quiet_NaN()));
  CHECK(std::isinf(decimal::to_double({1, 400})));
}

TEST_CASE("arithmetic on decimals is exact, then rounded once") {
  CHECK(decimal::mul(3584, 1e-9) == decimal::mul(3.584, 1e-6));  // 3584 ns and 3.584 us
  CHECK(decimal::mul(3, 1e-9) == decimal::mul(0.003, 1e-6));
  CHECK(3584 * 1e-9 != 3.584 * 1e-6);  // what IEEE multiplication alone gives
  CHECK(decimal::add(0.1, 0.2) == 0.3);
  CHECK(decimal::sub(0.3, 0.1) == 0.2);
  CHECK(decimal::div(1, 1e-3) == 1000);
  CHECK(decimal::div(0.3, 3) == 0.1);
  // No terminating decimal, or one too long: the IEEE operation.
  CHECK(decimal::div(1, 3) == 1.0 / 3);
  CHECK(decimal::add(1e300, 1e-300) == 1e300);
}

TEST_CASE("a sum of integer nanoseconds is the integer, and prints as it is") {
  decimal::Sum s;
  for (double ns : {1000001.0, 2000003.0, 424833.0}) s.add(decimal::mul(ns, 1e-9));
  CHECK(s.value() == decimal::mul(3424837, 1e-9));
  CHECK(format_quantity(s.value(), Dimension::of(Dimension::time)) == "3.424837 ms");
  decimal::Sum inf;
  inf.add(1);
  inf.add(std::numeric_limits<double>::infinity());
  CHECK(inf.value() == std::numeric_limits<double>::infinity());
}

TEST_CASE("short decimals print in full, long ones to 6 digits") {
  CHECK(*decimal::shortest_digits(3.424837, 12) == "3.424837");
  CHECK(*decimal::shortest_digits(-0.00012, 12) == "-0.00012");
  CHECK(*decimal::shortest_digits(1.5e-7, 12) == "1.5e-07");
  CHECK(*decimal::shortest_digits(1200, 12) == "1200");
  CHECK_FALSE(decimal::shortest_digits(1.0 / 3, 12));
  CHECK(format_number(1.0 / 3) == "0.333333");
  CHECK(format_number(0.9999999999999998, 17) == "0.9999999999999998");
}
