// The text operators in the language: affirms/denies, concepts, near, polarity, code_of, claims,
// with the evidence a grader reads.
#include <doctest/doctest.h>

#include "tests/interpreter/helpers.hpp"

namespace {

const char* const kAnswer = R"(# Diagnosis

The slowdown is **not** caused by the prefix cache, and the attention sinks are not involved; the hit rate is high.
The threads of a warp collide on one bank, so the fix is collision-free indexing. It re-runs prefill for the evicted blocks.

float64 is not needed here. The fix is 3.1x faster and reaches 45 GB/s at 1.2 ms p50.

```cuda
__shared__ float bank_conflict[32];
```
)";

struct Run {
  rubric::Report report;
  std::string all;  // every check: source, verdict, evidence, explanation
};

Run run(const std::string& body) {
  rubric::test::TempDir dir;
  dir.write("sub/answer.md", kAnswer);
  dir.dir("ref");
  std::string text = "rubric \"t\" {}\n"
                     "concept conflict = any [\"bank conflict\", \"same bank\", \"bank collision\", \"collide\" near \"bank\"]\n"
                     "concept recompute = any [\"recompute\", \"recomputation\", \"re-run prefill\", \"prefill\" near(6) \"evict\"]\n"
                     "criterion c \"text\" {\n  let answer = text(submission / \"answer.md\")\n" +
                     body + "\n}\n";
  Run r{rubric::test::run_text(text, dir.path + "/sub", dir.path + "/ref"), ""};
  for (const auto& c : r.report.criteria)
    for (const auto& k : c.checks) {
      r.all += k.source_text + " => " + rubric::verdict_name(k.verdict) + ": " + k.explanation + "\n";
      for (const auto& e : k.evidence) r.all += "  " + e + "\n";
    }
  r.all += r.report.title;
  return r;
}

std::string verdict(const std::string& body) {
  Run r = run(body);
  INFO(r.all);
  REQUIRE(r.report.criteria.size() == 1);
  return rubric::verdict_name(r.report.criteria[0].verdict);
}

}  // namespace

TEST_CASE("affirms and denies with phrases, lists and concepts") {
  CHECK(verdict("expect answer affirms conflict") == std::string("PASS"));
  CHECK(verdict("expect answer affirms recompute") == std::string("PASS"));
  CHECK(verdict("expect answer denies \"prefix cache\"") == std::string("PASS"));
  CHECK(verdict("expect answer denies all [\"prefix cache\", \"attention sink\"]") == std::string("PASS"));
  CHECK(verdict("expect answer affirms any [\"prefix cache\", \"hit rate\"]") == std::string("PASS"));
  CHECK(verdict("expect answer affirms \"prefix cache\"") == std::string("FAIL"));
  CHECK(verdict("expect answer affirms all [\"hit rate\", \"prefix cache\"]") == std::string("FAIL"));
  CHECK(verdict("expect answer denies \"hit rate\"") == std::string("FAIL"));
  CHECK(verdict("expect not (answer affirms \"float64\")") == std::string("PASS"));
  CHECK(verdict("expect answer affirms \"bank_conflict\"") == std::string("FAIL"));  // code is not prose
}

TEST_CASE("evidence quotes the deciding sentence with the trigger marked") {
  Run r = run("expect answer affirms \"prefix cache\"");
  CHECK(r.all.find("denied in \"The slowdown is [not] caused by the prefix cache") != std::string::npos);
  CHECK(r.all.find("(trigger: not)") != std::string::npos);
  CHECK(r.all.find("negated, not stated") != std::string::npos);
}

TEST_CASE("an all-concept stated across sentences quotes where each part is stated") {
  Run r = run("let fix = concept([\"hit rate\", \"collision-free\", \"45 GB/s\"], \"all\", \"fix\")\nexpect answer affirms fix");
  INFO(r.all);
  CHECK(r.all.find("stated in \"The threads of a warp collide on one bank, so the fix is collision-free indexing.\"") != std::string::npos);
  CHECK(r.all.find("\"45 GB/s\" stated in \"The fix is 3.1x faster and reaches 45 GB/s at 1.2 ms p50.\"") != std::string::npos);
  CHECK(r.all.find("fix: stated, every member: \"hit rate\" stated in") != std::string::npos);
}

TEST_CASE("polarity, code_of and claims as values") {
  CHECK(verdict(R"(
  expect polarity(answer, "float64") == "negated"
  expect polarity(answer, "hit rate") == "affirmed"
  expect polarity(answer, "bank_conflict") == "absent"
  expect polarity(answer, conflict) == "affirmed"
  expect code_of(answer) mentions "bank_conflict"
  expect any(claims(answer), c => c.value within 10% of 3.0 and c.unit == "x")
  expect any(claims(answer, like = 1 GB/s), c => c.value == 45 GB/s)
  expect any(claims(answer, like = 1 s), c => c.value == 1.2 ms)
  expect len(claims(answer, like = 1 GB/s)) == 1
  expect claims(answer)[0].polarity == "affirmed"
  expect map(claims(answer), c => c.kind) == ["ratio", "quantity", "quantity"]
)") == std::string("PASS"));
}

TEST_CASE("word_count counts the words a reader sees, not hidden padding") {
  rubric::test::TempDir dir;
  std::string padded = "The allocator leaks.\n<!-- ";
  for (int i = 0; i < 500; ++i) padded += "pad ";
  padded += "-->\n<div hidden>more pad</div>\n[//]: # (pad pad pad)\n<p>Two more.</p>\n";
  dir.write("sub/answer.md", padded);
  dir.dir("ref");
  const std::string text = "rubric \"t\" {}\nuse std.text\n"
                           "criterion n \"n\" {\n  expect word_count(text(submission / \"answer.md\")) == 5\n}\n"
                           "criterion l \"l\" {\n  check answer_length(text(submission / \"answer.md\"), min = 20)\n}\n";
  auto report = rubric::test::run_text(text, dir.path + "/sub", dir.path + "/ref");
  REQUIRE(report.criteria.size() == 2);
  CHECK(report.criteria[0].verdict == rubric::Verdict::pass);
  CHECK(report.criteria[1].verdict == rubric::Verdict::fail);  // 5 words shown, however many hidden
}

TEST_CASE("a plain measured number is compared with ratios and bare numbers, not counts of things or arities") {
  rubric::test::TempDir dir;
  dir.write("sub/counts.md", "It runs on 2 GPUs with a 2-way bank conflict and 2 loads per thread.\n");
  dir.write("sub/speedup.md", "It runs on 8 GPUs; the fix is 2.1x faster.\n");
  dir.dir("ref");
  const std::string text = "rubric \"t\" {}\nuse std.text\n"
                           "criterion counts \"c\" {\n  check answer_claims(text(submission / \"counts.md\"), 2.05)\n}\n"
                           "criterion speedup \"s\" {\n  check answer_claims(text(submission / \"speedup.md\"), 2.05)\n}\n"
                           "criterion kinds \"k\" {\n  expect map(claims(text(submission / \"counts.md\")), c => c.kind) == "
                           "[\"count\", \"arity\", \"count\"]\n}\n";
  auto report = rubric::test::run_text(text, dir.path + "/sub", dir.path + "/ref");
  REQUIRE(report.criteria.size() == 3);
  CHECK(report.criteria[0].verdict == rubric::Verdict::fail);
  CHECK(report.criteria[1].verdict == rubric::Verdict::pass);
  CHECK(report.criteria[2].verdict == rubric::Verdict::pass);
}

TEST_CASE("checks sharing one answer show what each shows alone") {
  // The answer is cut once per evaluation and shared: each check's verdict and evidence are
  // those of the check evaluated on its own, in either order, on the same text or an equal one.
  const std::vector<std::string> checks = {
      "expect answer affirms conflict",
      "expect answer denies all [\"prefix cache\", \"attention sink\"]",
      "expect text(submission / \"answer.md\") affirms \"prefix cache\"",
      "expect polarity(answer, recompute) == \"hedged\"",
      "expect any(claims(answer), c => c.value within 10% of 2.0)",
      "expect code_of(answer) mentions \"bank_conflict\"",
      "expect answer denies \"float64\""};
  std::string forwards, backwards;
  for (const auto& c : checks) forwards = forwards + c + "\n";
  for (const auto& c : checks) backwards = c + "\n" + backwards;
  const std::string together = run(forwards).all, reversed = run(backwards).all;
  std::size_t lines = 0;
  for (const auto& c : checks) {
    std::string alone = run(c).all;
    alone.resize(alone.size() - 1);  // the report's title, "t"
    CHECK(together.find(alone) != std::string::npos);
    CHECK(reversed.find(alone) != std::string::npos);
    lines += alone.size();
  }
  CHECK(together.size() == lines + 1);
  CHECK(reversed.size() == lines + 1);
}

TEST_CASE("numbers and claims never hand a rubric an infinity from the submission's text") {
  // "1e999" overflows a double: like JSON's "number out of range", it is no number at all.
  CHECK(verdict(R"(
  expect numbers("1e999 then 2") == [2]
  expect len(claims("It is 1e999x faster, or 2x.")) == 1
  expect claims("It is 1e999x faster, or 2x.")[0].value == 2
  expect not any(numbers("{answer} 1e999"), x => x > 1e300)
)") == std::string("PASS"));
}

TEST_CASE("a bad concept is the rubric's error") {
  CHECK(run("expect answer affirms 3").report.title.find("'affirms' needs a phrase, a list of phrases or a concept") !=
        std::string::npos);
  CHECK(verdict("expect answer affirms \"  \"") == std::string("ERROR"));
  CHECK(verdict("expect polarity(answer, []) == \"absent\"") == std::string("ERROR"));
}
