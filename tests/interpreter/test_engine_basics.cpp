#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace rubric;
using rubric::test::TempDir;

TEST_CASE("a rubric over JSON passes, fails and explains") {
  TempDir t;
  std::string sub = t.dir("sub"), ref = t.dir("ref");
  t.write("sub/bench.json", R"({"output_throughput": 11234.5, "p99_ttft_ms": 250})");
  t.write("ref/bench.json", R"({"output_throughput": 12400, "p99_ttft_ms": 240})");
  const char* text = R"(
rubric "throughput" { version: "1.0", pass: 50% }
let base = json(reference / "bench.json")
let cand = json(submission / "bench.json")
criterion throughput "within 5%" weight 3 {
  expect cand.output_throughput as tok/s >= 0.95 * (base.output_throughput as tok/s)
}
criterion tail "p99 TTFT" weight 1 {
  expect cand.p99_ttft_ms as ms <= 1.1 * (base.p99_ttft_ms as ms)
}
)";
  Report r = rubric::test::run_text(text, sub, ref);
  REQUIRE_MESSAGE(r.criteria.size() == 2, r.title);
  const auto& thr = r.criteria[0];
  CHECK(thr.verdict == Verdict::fail);
  REQUIRE(thr.checks.size() == 1);
  CHECK(thr.checks[0].source_text == "cand.output_throughput as tok/s >= 0.95 * (base.output_throughput as tok/s)");
  REQUIRE(!thr.checks[0].evidence.empty());
  CHECK(thr.checks[0].evidence[0] == "11234.5 tok/s >= 11780 tok/s (0.95 \xC3\x97 12400 tok/s): 4.6% short");
  CHECK(thr.checks[0].location.line == 6);
  CHECK(r.criteria[1].verdict == Verdict::pass);
  REQUIRE(r.score);
  CHECK(*r.score == doctest::Approx(0.25));
  CHECK(r.verdict == OverallVerdict::fail);
  CHECK(exit_code(r.verdict) == 1);
  CHECK(r.provenance.files.size() >= 2);
}
