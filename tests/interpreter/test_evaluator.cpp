#include <doctest/doctest.h>

#include <filesystem>

#include "helpers.hpp"

using namespace rubric;
using rubric::test::find_criterion;
using rubric::test::run_text;
using rubric::test::TempDir;

namespace {

struct Fixture {
  TempDir t;
  std::string sub, ref;
  Fixture() {
    sub = t.dir("sub");
    ref = t.dir("ref");
    t.write("sub/bench.json", R"({"duration": 10, "completed": 100, "tput": 950})");
    t.write("ref/bench.json", R"({"duration": 10, "completed": 100, "tput": 1000})");
    t.write("sub/answer.md", "The regression comes from the LRU eviction dropping the attention sink.");
  }
  Report run(const std::string& text, EngineOptions o = {}) { return run_text(text, sub, ref, std::move(o)); }
};

}  // namespace

TEST_CASE("a failing top-level let fails only the checks that use it") {
  Fixture f;
  Report r = f.run(R"(
rubric "lazy" {}
let missing = json(submission / "nope.json")
let base = json(reference / "bench.json")
criterion uses "uses it" { expect missing.tput > 0 }
criterion other "does not" { expect base.tput == 1000 }
criterion uses_again "uses it too" { expect missing.completed == 100 }
)");
  REQUIRE_MESSAGE(r.criteria.size() == 3, r.title);
  CHECK(r.criteria[0].verdict == Verdict::fail);  // the submission lacks the file: FAIL, not ERROR
  CHECK(r.criteria[0].checks[0].blame == Blame::submission);
  CHECK(r.criteria[0].checks[0].explanation.find("submission/nope.json: no such file") != std::string::npos);
  CHECK(r.criteria[0].checks[0].explanation.find("'missing' could not be evaluated") != std::string::npos);
  CHECK(r.criteria[1].verdict == Verdict::pass);
  CHECK(r.criteria[2].verdict == Verdict::fail);
  CHECK(r.verdict == OverallVerdict::fail);
}

TEST_CASE("a missing reference file is an ERROR, not a FAIL") {
  Fixture f;
  Report r = f.run(R"(
rubric "ref" {}
criterion a "x" { expect json(reference / "absent.json").tput > 0 }
criterion b "y" { expect 1 < 2 }
)");
  CHECK(r.criteria[0].verdict == Verdict::error);
  CHECK(r.criteria[0].checks[0].blame == Blame::rubric);
  CHECK(r.criteria[0].checks[0].explanation.find("test.rubric:3:") != std::string::npos);
  CHECK(r.criteria[1].verdict == Verdict::pass);
  CHECK(r.verdict == OverallVerdict::error);
  CHECK(exit_code(r.verdict) == 2);
}

TEST_CASE("a missing JSON key names the file and the keys that exist") {
  Fixture f;
  Report r = f.run(R"(
rubric "keys" {}
let cand = json(submission / "bench.json")
criterion a "x" { expect cand.p99_ttft_ms < 100 }
)");
  REQUIRE(r.criteria[0].checks.size() == 1);
  CHECK(r.criteria[0].verdict == Verdict::fail);
  CHECK(r.criteria[0].checks[0].explanation.find("no key 'p99_ttft_ms' in submission/bench.json; keys: duration, completed, tput") !=
        std::string::npos);
}

TEST_CASE("a record of a list read from a file is named by its place in a missing-key message") {
  Fixture f;
  // Long enough for the fast reader (64 bytes and more), whose records share their list's origin.
  f.t.write("sub/runs.json", R"({"runs": [{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"a": 5}], "nested": {"rows": [[{"c": 1}]]}})");
  Report r = f.run(R"(
rubric "places" {}
let j = json(submission / "runs.json")
criterion a "x" { expect all(j.runs, r => r.b > 0) }
criterion b "y" { expect j.nested.rows[0][0].d == 1 }
)");
  REQUIRE(r.criteria.size() == 2);
  CHECK(r.criteria[0].verdict == Verdict::fail);
  CHECK(r.criteria[0].checks[0].explanation.find("no key 'b' in submission/runs.json.runs[2] (did you mean 'a'?); keys: a") != std::string::npos);
  CHECK(r.criteria[1].checks[0].explanation.find("no key 'd' in submission/runs.json.nested.rows[0][0] (did you mean 'c'?); keys: c") !=
        std::string::npos);
}

TEST_CASE("a lambda made in a call over a list keeps the item it was made with") {
  Fixture f;
  // The scope of a lambda call is reused for the next item only when nothing kept it.
  Report r = f.run(R"(
rubric "closures" {}
let adders = map([1, 2, 3], x => (y => x + y))
criterion a "x" {
  expect map(adders, add => add(10)) == [11, 12, 13]
  expect sum([1, 2, 0.5, 3, 0.25]) == 6.75
  expect sum([9007199254740991, 1, -1]) == 9007199254740991
}
)");
  REQUIRE(r.criteria.size() == 1);
  CHECK(r.criteria[0].verdict == Verdict::pass);
}

TEST_CASE("a criterion's verdict is the worst of its checks") {
  Fixture f;
  Report r = f.run(R"(
rubric "order" {}
criterion a "pass and fail" { expect true
  expect false }
criterion b "fail and error" { expect false
  expect 1 + "x" == 2 }
criterion c "all pass" { expect true }
)");
  CHECK(r.criteria[0].verdict == Verdict::fail);
  CHECK(r.criteria[1].verdict == Verdict::error);
  CHECK(r.criteria[2].verdict == Verdict::pass);
  CHECK(r.criteria[1].checks[1].verdict == Verdict::error);
}

TEST_CASE("scores with weights, groups, penalties and partial credit") {
  Fixture f;
  Report r = f.run(R"(
rubric "score" { pass: 50% }
criterion a "passes" weight 3 { expect true }
criterion b "fails" weight 1 { expect false }
group g "a group" weight 4 {
  criterion g1 "half" { score 0.5
    expect true }
  criterion g2 "clamped" { score 7
    expect true }
  criterion cheat "hard-coded output" penalty 1 { expect false }
}
)");
  const CriterionResult* g = find_criterion(r.criteria, "g");
  REQUIRE(g);
  // (0.5 + 1) / 2 - 1 / 2 = 0.25
  REQUIRE(g->score);
  CHECK(*g->score == doctest::Approx(0.25));
  CHECK(*find_criterion(r.criteria, "g2")->score == 1.0);
  CHECK_FALSE(find_criterion(r.criteria, "cheat")->score);
  // (3·1 + 1·0 + 4·0.25) / 8
  REQUIRE(r.score);
  CHECK(*r.score == doctest::Approx(0.5));
  CHECK(r.verdict == OverallVerdict::pass);
}

TEST_CASE("pass mark and required") {
  Fixture f;
  Report below = f.run(R"(
rubric "mark" { pass: 80% }
criterion a "x" weight 3 { expect true }
criterion b "y" weight 1 { expect false }
)");
  CHECK(*below.score == doctest::Approx(0.75));
  CHECK(below.verdict == OverallVerdict::fail);
  Report required = f.run(R"(
rubric "required" { pass: 10% }
criterion a "x" weight 9 { expect true }
criterion b "y" weight 1 required { expect false }
)");
  CHECK(*required.score == doctest::Approx(0.9));
  CHECK(required.verdict == OverallVerdict::fail);
  Report default_mark = f.run(R"(
rubric "default" {}
criterion a "x" weight 9 { expect true }
criterion b "y" weight 1 { expect false }
)");
  CHECK(default_mark.pass_mark == 1.0);
  CHECK(default_mark.verdict == OverallVerdict::fail);
}

TEST_CASE("after: a failed dependency fails, an undecided one skips") {
  Fixture f;
  Report r = f.run(R"(
rubric "after" {}
criterion numerics "n" { expect false }
criterion speed "s" after numerics { expect true }
criterion gpu_part "g" needs gpu { expect true }
criterion later "l" after gpu_part { expect true }
criterion broken "b" { expect 1 + "x" == 1 }
criterion after_broken "ab" after broken { expect true }
)");
  const auto* speed = find_criterion(r.criteria, "speed");
  CHECK(speed->verdict == Verdict::fail);
  CHECK(speed->reason == "not evaluated: numerics did not pass");
  CHECK(speed->checks.empty());
  const auto* gpu = find_criterion(r.criteria, "gpu_part");
  if (gpu->verdict == Verdict::skip) {
    CHECK(gpu->reason.rfind("needs gpu: ", 0) == 0);
    CHECK(find_criterion(r.criteria, "later")->verdict == Verdict::skip);
    CHECK(find_criterion(r.criteria, "later")->reason == "not evaluated: gpu_part was skipped");
  }
  CHECK(find_criterion(r.criteria, "after_broken")->verdict == Verdict::skip);
  CHECK(find_criterion(r.criteria, "after_broken")->reason == "not evaluated: broken ended in ERROR");
}

TEST_CASE("overall verdicts and exit codes") {
  Fixture f;
  CHECK(exit_code(f.run("rubric \"p\" {}\ncriterion a \"x\" { expect true }\n").verdict) == 0);
  CHECK(exit_code(f.run("rubric \"f\" {}\ncriterion a \"x\" { expect false }\n").verdict) == 1);
  CHECK(exit_code(f.run("rubric \"e\" {}\ncriterion a \"x\" { expect 1 ms > 1 }\n").verdict) == 2);
  Report none = f.run("rubric \"i\" {}\n");
  CHECK(!none.score);
  CHECK(none.verdict == OverallVerdict::incomplete);
  CHECK(exit_code(none.verdict) == 3);
}

TEST_CASE("step budget and depth limit end in ERROR naming the limit") {
  Fixture f;
  EngineOptions o;
  o.step_budget = 100000;
  Report r = f.run(R"(
rubric "limits" {}
def forever(n) = forever(n + 1)
def count_down(n) = if n == 0 then 0 else count_down(n - 1)
criterion deep "recursion" { expect forever(0) == 1 }
criterion long "loop" { expect len(filter(range(1000000), x => x > 5)) > 0 }
criterion fine "fine" { expect count_down(50) == 0 }
)",
                   o);
  CHECK(r.criteria[0].verdict == Verdict::error);
  CHECK(r.criteria[0].checks.back().explanation.find("call depth limit exceeded") != std::string::npos);
  CHECK(r.criteria[1].verdict == Verdict::error);
  CHECK(r.criteria[1].checks.back().explanation.find("step budget exceeded") != std::string::npos);
  CHECK(r.criteria[2].verdict == Verdict::pass);
}

TEST_CASE("a step budget run out by the size of the submission's data FAILs it; by the rubric's own work, an ERROR") {
  // A submission padding its data (7,000,000 latencies) made a plain `count` over it an ERROR
  // blamed on the rubric: a hostile answer could turn any data-driven check into "not a FAIL".
  Fixture f;
  std::string many = "{\"lat\": [";
  for (int i = 0; i < 300000; ++i) many += i ? ",0.01" : "0.01";
  f.t.write("sub/lat.json", many + "]}");
  f.t.write("sub/few.json", R"({"lat": [1, 2, 3]})");
  EngineOptions o;
  o.step_budget = 500000;
  Report r = f.run(R"(
rubric "sized" {}
criterion big "many items" { expect count(json(submission / "lat.json").lat, x => x > 1) == 0 }
criterion loop "many items, for" {
  for x in json(submission / "lat.json").lat { expect x < 1 }
}
criterion heavy "few items, heavy rubric work" {
  expect all(json(submission / "few.json").lat, x => len(filter(range(1000000), y => y > x)) > 0)
}
criterion own "the rubric's own loop" { expect len(filter(range(1000000), y => y > 5)) > 0 }
)",
                   o);
  REQUIRE(r.criteria.size() == 4);
  for (int i : {0, 1}) {
    CAPTURE(i);
    CHECK(r.criteria[i].verdict == Verdict::fail);
    CHECK(r.criteria[i].checks.back().blame == Blame::submission);
    CHECK(r.criteria[i].checks.back().explanation.find("items of the submission's data: the submission's data is too "
                                                       "large to check") != std::string::npos);
  }
  for (int i : {2, 3}) {
    CAPTURE(i);
    CHECK(r.criteria[i].verdict == Verdict::error);
    CHECK(r.criteria[i].checks.back().blame == Blame::rubric);
    CHECK(r.criteria[i].checks.back().explanation == "step budget exceeded (500000 evaluation steps per criterion)");
  }
}

TEST_CASE("paths escaping the root through .. or a symbolic link are refused") {
  Fixture f;
  f.t.write("outside.json", R"({"tput": 1})");
  std::filesystem::create_symlink(f.t.path + "/outside.json", f.sub + "/link.json");
  f.t.write("sub/manifest.json", R"({"out": "../outside.json"})");
  Report r = f.run(R"(
rubric "paths" {}
criterion dots "dots" { expect json(submission / ".." / "outside.json").tput == 1 }
criterion link "link" { expect json(submission / "link.json").tput == 1 }
criterion inside "inside" { expect exists(submission / "bench.json") }
criterion named "named" { expect json(submission / json(submission / "manifest.json").out).tput == 1 }
)");
  // A `..` the rubric wrote is the rubric's error; a link or a name from the submission is its own.
  CHECK(r.criteria[0].verdict == Verdict::error);
  CHECK(r.criteria[0].checks[0].explanation.find("escapes its root") != std::string::npos);
  CHECK(r.criteria[1].verdict == Verdict::fail);
  CHECK(r.criteria[1].checks[0].explanation.find("escapes the submission folder") != std::string::npos);
  CHECK(r.criteria[2].verdict == Verdict::pass);
  CHECK(r.criteria[3].verdict == Verdict::fail);
  CHECK(r.criteria[3].checks[0].explanation.find("escapes its root") != std::string::npos);
  for (const auto& fr : r.provenance.files) CHECK(fr.path.find("outside") == std::string::npos);
}

TEST_CASE("for labels each iteration; check defs join the criterion") {
  Fixture f;
  Report r = f.run(R"(
rubric "labels" {}
def no_regression(cand, base, tol = 5%) {
  expect cand >= (1 - tol) * base else "regressed by more than {tol}"
}
criterion loop "loop" {
  for n in [1, 2, 3] {
    expect n < 3
  }
}
criterion c "check def" {
  check no_regression(950, 1000)
  check no_regression(900, 1000, tol = 2%)
  note "checked {2} cases"
}
)");
  const auto& loop = r.criteria[0];
  REQUIRE(loop.checks.size() == 3);
  CHECK(loop.checks[0].label == "n = 1");
  CHECK(loop.checks[2].label == "n = 3");
  CHECK(loop.checks[2].verdict == Verdict::fail);
  const auto& c = r.criteria[1];
  REQUIRE(c.checks.size() == 2);
  CHECK(c.checks[0].label == "no_regression(950, 1000)");
  CHECK(c.checks[0].verdict == Verdict::pass);
  CHECK(c.checks[1].verdict == Verdict::fail);
  CHECK(c.checks[1].message == "regressed by more than 0.02");
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0] == "checked 2 cases");
}

TEST_CASE("params take --set overrides parsed as literals") {
  Fixture f;
  f.t.write("sub/bench_16384.json", R"({"tput": 1})");
  EngineOptions o;
  o.set_params["context"] = "16Ki";
  Report r = f.run(R"(
rubric "params" {}
param context = 32Ki
criterion a "at {context}" { expect exists(submission / "bench_{context}.json") }
)",
                   o);
  CHECK(r.criteria[0].title == "at 16384");
  CHECK(r.criteria[0].verdict == Verdict::pass);
  CHECK(r.provenance.params.at("context") == "16384");
}

TEST_CASE("--only evaluates the criterion and what it is after") {
  Fixture f;
  EngineOptions o;
  o.only = {"speed"};
  Report r = f.run(R"(
rubric "only" {}
criterion numerics "n" { expect true }
criterion other "o" { expect false }
criterion speed "s" after numerics { expect true }
)",
                   o);
  REQUIRE(r.criteria.size() == 2);
  CHECK(r.criteria[0].id == "numerics");
  CHECK(r.criteria[1].id == "speed");
  CHECK(r.verdict == OverallVerdict::pass);
}

TEST_CASE("--only a group evaluates everything in it, nested groups too, and what they are after") {
  Fixture f;
  const char* rubric = R"(
rubric "only groups" {}
criterion base "b" { expect true }
criterion other "o" { expect false }
group perf "p" {
  criterion p1 "p1" after base { expect true }
  group inner "i" {
    criterion i1 "i1" { expect true }
  }
}
group rest "r" {
  criterion r1 "r1" { expect false }
}
)";
  EngineOptions o;
  o.only = {"perf"};
  Report r = f.run(rubric, o);
  REQUIRE(r.criteria.size() == 2);
  CHECK(r.criteria[0].id == "base");
  CHECK(r.criteria[1].id == "perf");
  REQUIRE(r.criteria[1].children.size() == 2);
  CHECK(r.criteria[1].children[0].id == "p1");
  CHECK(r.criteria[1].children[1].id == "inner");
  REQUIRE(r.criteria[1].children[1].children.size() == 1);
  CHECK(r.criteria[1].children[1].children[0].id == "i1");
  CHECK(r.verdict == OverallVerdict::pass);

  // A criterion deep in a group: just it, inside its groups; nothing beside it.
  EngineOptions deep;
  deep.only = {"i1"};
  Report d = f.run(rubric, deep);
  REQUIRE(d.criteria.size() == 1);
  CHECK(d.criteria[0].id == "perf");
  REQUIRE(d.criteria[0].children.size() == 1);
  CHECK(d.criteria[0].children[0].id == "inner");
  REQUIRE(d.criteria[0].children[0].children.size() == 1);
  CHECK(d.criteria[0].children[0].children[0].id == "i1");
}

TEST_CASE("units arithmetic, as, within and matches on numbers") {
  Fixture f;
  Report r = f.run(R"(
rubric "units" {}
criterion u "units" {
  expect 2 ms * 3 == 6 ms
  expect 1 GB / 2 ms == 500 GB/s
  expect 1500 us == 1.5 ms
  expect (2.5 ms) / 1 us == 2500
  expect 32Ki == 32768
  expect 5 as ms == 5 ms
  expect 102 ms within 5% of 100 ms
  expect 103 ms within 2 ms of 100 ms
  expect 1.0000001 matches 1.0
  expect 1.01 matches 1.0 to 1e-3
  expect [1, 2, 3] == [1, 2, 3]
  expect {a: 1, b: [2]} == {b: [2], a: 1}
  expect "x" in ["x", "y"]
  expect 3 in range(5)
}
)");
  const auto& c = r.criteria[0];
  REQUIRE(c.checks.size() == 14);
  CHECK(c.checks[0].verdict == Verdict::pass);
  CHECK(c.checks[1].verdict == Verdict::pass);
  CHECK(c.checks[2].verdict == Verdict::pass);
  CHECK(c.checks[3].verdict == Verdict::pass);
  CHECK(c.checks[4].verdict == Verdict::pass);
  CHECK(c.checks[5].verdict == Verdict::pass);
  CHECK(c.checks[6].verdict == Verdict::pass);
  CHECK(c.checks[7].verdict == Verdict::fail);
  CHECK(c.checks[7].evidence[0] == "|103 ms - 100 ms| = 3 ms > 2 ms (2 ms)");
  CHECK(c.checks[8].verdict == Verdict::pass);
  CHECK(c.checks[9].verdict == Verdict::fail);
  CHECK(c.checks[10].verdict == Verdict::pass);
  CHECK(c.checks[11].verdict == Verdict::pass);
  CHECK(c.checks[12].verdict == Verdict::pass);
  CHECK(c.checks[13].verdict == Verdict::pass);
}

TEST_CASE("evidence for not, and, or, mentions and list equality") {
  Fixture f;
  Report r = f.run(R"(
rubric "evidence" {}
let answer = text(submission / "answer.md")
criterion m "mentions" {
  expect answer mentions any ["recency", "LRU", "attention sink"]
  expect answer mentions all ["LRU", "batch size"]
  expect not (answer mentions "LRU") else "names LRU"
  expect 1 < 2 and 3 < 2
  expect [1, 2, 3] == [1, 2, 4]
}
)");
  const auto& c = r.criteria[0];
  REQUIRE(c.checks.size() == 5);
  CHECK(c.checks[0].verdict == Verdict::pass);
  CHECK(c.checks[0].explanation == "found \"LRU\", \"attention sink\"");
  CHECK(c.checks[1].verdict == Verdict::fail);
  CHECK(c.checks[1].explanation == "missing 1 of 2: \"batch size\"");
  CHECK(c.checks[2].verdict == Verdict::fail);
  CHECK(c.checks[2].message == "names LRU");
  CHECK(c.checks[2].evidence[0] == "not: answer mentions \"LRU\" was PASS");
  CHECK(c.checks[3].verdict == Verdict::fail);
  CHECK(c.checks[3].evidence.size() == 4);
  CHECK(c.checks[4].explanation == "at [2]: 3 != 4");
}

TEST_CASE("a loop of many checks lists the first thousand and the failures, and counts the rest") {
  Fixture f;
  Report r = f.run(R"(
rubric "many" {}
criterion many "many" {
  for i in range(100000) {
    expect i < 99990
  }
}
)");
  REQUIRE(r.criteria.size() == 1);
  CHECK(r.criteria[0].verdict == Verdict::fail);
  CHECK(r.criteria[0].checks.size() == 1010);  // 1000 listed, then the 10 failures
  CHECK(r.criteria[0].checks.back().verdict == Verdict::fail);
  REQUIRE(r.criteria[0].notes.size() == 1);
  CHECK(r.criteria[0].notes[0] == "further checks not listed: 98990 PASS");
}

TEST_CASE("block expressions: lets in order, the last expression is the value, blame flows through lets") {
  Fixture f;
  f.t.write("sub/runs.json", R"([{"start": 1.5, "end": 4}, {"start": 0, "end": 1}])");
  f.t.write("sub/empty.json", "[]");
  Report r = f.run(R"(
rubric "blocks" {}
def duration(rs) = {
  let r = rs[0]
  let t = (r.end - r.start) as s
  t / 1 s
}
def spread(xs) = { let lo = min(xs); let hi = max(xs); hi - lo }
criterion ok "values" {
  expect duration(json(submission / "runs.json")) == 2.5
  expect spread([3, 9, 4]) == 6
  expect map([1, 2], x => { let y = x * 10; y + 1 }) == [11, 21]
  expect { let a = 2; let b = a * a; b } == 4
  expect { let d = duration(json(submission / "runs.json")); d < 2 }
}
criterion data "a let bound to missing submission data keeps the submission's blame" {
  expect duration(json(submission / "empty.json")) > 0
}
criterion unused "an error in a let nothing uses is never seen" {
  expect { let bad = json(submission / "absent.json"); 1 } == 1
}
criterion rubric_side "a let over the rubric's own list is the rubric's error" {
  expect { let r = [][0]; r } == 1
}
)");
  REQUIRE_MESSAGE(r.criteria.size() == 4, r.title);
  const CriterionResult& ok = r.criteria[0];
  REQUIRE(ok.checks.size() == 5);
  for (int i = 0; i < 4; ++i) CHECK_MESSAGE(ok.checks[i].verdict == Verdict::pass, ok.checks[i].explanation);
  // A block as a condition is decided with its comparison's evidence.
  CHECK(ok.checks[4].verdict == Verdict::fail);
  REQUIRE(!ok.checks[4].evidence.empty());
  CHECK(ok.checks[4].evidence[0] == "2.5 < 2: 25% over");
  const CheckResult& data = r.criteria[1].checks.at(0);
  CHECK(data.verdict == Verdict::fail);
  CHECK(data.blame == Blame::submission);
  CHECK(data.explanation.find("index 0 out of range") != std::string::npos);
  CHECK(data.explanation.find("test.rubric:4:11") != std::string::npos);
  CHECK(r.criteria[2].verdict == Verdict::pass);
  CHECK(r.criteria[3].checks.at(0).verdict == Verdict::error);
  CHECK(r.criteria[3].checks.at(0).blame == Blame::rubric);
}

TEST_CASE("a let defined in terms of itself is the rubric's ERROR, located at its definition") {
  Fixture f;
  Report r = f.run(R"(
rubric "cycle" {}
let a1 = [1, b1]
let b1 = [2, a1]
criterion c "uses it" { expect len(a1) == 2 }
criterion other "does not" { expect 1 == 1 }
)");
  REQUIRE(r.criteria.size() == 2);
  CHECK(r.criteria[0].verdict == Verdict::error);
  CHECK(r.criteria[0].checks[0].blame == Blame::rubric);
  CHECK(r.criteria[0].checks[0].explanation.find("is defined in terms of itself (test.rubric:3:10)") != std::string::npos);
  CHECK(r.criteria[1].verdict == Verdict::pass);
}
