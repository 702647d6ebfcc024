// The bootstrap: resampled medians have the exact resampling distribution, intervals are seeded,
// and the decision helper says PASS, FAIL or INCONCLUSIVE on synthetic samples with known answers.
#include "operators/stats/bootstrap.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "operators/error.hpp"
#include "operators/stats/decision.hpp"
#include "operators/stats/random.hpp"
#include "operators/stats/summary.hpp"

namespace st = rubric::stats;

namespace {

std::vector<double> normal_samples(std::size_t n, double mean, double sd, std::uint64_t seed) {
  st::Random rng(seed);
  std::vector<double> xs(n);
  for (double& x : xs) x = mean + sd * rng.normal();
  return xs;
}

// Exact distribution of a resample's median, by enumerating all n^n resamples.
std::map<double, double> enumerate_resample_medians(const std::vector<double>& xs) {
  const std::size_t n = xs.size();
  std::size_t total = 1;
  for (std::size_t i = 0; i < n; ++i) total *= n;
  std::map<double, double> dist;
  std::vector<double> r(n);
  for (std::size_t code = 0; code < total; ++code) {
    std::size_t c = code;
    for (std::size_t i = 0; i < n; ++i, c /= n) r[i] = xs[c % n];
    dist[st::median(r)] += 1.0 / double(total);
  }
  return dist;
}

// Replicate medians as bootstrap_interval draws them (the quantity sees each replicate).
std::map<double, double> sampled_resample_medians(const std::vector<double>& xs, int replicates) {
  std::map<double, double> dist;
  bool first = true;  // the first call is on the original sample
  st::bootstrap_interval({&xs}, [&](const std::vector<double>& m) {
    if (!first) dist[m[0]] += 1.0 / replicates;
    first = false;
    return m[0];
  }, 0.95, 42, replicates);
  return dist;
}

double ratio(const std::vector<double>& m) { return m[0] / m[1]; }

}  // namespace

TEST_CASE("resampled medians follow the exact bootstrap distribution (odd and even n)") {
  for (const std::vector<double>& xs : {std::vector<double>{3, 1, 4, 15, 9}, std::vector<double>{2, 7, 1, 8}}) {
    auto exact = enumerate_resample_medians(xs);
    auto drawn = sampled_resample_medians(xs, 200000);
    for (const auto& [value, p] : exact) CHECK(std::fabs(drawn[value] - p) < 0.006);
    for (const auto& [value, p] : drawn) CHECK(exact.count(value) == 1);  // no value outside the support
  }
}

TEST_CASE("the interval contains the estimate, and the same seed gives the same interval") {
  auto xs = normal_samples(40, 100, 5, 1);
  auto a = st::median_interval(xs, 0.95, 7);
  auto b = st::median_interval(xs, 0.95, 7);
  CHECK(a.estimate == st::median(xs));
  CHECK(a.lo <= a.estimate);
  CHECK(a.hi >= a.estimate);
  CHECK(a.lo == b.lo);
  CHECK(a.hi == b.hi);
  auto narrow = st::median_interval(xs, 0.5, 7);
  CHECK(narrow.hi - narrow.lo < a.hi - a.lo);
  // Medians of 40 samples take few distinct values; a ratio of two sets shows the seed's effect.
  auto ys = normal_samples(40, 50, 5, 2);
  auto r7 = st::bootstrap_interval({&xs, &ys}, ratio, 0.95, 7);
  auto again = st::bootstrap_interval({&xs, &ys}, ratio, 0.95, 7);
  auto r8 = st::bootstrap_interval({&xs, &ys}, ratio, 0.95, 8);
  CHECK(r7.lo == again.lo);
  CHECK(r7.hi == again.hi);
  CHECK((r7.lo != r8.lo || r7.hi != r8.hi));
  CHECK(r7.estimate == doctest::Approx(st::median(xs) / st::median(ys)));
}

TEST_CASE("a ratio of medians: clear pass, clear fail, and straddling cases") {
  auto base = normal_samples(30, 1000, 10, 11);
  const double bound = 0.95;  // cand / base >= 0.95 passes

  SUBCASE("within 1%: PASS") {
    auto cand = normal_samples(30, 990, 10, 12);
    auto iv = st::bootstrap_interval({&cand, &base}, ratio, 0.95, 0);
    auto d = st::decide(iv, bound, st::PassingSide::AtLeast, 30);
    CHECK(d.verdict == st::Verdict::Pass);
    CHECK(d.explanation.find("wholly on the passing side of >= 0.95") != std::string::npos);
  }
  SUBCASE("8% lower: FAIL") {
    auto cand = normal_samples(30, 920, 10, 13);
    auto iv = st::bootstrap_interval({&cand, &base}, ratio, 0.95, 0);
    CHECK(iv.hi < bound);
    CHECK(st::decide(iv, bound, st::PassingSide::AtLeast, 30).verdict == st::Verdict::Fail);
  }
  SUBCASE("noisy and near the bound: INCONCLUSIVE with a sample estimate") {
    auto cand = normal_samples(10, 960, 60, 14);
    auto iv = st::bootstrap_interval({&cand, &base}, ratio, 0.95, 0);
    auto d = st::decide(iv, bound, st::PassingSide::AtLeast, 10);
    CHECK(d.verdict == st::Verdict::Inconclusive);
    CHECK(d.settleable);
    CHECK(d.samples_needed > 10);
    CHECK(d.explanation.find("straddles the bound 0.95") != std::string::npos);
    // The same seed gives the same verdict and the same advice.
    auto again = st::decide(st::bootstrap_interval({&cand, &base}, ratio, 0.95, 0), bound, st::PassingSide::AtLeast, 10);
    CHECK(again.verdict == d.verdict);
    CHECK(again.samples_needed == d.samples_needed);
  }
  SUBCASE("AtMost: latency must stay under 1.1x") {
    auto cand = normal_samples(30, 1300, 10, 15);
    auto iv = st::bootstrap_interval({&cand, &base}, ratio, 0.95, 0);
    CHECK(st::decide(iv, 1.1, st::PassingSide::AtMost, 30).verdict == st::Verdict::Fail);
    CHECK(st::decide(iv, 1.5, st::PassingSide::AtMost, 30).verdict == st::Verdict::Pass);
  }
}

TEST_CASE("strict sides: an interval touching the bound passes <= and >= but fails < and >") {
  st::Interval on_bound{10, 10, 10};  // estimate, lo, hi: every sample equal to the bound
  CHECK(st::decide(on_bound, 10, st::PassingSide::AtMost, 8).verdict == st::Verdict::Pass);
  CHECK(st::decide(on_bound, 10, st::PassingSide::AtLeast, 8).verdict == st::Verdict::Pass);
  CHECK(st::decide(on_bound, 10, st::PassingSide::Below, 8).verdict == st::Verdict::Fail);
  CHECK(st::decide(on_bound, 10, st::PassingSide::Above, 8).verdict == st::Verdict::Fail);
  st::Interval up_to_bound{9.5, 9, 10};  // reaches the bound from below
  CHECK(st::decide(up_to_bound, 10, st::PassingSide::AtMost, 8).verdict == st::Verdict::Pass);
  CHECK(st::decide(up_to_bound, 10, st::PassingSide::Below, 8).verdict == st::Verdict::Inconclusive);
  CHECK(st::decide(up_to_bound, 10, st::PassingSide::Above, 8).verdict == st::Verdict::Fail);
  CHECK(st::decide(st::Interval{8, 7.9, 8.1}, 10, st::PassingSide::Below, 8).verdict == st::Verdict::Pass);
  CHECK(std::string(st::side_operator(st::PassingSide::Below)) == "<");
}

TEST_CASE("an estimate on the bound cannot be settled by more samples") {
  st::Interval iv{0.95, 0.90, 1.00};
  auto d = st::decide(iv, 0.95, st::PassingSide::AtLeast, 10);
  CHECK(d.verdict == st::Verdict::Inconclusive);
  CHECK_FALSE(d.settleable);
  CHECK(d.samples_needed == 0);
  CHECK(d.explanation.find("cannot settle: the estimate sits on the bound") != std::string::npos);
}

TEST_CASE("samples needed follows n·(halfwidth/gap)²") {
  st::Interval iv{1.00, 0.90, 1.10};  // half-width 0.1, gap 0.05 from 0.95
  auto d = st::decide(iv, 0.95, st::PassingSide::AtLeast, 10);
  CHECK(d.samples_needed == 40);
  CHECK(std::string(st::verdict_name(d.verdict)) == "INCONCLUSIVE");
}

TEST_CASE("bad bootstrap arguments are OperatorErrors") {
  std::vector<double> xs = {1, 2, 3}, empty;
  auto id = [](const std::vector<double>& m) { return m[0]; };
  CHECK_THROWS_AS(st::bootstrap_interval({}, id, 0.95, 0), rubric::OperatorError);
  CHECK_THROWS_AS(st::bootstrap_interval({&empty}, id, 0.95, 0), rubric::OperatorError);
  CHECK_THROWS_AS(st::bootstrap_interval({&xs}, id, 1.5, 0), rubric::OperatorError);
  std::vector<double> zeros = {0, 0, 0};
  CHECK_THROWS_WITH_AS(st::bootstrap_interval({&zeros, &zeros}, ratio, 0.95, 0, 1000),
                       "bootstrap: the quantity is undefined (NaN) on 1000 of 1000 resamples", rubric::OperatorError);
}
