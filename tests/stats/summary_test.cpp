// Summary statistics on samples with known answers (values as numpy gives them).
#include "operators/stats/summary.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "operators/error.hpp"

namespace st = rubric::stats;

TEST_CASE("median, mean and percentiles match numpy's defaults") {
  const std::vector<double> odd = {5, 1, 3}, even = {4, 1, 3, 2};
  CHECK(st::median(odd) == 3);
  CHECK(st::median(even) == 2.5);
  CHECK(st::mean(even) == 2.5);
  CHECK(st::percentile(even, 25) == doctest::Approx(1.75));  // np.percentile([1,2,3,4], 25)
  CHECK(st::percentile(even, 99) == doctest::Approx(3.97));
  CHECK(st::percentile(even, 0) == 1);
  CHECK(st::percentile(even, 100) == 4);
  CHECK(st::percentile({7}, 50) == 7);
}

TEST_CASE("sample standard deviation (ddof = 1) and coefficient of variation") {
  const std::vector<double> xs = {2, 4, 4, 4, 5, 5, 7, 9};
  CHECK(st::stdev(xs) == doctest::Approx(2.138089935299395));  // np.std(xs, ddof=1)
  CHECK(st::cv(xs) == doctest::Approx(2.138089935299395 / 5));
}

TEST_CASE("empty sets, NaN and bad arguments are OperatorErrors") {
  CHECK_THROWS_WITH_AS(st::median({}), "median needs at least 1 sample, got 0", rubric::OperatorError);
  CHECK_THROWS_WITH_AS(st::stdev({1}), "stdev needs at least 2 samples, got 1", rubric::OperatorError);
  CHECK_THROWS_WITH_AS(st::mean({1, NAN}), "mean: sample 1 is NaN", rubric::OperatorError);
  CHECK_THROWS_WITH_AS(st::percentile({1, 2}, 101), "percentile 101 is outside [0, 100]", rubric::OperatorError);
  CHECK_THROWS_AS(st::cv({-1, 1}), rubric::OperatorError);
}
