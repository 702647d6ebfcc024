// Time to decide a comparison of two 10,000-sample sets (bootstrap interval of the ratio of
// medians, 10,000 replicates, plus the decision). Target: under 50 ms. Also the rank tests.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "operators/stats/bootstrap.hpp"
#include "operators/stats/decision.hpp"
#include "operators/stats/hodges_lehmann.hpp"
#include "operators/stats/mann_whitney.hpp"
#include "operators/stats/random.hpp"

namespace st = rubric::stats;
using Clock = std::chrono::steady_clock;

namespace {
template <typename F>
double median_ms(int reps, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::size_t(std::atol(argv[1])) : 10000;
  st::Random rng(1);
  std::vector<double> base(n), cand(n);
  for (double& x : base) x = 1000 + 30 * rng.normal();
  for (double& x : cand) x = 960 + 30 * rng.normal();
  auto ratio = [](const std::vector<double>& m) { return m[0] / m[1]; };

  st::Decision d;
  const double decide_ms = median_ms(21, [&] {
    auto iv = st::bootstrap_interval({&cand, &base}, ratio, 0.95, 0);
    d = st::decide(iv, 0.95, st::PassingSide::AtLeast, n);
  });
  const double mwu_ms = median_ms(11, [&] { st::mann_whitney_u(cand, base); });
  const double hl_ms = median_ms(5, [&] { st::hodges_lehmann_shift(cand, base); });
  fmt::print("stats on 2 x {} samples, medians:\n", n);
  fmt::print("  bootstrap ratio-of-medians interval ({} replicates) + decision: {:7.2f} ms [{}] -> {}\n",
             st::kDefaultReplicates, decide_ms, decide_ms < 50 ? "under 50 ms" : "OVER 50 ms", st::verdict_name(d.verdict));
  fmt::print("  Mann-Whitney U:                                              {:7.2f} ms\n", mwu_ms);
  fmt::print("  Hodges-Lehmann shift with 95% interval:                      {:7.2f} ms\n", hl_ms);
  return 0;
}
