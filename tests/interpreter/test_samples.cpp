#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace rubric;

namespace {

Report run(const std::string& body, std::uint64_t seed = 7) {
  rubric::test::TempDir t;
  EngineOptions o;
  o.seed = seed;
  return rubric::test::run_text("rubric \"samples\" { confidence: 95% }\n" + body, t.dir("s"), t.dir("r"), o);
}

}  // namespace

TEST_CASE("comparisons of samples are decided by bootstrap: PASS, FAIL, INCONCLUSIVE") {
  Report r = run(R"(
let fast = samples([10.1, 10.0, 9.9, 10.2, 10.0, 9.8, 10.1, 10.0, 9.9, 10.0]) as ms
let slow = samples([16.0, 15.8, 16.3, 15.9, 16.1, 16.0, 16.2, 15.7, 16.0, 16.1]) as ms
let noisy = samples([14.0, 17.5, 15.2, 19.0, 13.1, 16.4, 18.2, 14.4, 17.9, 15.0]) as ms
criterion pass "1.5x faster" { expect slow / fast >= 1.5 }
criterion fail "2x faster" { expect slow / fast >= 2 }
criterion unsure "noisy" { expect noisy / fast >= 1.6 }
criterion close "within 5% of itself" { expect fast within 5% of fast }
criterion scalar "under a bound" { expect fast <= 12 ms }
criterion stats "statistics" {
  expect median(fast) == 10 ms
  expect len(fast) == 10
  expect p(fast, 100) == 10.2 ms
  expect cv(fast) < 0.02
}
)");
  REQUIRE_MESSAGE(r.criteria.size() == 6, r.title);
  CHECK(r.criteria[0].verdict == Verdict::pass);
  CHECK(r.criteria[1].verdict == Verdict::fail);
  CHECK(r.criteria[2].verdict == Verdict::inconclusive);
  CHECK(r.criteria[2].checks[0].explanation.find("samples per set") != std::string::npos);
  CHECK(r.criteria[3].verdict == Verdict::pass);
  CHECK(r.criteria[4].verdict == Verdict::pass);
  CHECK(r.criteria[5].verdict == Verdict::pass);
  const auto& ev = r.criteria[0].checks[0].evidence;
  REQUIRE(!ev.empty());
  CHECK(ev[0].find("slow / fast: median 1.6") == 0);
  CHECK(ev[0].find("95% CI") != std::string::npos);
  CHECK(ev[0].find("n = 10 per set") != std::string::npos);
  CHECK(r.verdict == OverallVerdict::fail);
}

TEST_CASE("sample decisions are deterministic for a seed") {
  const char* body = R"(
let a = samples([14.0, 17.5, 15.2, 19.0, 13.1, 16.4, 18.2, 14.4, 17.9, 15.0]) as ms
let b = samples([10.1, 10.0, 9.9, 10.2, 10.0, 9.8, 10.1, 10.0, 9.9, 10.0]) as ms
criterion x "ratio" { expect a / b >= 1.5 }
)";
  Report r1 = run(body, 3), r2 = run(body, 3);
  CHECK(r1.criteria[0].checks[0].evidence == r2.criteria[0].checks[0].evidence);
  CHECK(r1.provenance.seed == 3);
}

TEST_CASE("samples cannot be compared with ==; units must agree (caught statically)") {
  Report r = run(R"(
let a = samples([1, 2, 3]) as ms
criterion x "eq" { expect a == 2 ms }
)");
  REQUIRE_MESSAGE(r.criteria.size() == 1, r.title);
  CHECK(r.criteria[0].verdict == Verdict::error);
  CHECK(r.criteria[0].checks[0].explanation.find("samples cannot be compared with '=='") != std::string::npos);
  Report units = run("let a = samples([1, 2, 3]) as ms\ncriterion y \"units\" { expect a >= 2 }\n");
  CHECK(units.criteria.empty());
  CHECK(units.title.find("comparison needs equal dimensions: s vs dimensionless") != std::string::npos);
}
