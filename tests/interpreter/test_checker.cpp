#include <doctest/doctest.h>

#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "helpers.hpp"

using namespace rubric;
using rubric::test::all_messages;
using rubric::test::load_text;

namespace {

std::string lint(const std::string& text, EngineOptions o = {}) {
  Engine e(std::move(o));
  return all_messages(load_text(e, text));
}

bool has(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

}  // namespace

TEST_CASE("undefined names, with did-you-mean") {
  std::string out = lint("rubric \"t\" {}\nlet xs = [1, 2]\ncriterion a \"x\" { expect lenn(xs) == 2\n expect stdevv([1]) == 1 }\n");
  CHECK(has(out, "test.rubric:3:26: error: undefined name 'lenn'"));
  CHECK(has(out, "did you mean 'len'?"));
  CHECK(has(out, "did you mean 'stdev'?"));
}

TEST_CASE("arity of builtins and defs") {
  std::string out = lint(R"(rubric "t" {}
def f(a, b = 1) = a + b
criterion a "x" {
  expect clamp(1, 2) == 1
  expect f() == 1
  expect f(1, 2, 3) == 1
  expect f(1, c = 2) == 1
  expect abs(1, 2) == 1
}
)");
  CHECK(has(out, "too few arguments to 'clamp'"));
  CHECK(has(out, "missing argument 'a' to 'f'"));
  CHECK(has(out, "too many arguments to 'f'"));
  CHECK(has(out, "'f' has no parameter 'c'"));
  CHECK(has(out, "too many arguments to 'abs'"));
}

TEST_CASE("duplicate ids and after order") {
  std::string out = lint(R"(rubric "t" {}
criterion a "x" after b { expect true }
criterion b "y" { expect true }
criterion b "z" after nope, b { expect true }
criterion c "w" after c { expect true }
)");
  CHECK(has(out, "'after b' refers forward"));
  CHECK(has(out, "duplicate criterion id 'b'"));
  CHECK(has(out, "'after nope': no criterion or group with that id"));
  CHECK(has(out, "criterion 'c' is after itself"));
}

TEST_CASE("unit mismatches where both sides are known") {
  std::string out = lint(R"(rubric "t" {}
param budget = 5 ms
let total = 2 GB / 1 s
criterion a "x" {
  expect budget > 3
  expect total <= 1 TB
  expect 5 ms + 1 tok == 1
  expect 5 ms as us == 5 us
  expect 100 ms within 2 tok of 99 ms
  expect total >= 1 GB/s
}
)");
  CHECK(has(out, "test.rubric:5:10: error: comparison needs equal dimensions: s vs dimensionless"));
  CHECK(has(out, "comparison needs equal dimensions: B/s vs B"));
  CHECK(has(out, "'+' needs equal dimensions: s vs tok"));
  CHECK(has(out, "already has dimension s"));
  CHECK(has(out, "the tolerance has dimension tok"));
  CHECK_FALSE(has(out, "rubric:10:"));  // B/s vs GB/s is fine
}

TEST_CASE("expect of a non-bool, check of a non-check, check defs outside check") {
  std::string out = lint(R"(rubric "t" {}
def f(x) = x * 2
def c(x) { expect x > 0 }
criterion a "x" {
  expect 1 + 2
  check f(1)
  expect c(1)
  check c(1)
}
)");
  CHECK(has(out, "'expect' needs a bool, but '1 + 2' is a number"));
  CHECK(has(out, "'check' runs a check def"));
  CHECK(has(out, "'c' is a check def: run it with 'check c(...)'"));
  CHECK_FALSE(has(out, "rubric:8:"));
}

TEST_CASE("lint never evaluates: a missing file is not a lint error") {
  std::string out = lint("rubric \"t\" {}\nlet j = json(submission / \"nope.json\")\ncriterion a \"x\" { expect j.x > 1 }\n");
  CHECK(out.empty());
}

TEST_CASE("modules: std, aliases, cycles and clashes") {
  rubric::test::TempDir t;
  t.write("lib/team/a.rubric", "## doc\ndef twice(x) = 2 * x\n");
  t.write("lib/team/b.rubric", "def twice(x) = x + x\n");
  t.write("cyc/one.rubric", "import \"two.rubric\"\ndef one() = 1\n");
  t.write("cyc/two.rubric", "import \"one.rubric\"\ndef two() = 2\n");
  EngineOptions o;
  o.include_dirs = {t.path + "/lib"};
  CHECK(lint("rubric \"t\" {}\nuse team.a\nuse team.b as b\ncriterion a \"x\" { expect twice(2) == b.twice(2) }\n", o).empty());
  std::string clash = lint("rubric \"t\" {}\nuse team.a\nuse team.b\ncriterion a \"x\" { expect twice(2) == 4 }\n", o);
  CHECK(has(clash, "'twice' is defined by both 'team.a' and 'team.b'"));
  std::string missing = lint("rubric \"t\" {}\nuse team.zzz\n", o);
  CHECK(has(missing, "cannot find module 'team.zzz'"));
  std::string nostd = lint("rubric \"t\" {}\nuse std.nope\n");
  CHECK(has(nostd, "no standard module 'std.nope'"));
  std::string alias = lint("rubric \"t\" {}\nuse team.b as b\ncriterion a \"x\" { expect b.twise(1) == 2 }\n", o);
  CHECK(has(alias, "module 'team.b' has no 'twise'"));
  Engine e;
  std::string path = t.write("cyc/main.rubric", "rubric \"t\" {}\nimport \"one.rubric\"\ncriterion a \"x\" { expect one() == 1 }\n");
  std::string cyc = all_messages(e.load(path));
  CHECK(has(cyc, "module cycle: one.rubric -> two.rubric -> one.rubric"));
}

TEST_CASE("std.serving and std.text pass the checker and work") {
  rubric::test::TempDir t;
  t.write("sub/bench.json", R"({"duration": 60.1, "completed": 1000, "failed": 0, "request_throughput": 16.6,
    "output_throughput": 11234.5, "total_token_throughput": 40000, "mean_ttft_ms": 120, "p99_ttft_ms": 450.5,
    "p99_tpot_ms": 30, "p99_itl_ms": 28})");
  t.write("ref/bench.json", R"({"duration": 60, "completed": 1000, "failed": 0, "request_throughput": 17,
    "output_throughput": 12400, "total_throughput": 41000, "mean_ttft_ms": 110, "p99_ttft_ms": 430, "p99_tpot_ms": 29,
    "p99_e2e_latency_ms": 9000})");
  t.write("sub/answer.md", "Eviction by LRU drops the attention sink tokens. Measured 11,234.5 tok/s.");
  Report r = rubric::test::run_text(R"(rubric "serving" {}
use std.serving
use std.text
let cand = vllm_bench(submission / "bench.json")
let base = vllm_bench(reference / "bench.json")
let answer = text(submission / "answer.md")
criterion units "units attached" {
  expect cand.output_throughput == 11234.5 tok/s
  expect cand.p99_ttft == 450.5 ms
  expect base.total_token_throughput == 41000 tok/s
  expect cand.request_throughput > 16 req/s
}
criterion slo_ok "slo" { check slo(cand) }
criterion regress "regression" { check no_bench_regression(cand, base) }
criterion missing "missing key" { expect cand.p99_e2el < 10 s }
criterion prose "prose" {
  check answer_names(answer, ["LRU", "attention sink", "recency"], at_least = 2)
  check answer_avoids(answer, ["batch size"])
  expect quoted_numbers(answer, "tok/s") == [11234.5]
}
)",
                                    t.path + "/sub", t.path + "/ref");
  REQUIRE_MESSAGE(r.criteria.size() == 5, r.title);
  CHECK(r.criteria[0].verdict == Verdict::pass);
  CHECK(r.criteria[1].verdict == Verdict::pass);
  CHECK(r.criteria[2].verdict == Verdict::fail);
  CHECK(r.criteria[2].checks[0].label == "no_bench_regression(cand, base)");
  CHECK(r.criteria[3].verdict == Verdict::fail);
  CHECK(has(r.criteria[3].checks[0].explanation, "no key 'p99_e2el_ms' in submission/bench.json"));
  CHECK(r.criteria[4].verdict == Verdict::pass);
}

// Every ```rubric block of the design must pass the checker.
TEST_CASE("the design's rubric examples pass lint") {
  std::ifstream in("../../shared/design/language.md");
  if (!in) in.open("/work/shared/design/language.md");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string doc = ss.str();
  std::size_t pos = 0;
  int n = 0;
  while ((pos = doc.find("```rubric\n", pos)) != std::string::npos) {
    pos += 10;
    std::size_t end = doc.find("```", pos);
    std::string block = doc.substr(pos, end - pos);
    pos = end + 3;
    ++n;
    // Fragments without a header are module-like snippets (declarations only).
    Engine e;
    auto ds = load_text(e, block, fmt::format("language.md#{}", n));
    CHECK_MESSAGE(!has_errors(ds), all_messages(ds));
  }
  CHECK(n >= 4);
}

TEST_CASE("block lets: names resolved, duplicates and shadowing refused, unused lets warned") {
  std::string ok = lint(R"(rubric "t" {}
def duration(rs) = {
  let r = rs[0]
  let t = r.end - r.start
  t / 1 s
}
criterion a "x" { expect duration([{start: 0 s, end: 2 s}]) == 2 }
)");
  CHECK(ok.empty());
  std::string out = lint(R"(rubric "t" {}
def f(x) = {
  let a = x
  let a = 2
  let x = 3
  let unused = 4
  let b = c
  a + x + b + zz
}
def g(y) = { let y2 = y; let z = z; y2 }
criterion k "x" { expect f(1) == 1 and g(1) == 1 }
)");
  CHECK(has(out, "test.rubric:4:7: error: duplicate let 'a' in this block"));
  CHECK(has(out, "'a' is first bound at test.rubric:3:7"));
  CHECK(has(out, "test.rubric:5:7: error: let 'x' would shadow a parameter or local name of the same name"));
  CHECK(has(out, "test.rubric:6:7: warning: unused let 'unused'"));
  // The refused lets are errors only; the first 'a' stays bound and is used.
  CHECK_FALSE(has(out, "unused let 'a'"));
  CHECK_FALSE(has(out, "unused let 'x'"));
  CHECK(has(out, "test.rubric:7:11: error: undefined name 'c'"));
  CHECK(has(out, "test.rubric:8:15: error: undefined name 'zz'"));
  // A let does not see itself.
  CHECK(has(out, "test.rubric:10:34: error: undefined name 'z'"));
  CHECK(has(out, "test.rubric:10:30: warning: unused let 'z'"));
  // Units flow through lets as through any expression.
  std::string units = lint(R"(rubric "t" {}
criterion a "x" { expect { let t = 2 s; t } > 1 GB }
)");
  CHECK(has(units, "comparison needs equal dimensions"));
  // Group and top-level lets may be shadowed by a block's let; a lambda's block sees its parameter.
  std::string shadow = lint(R"(rubric "t" {}
let base = 1
criterion a "x" { expect all([1, 2], x => { let base = x * 2; base > 0 }) }
)");
  CHECK(shadow.empty());
}

TEST_CASE("a polarity compared with a word that is no polarity") {
  std::string out = lint(R"(rubric "t" {}
let answer = "The cause is the cache."
criterion a "x" {
  expect polarity(answer, "cache") == "affirmd"
  expect "stated" != polarity(answer, "cache")
  expect polarity(answer, "cache") == "affirmed"
  expect any(claims(answer), c => c.polarity == "denied")
}
)");
  CHECK(has(out, "test.rubric:4:39: error: \"affirmd\" is no polarity"));
  CHECK(has(out, "did you mean \"affirmed\"?"));
  CHECK(has(out, "test.rubric:5:10: error: \"stated\" is no polarity"));
  CHECK(!has(out, ":6:"));
  CHECK(has(out, "test.rubric:7:49: warning: \"denied\" is no polarity"));  // a field: other records may have one
}

TEST_CASE("a claim's keys are known: a lambda or a loop over claims that reads a key they lack") {
  std::string out = lint(R"(rubric "t" {}
let answer = "It is 2.4x faster."
criterion a "x" {
  expect any(claims(answer), c => c.valu > 2)
  expect count(filter(claims(answer), c => c.unit == "x"), c => c.polarty == "affirmed") == 1
  for c in claims(answer) {
    expect c.value > 2
    expect c.sentense != ""
  }
  expect any(claims(answer), c => c.value > 2 and c.kind == "ratio")
}
)");
  CHECK(has(out, "test.rubric:4:37: error: no key 'valu' in this record"));
  CHECK(has(out, "did you mean 'value'?"));
  CHECK(has(out, "no key 'polarty'"));
  CHECK(has(out, "no key 'sentense'"));
  CHECK(!has(out, ":7:"));
  CHECK(!has(out, ":10:"));
}

TEST_CASE("a declaration that shadows a used module's name is warned about") {
  std::string out = lint(R"(rubric "t" {}
use std.concepts
concept bank_conflict = any ["x"]
criterion a "x" { expect "a" affirms bank_conflict }
)");
  CHECK(has(out, "test.rubric:3:9: warning: 'bank_conflict' here shadows std.concepts's 'bank_conflict'"));
}

TEST_CASE("a phrase with no words is warned about before any answer is graded") {
  std::string out = lint(R"(rubric "t" {}
concept fix = any ["divide the loss", "/", "—"]
criterion a "x" { expect "a" affirms fix }
)");
  CHECK(has(out, "test.rubric:2:39: warning: the phrase \"/\" has no words to match"));
  CHECK(has(out, "test.rubric:2:44: warning: the phrase \"—\" has no words to match"));  // as the run decides it
}
