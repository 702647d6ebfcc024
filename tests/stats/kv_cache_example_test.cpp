// The KV-cache example's recorded runs decide as its cases file (kv_cache.cases.json) says: the good and wrong_fix
// submissions are within 5% of the baseline, regressed is not, noisy cannot be decided.
#include <doctest/doctest.h>

#include <string>

#include "operators/json/json_reader.hpp"
#include "operators/stats/bootstrap.hpp"
#include "operators/stats/decision.hpp"

namespace st = rubric::stats;

namespace {
std::vector<double> numbers(const std::string& path) {
  std::vector<double> out;
  const rubric::json::Value doc = rubric::json::read_file(path);
  for (const auto& v : doc.as_array()) out.push_back(v.as_number());
  return out;
}

st::Decision within_5_percent(const std::string& submission) {
  const std::string root = RUBRIC_EXAMPLES_DIR "/kv_cache/";
  auto base = numbers(root + "reference/baseline_runs.json");
  auto cand = numbers(root + "submissions/" + submission + "/runs.json");
  auto iv = st::bootstrap_interval({&cand, &base}, [](const std::vector<double>& m) { return m[0] / m[1]; }, 0.95, 0);
  return st::decide(iv, 0.95, st::PassingSide::AtLeast, std::min(cand.size(), base.size()));
}
}  // namespace

TEST_CASE("kv_cache example runs: cand/base median throughput >= 0.95 at 95% confidence") {
  CHECK(within_5_percent("good").verdict == st::Verdict::Pass);
  CHECK(within_5_percent("wrong_fix").verdict == st::Verdict::Pass);
  CHECK(within_5_percent("regressed").verdict == st::Verdict::Fail);
  auto noisy = within_5_percent("noisy");
  CHECK(noisy.verdict == st::Verdict::Inconclusive);
  MESSAGE(noisy.explanation);
}
