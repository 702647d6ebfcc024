#include <doctest/doctest.h>

#include "interpreter/units.hpp"

using namespace rubric;

TEST_CASE("unit text parses into scale and dimension") {
  auto u = parse_unit("GB/s");
  REQUIRE(u);
  CHECK(u->scale == 1e9);
  CHECK(u->dim == Dimension::of(Dimension::bytes) / Dimension::of(Dimension::time));
  CHECK(parse_unit("KB")->scale == 1000);
  CHECK(parse_unit("kB")->scale == 1000);
  CHECK(parse_unit("KiB")->scale == 1024);
  CHECK(parse_unit("TiB")->scale == 1099511627776.0);
  CHECK(parse_unit("\xC2\xB5s")->scale == doctest::Approx(1e-6));
  CHECK(parse_unit("us")->scale == doctest::Approx(1e-6));
  CHECK(parse_unit("min")->scale == 60);
  CHECK(parse_unit("PFLOP")->scale == 1e15);
  // Frequencies are 1/s: ncu's clock rates compare with a GHz literal.
  CHECK(parse_unit("GHz")->scale == 1e9);
  CHECK(parse_unit("kHz")->dim == Dimension::of(Dimension::time, -1));
  CHECK(format_quantity(1.75e9, Dimension::of(Dimension::time, -1)) == "1.75 GHz");
  CHECK(format_quantity(50, Dimension::of(Dimension::time, -1)) == "50 Hz");
  auto ms_tok = parse_unit("ms/tok");
  REQUIRE(ms_tok);
  CHECK(ms_tok->scale == doctest::Approx(1e-3));
  CHECK(dimension_name(ms_tok->dim) == "s/tok");
  CHECK(dimension_name(parse_unit("tok/s")->dim) == "tok/s");
  CHECK(dimension_name(parse_unit("TFLOP/s")->dim) == "FLOP/s");
  CHECK(dimension_name(parse_unit("B*tok")->dim) == "B*tok");
  std::string why;
  CHECK_FALSE(parse_unit("furlong", &why));
  CHECK(why == "unknown unit 'furlong'");
  CHECK_FALSE(parse_unit("", &why));
}

TEST_CASE("quantities print with a readable scale") {
  Dimension s = Dimension::of(Dimension::time), B = Dimension::of(Dimension::bytes), tok = Dimension::of(Dimension::tokens);
  CHECK(format_quantity(0.00123, s) == "1.23 ms");
  CHECK(format_quantity(2.5e-6, s) == "2.5 \xC2\xB5s");
  CHECK(format_quantity(3e-9, s) == "3 ns");
  CHECK(format_quantity(12.5, s) == "12.5 s");
  CHECK(format_quantity(1.25e10, B / s) == "12.5 GB/s");
  CHECK(format_quantity(4294967296.0, B) == "4 GiB");
  CHECK(format_quantity(2e9, B) == "2 GB");
  CHECK(format_quantity(11234.5, tok / s) == "11234.5 tok/s");
  CHECK(format_quantity(0.025, s / tok) == "25 ms/tok");
  CHECK(format_quantity(3.2e14, Dimension::of(Dimension::operations) / s) == "320 TFLOP/s");
  CHECK(format_quantity(32768, Dimension{}) == "32768");
  CHECK(format_quantity(1.0 / 3.0, Dimension{}) == "0.333333");
  CHECK(format_number(123456789) == "123456789");
  CHECK(format_number(0.05) == "0.05");
}

TEST_CASE("dimensions combine under * and /") {
  Dimension B = Dimension::of(Dimension::bytes), s = Dimension::of(Dimension::time);
  Dimension bw = B / s;
  CHECK(bw * s == B);
  CHECK((bw / bw).dimensionless());
  CHECK(dimension_description(Dimension{}) == "dimensionless");
  CHECK(dimension_name(s * s) == "s^2");
  CHECK(dimension_name(Dimension{} / s) == "1/s");
}

TEST_CASE("two sides of a comparison share one unit and enough digits to differ") {
  using rubric::format_quantity_pair;
  auto plain = format_quantity_pair(2097152, 2202009.6, rubric::Dimension{});
  CHECK(plain.first == "2097152");
  CHECK(plain.second == "2202009.6");  // not 2.20201e+06
  auto bytes = format_quantity_pair(2202009.6, 2097152, rubric::Dimension::of(rubric::Dimension::bytes));
  CHECK(bytes.first == "2.1 MiB");
  CHECK(bytes.second == "2 MiB");
  auto close = format_quantity_pair(10.000001, 10.0000001, rubric::Dimension{});
  CHECK(close.first == "10.000001");
  CHECK(close.second == "10.0000001");
  auto times = format_quantity_pair(0.0015, 2, rubric::Dimension::of(rubric::Dimension::time));
  CHECK(times.first == "1.5 ms");
  CHECK(times.second == "2000 ms");
  auto same = format_quantity_pair(11234.5, 11234.5, rubric::Dimension{});
  CHECK(same.first == same.second);
}
