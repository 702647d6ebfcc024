// Mann-Whitney U, Hodges-Lehmann and the bootstrap median interval cross-checked with SciPy
// (/usr/bin/python3 runs scipy_reference.py on the same samples).
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "operators/error.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/stats/bootstrap.hpp"
#include "operators/stats/hodges_lehmann.hpp"
#include "operators/stats/mann_whitney.hpp"
#include "operators/stats/random.hpp"
#include "operators/stats/summary.hpp"
#include "tests/shell_quote.hpp"

namespace st = rubric::stats;

namespace {

struct Case {
  std::vector<double> x, y;
  const char* method;  // what SciPy's method='auto' picks
};

std::vector<double> draw(std::size_t n, double mean, double sd, std::uint64_t seed, bool integers = false) {
  st::Random rng(seed);
  std::vector<double> xs(n);
  for (double& v : xs) {
    v = mean + sd * rng.normal();
    if (integers) v = std::round(v);
  }
  return xs;
}

std::vector<Case> make_cases() {
  return {
      {draw(5, 10, 2, 1), draw(7, 12, 2, 2), "exact"},              // small, no ties
      {draw(8, 10, 2, 3), draw(30, 10.5, 2, 4), "exact"},           // one side at 8
      {draw(20, 10, 2, 5, true), draw(25, 11, 2, 6, true), "asymptotic"},  // ties
      {draw(200, 100, 10, 7), draw(300, 102, 10, 8), "asymptotic"},
      {draw(51, 1000, 30, 9), draw(40, 980, 30, 10), "asymptotic"},
  };
}

rubric::json::Value scipy_results(const std::vector<Case>& cases) {
  const std::string dir = fmt::format("/tmp/rubric-stats-test-{}", ::getpid());
  std::system(fmt::format("mkdir -p {}", dir).c_str());
  {
    std::ofstream in(dir + "/cases.json");
    in << "{\"cases\": [";
    for (std::size_t i = 0; i < cases.size(); ++i)
      in << fmt::format("{}{{\"x\": [{:.17g}], \"y\": [{:.17g}]}}", i ? "," : "", fmt::join(cases[i].x, ", "),
                        fmt::join(cases[i].y, ", "));
    in << "]}";
  }
  const std::string cmd = fmt::format("/usr/bin/python3 {} {} {}", rubric::test::shell_quote(RUBRIC_STATS_TEST_DIR "/scipy_reference.py"),
                                      rubric::test::shell_quote(dir + "/cases.json"), rubric::test::shell_quote(dir + "/out.json"));
  REQUIRE(std::system(cmd.c_str()) == 0);
  auto out = rubric::json::read_file(dir + "/out.json");
  std::system(fmt::format("rm -rf {}", dir).c_str());
  return out;
}

}  // namespace

TEST_CASE("Mann-Whitney U, Hodges-Lehmann and bootstrap median intervals agree with SciPy") {
  const auto cases = make_cases();
  const auto ref = scipy_results(cases);
  const auto& results = ref.find("results")->as_array();
  REQUIRE(results.size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    const auto& r = results[i];
    auto mwu = st::mann_whitney_u(cases[i].x, cases[i].y);
    CHECK(mwu.method == cases[i].method);
    CHECK(mwu.u == r.find("u")->as_number());
    CHECK(mwu.p_value == doctest::Approx(r.find("p")->as_number()).epsilon(1e-9));

    auto hl = st::hodges_lehmann_shift(cases[i].x, cases[i].y);
    CHECK(hl.estimate == doctest::Approx(r.find("hl")->as_number()).epsilon(1e-12));
    CHECK(hl.lo <= hl.estimate);
    CHECK(hl.hi >= hl.estimate);

    // Different generators: agree within a quarter of the interval's width.
    auto iv = st::median_interval(cases[i].x, 0.95, 0);
    const double lo = r.find("median_lo")->as_number(), hi = r.find("median_hi")->as_number();
    const double tol = 0.25 * (hi - lo);
    CHECK(std::fabs(iv.lo - lo) <= tol);
    CHECK(std::fabs(iv.hi - hi) <= tol);
  }
}

TEST_CASE("Mann-Whitney on identical and on fully separated samples") {
  std::vector<double> a = {1, 2, 3, 4, 5}, b = {6, 7, 8, 9, 10};
  auto sep = st::mann_whitney_u(a, b);
  CHECK(sep.method == "exact");
  CHECK(sep.u == 0);
  CHECK(sep.p_value == doctest::Approx(2.0 / 252));  // 2 / C(10, 5)
  auto same = st::mann_whitney_u({3, 3, 3}, {3, 3, 3});
  CHECK(same.p_value == 1.0);
  CHECK_THROWS_AS(st::mann_whitney_u({}, {1}), rubric::OperatorError);
}

TEST_CASE("Hodges-Lehmann on large samples without materialising differences") {
  auto x = draw(10000, 105, 10, 21), y = draw(10000, 100, 10, 22);
  auto hl = st::hodges_lehmann_shift(x, y);
  CHECK(hl.estimate == doctest::Approx(5).epsilon(0.05));
  CHECK(hl.lo < hl.estimate);
  CHECK(hl.hi > hl.estimate);
  CHECK(hl.hi - hl.lo < 1.0);
  // k-th difference agrees with brute force on a small case.
  std::vector<double> xs = {1, 4, 9}, ys = {0, 2, 3, 7};
  std::vector<double> all;
  for (double a : xs)
    for (double b : ys) all.push_back(a - b);
  std::sort(all.begin(), all.end());
  for (std::uint64_t k = 1; k <= all.size(); ++k) CHECK(st::kth_pairwise_difference(xs, ys, k) == all[k - 1]);
}
