// The review mark through the language and every report: a check whose verdict rests on an
// ambiguous reading of the prose is marked, its verdict kept; `any` over claims counts only what
// the answer states.
#include <doctest/doctest.h>

#include <string>

#include "report/html_report.hpp"
#include "report/json_report.hpp"
#include "report/junit_report.hpp"
#include "report/markdown_report.hpp"
#include "report/text_report.hpp"
#include "tests/interpreter/helpers.hpp"

namespace {

rubric::Report run(const std::string& answer, const std::string& body) {
  rubric::test::TempDir dir;
  dir.write("sub/answer.md", answer);
  dir.dir("ref");
  std::string text = "rubric \"t\" {}\ncriterion c \"text\" {\n  let answer = text(submission / \"answer.md\")\n" + body + "\n}\n";
  return rubric::test::run_text(text, dir.path + "/sub", dir.path + "/ref");
}

const rubric::CheckResult& only_check(const rubric::Report& r) {
  REQUIRE(r.criteria.size() == 1);
  REQUIRE(r.criteria[0].checks.size() == 1);
  return r.criteria[0].checks[0];
}

}  // namespace

TEST_CASE("affirms, denies and polarity mark a verdict that rests on an ambiguous reading") {
  auto r = run("Is it the prefix cache?", "expect answer affirms \"prefix cache\"");
  const auto& k = only_check(r);
  CHECK(k.verdict == rubric::Verdict::fail);  // the verdict is kept
  CHECK(k.review == "\"prefix cache\": a question");
  CHECK(rubric::review_reason(r.criteria[0]) == "\"prefix cache\": a question");

  auto p = run("The fix might not remove the bank conflicts.", "expect polarity(answer, \"bank conflict\") == \"hedged\"");
  CHECK(only_check(p).verdict == rubric::Verdict::pass);
  CHECK(only_check(p).review == "\"bank conflict\": a hedge and a negation in one clause");
  bool shown = false;
  for (const auto& e : only_check(p).evidence) shown = shown || e.find("ambiguous: a hedge and a negation") != std::string::npos;
  CHECK(shown);

  auto clear = run("The prefix cache is not the cause.", "expect answer denies \"prefix cache\"");
  CHECK(only_check(clear).verdict == rubric::Verdict::pass);
  CHECK(only_check(clear).review.empty());
  CHECK(rubric::review_reason(clear.criteria[0]).empty());
}

TEST_CASE("a FAIL is marked only when the checks it rests on are in doubt") {
  // The doubtful check fails, and so does a clear one: the verdict stands whatever the doubt reads.
  auto clear_fail = run("Is it the prefix cache? The allocator is busy.",
                        "expect answer affirms \"prefix cache\"\n  expect answer affirms \"scheduler\"");
  REQUIRE(clear_fail.criteria.size() == 1);
  CHECK(clear_fail.criteria[0].verdict == rubric::Verdict::fail);
  CHECK(clear_fail.criteria[0].checks[0].review == "\"prefix cache\": a question");  // the check keeps its mark
  CHECK(rubric::review_reason(clear_fail.criteria[0]).empty());
  // Only the doubtful check fails: the FAIL rests on it.
  auto doubtful = run("Is it the prefix cache? The allocator is busy.",
                      "expect answer affirms \"prefix cache\"\n  expect answer affirms \"allocator\"");
  CHECK(doubtful.criteria[0].verdict == rubric::Verdict::fail);
  CHECK(rubric::review_reason(doubtful.criteria[0]) == "\"prefix cache\": a question");
  // A doubtful check that passed beside a clear failure says nothing of the FAIL.
  auto passed_doubt = run("The fix might not remove the bank conflicts.",
                          "expect polarity(answer, \"bank conflict\") == \"hedged\"\n  expect answer affirms \"scheduler\"");
  CHECK(passed_doubt.criteria[0].verdict == rubric::Verdict::fail);
  CHECK(rubric::review_reason(passed_doubt.criteria[0]).empty());
}

TEST_CASE("any over claims counts only a claim the answer states") {
  const std::string pred = "expect any(claims(answer), c => c.value within 10% of 6.5)";
  CHECK(only_check(run("The kernel is 6.5x faster.", pred)).verdict == rubric::Verdict::pass);
  auto hedged = run("The kernel might be 6.5x faster.", pred);
  CHECK(only_check(hedged).verdict == rubric::Verdict::fail);
  CHECK(only_check(hedged).evidence[0].find("not counted: the answer does not state it (hedged)") != std::string::npos);
  CHECK(only_check(run("Keywords: 6.5x, bandwidth.", pred)).verdict == rubric::Verdict::fail);
  CHECK(only_check(run("It is not 6.5x faster.", pred)).verdict == rubric::Verdict::fail);
  // A predicate that reads the polarity decides for itself.
  CHECK(only_check(run("The kernel might be 6.5x faster.", "expect any(claims(answer), c => c.polarity == \"hedged\" and c.value within 10% of 6.5)"))
            .verdict == rubric::Verdict::pass);
  // `all` still checks every claim, hedged ones too.
  CHECK(only_check(run("It is 6.5x faster and might be 10x faster.", "expect all(claims(answer), c => c.value within 10% of 6.5)"))
            .verdict == rubric::Verdict::fail);
  auto asked = run("Is it 6.5x faster?", pred);
  CHECK(only_check(asked).review == "claim 6.5x: a question");
}

TEST_CASE("every report format shows the mark and keeps the verdict") {
  auto r = run("Is it the prefix cache?", "expect answer affirms \"prefix cache\"");
  const std::string text = rubric::report::format_text(r);
  CHECK(text.find("marked for review (verdict kept): \"prefix cache\": a question") != std::string::npos);
  CHECK(text.find("review: \"prefix cache\": a question") != std::string::npos);
  CHECK(text.find("[FAIL]") != std::string::npos);
  const std::string json = rubric::report::format_json(r);
  CHECK(json.find("\"review\": \"\\\"prefix cache\\\": a question\"") != std::string::npos);
  const std::string md = rubric::report::format_markdown(r);
  CHECK(md.find("*Marked for review (verdict kept):* \"prefix cache\": a question") != std::string::npos);
  const std::string html = rubric::report::format_html(r);
  CHECK(html.find("<p class=\"review\">marked for review (verdict kept): &quot;prefix cache&quot;: a question</p>") != std::string::npos);
  const std::string junit = rubric::report::format_junit(r);
  CHECK(junit.find("<property name=\"review\" value=\"&quot;prefix cache&quot;: a question\"/>") != std::string::npos);
  CHECK(junit.find("<failure") != std::string::npos);
  // A clear verdict: no mark anywhere, an empty field in JSON.
  auto clear = run("The prefix cache is the cause.", "expect answer affirms \"prefix cache\"");
  CHECK(rubric::report::format_text(clear).find("review") == std::string::npos);
  CHECK(rubric::report::format_json(clear).find("\"review\": \"\"") != std::string::npos);
  CHECK(rubric::report::format_junit(clear).find("review") == std::string::npos);
}

TEST_CASE("section and labelled give the part of an answer a criterion is about") {
  const std::string answer = "## Diagnosis\n\nThe prefix cache is fine.\n\n## Cause\n\nRoot cause: bank conflicts.\n\n"
                             "Ruled out: register spills.\n";
  auto r = run(answer, "expect labelled(answer, \"root cause\") affirms \"bank conflict\"\n"
                       "expect labelled(answer, \"ruled out\") denies \"register spill\"\n"
                       "expect not (section(answer, \"diagnosis\") affirms \"bank conflict\")\n"
                       "expect section(answer, \"cause\") affirms \"bank conflict\"\n"
                       "expect labelled(answer, \"fix\") == \"\"");
  REQUIRE(r.criteria.size() == 1);
  REQUIRE(r.criteria[0].checks.size() == 5);
  for (const auto& k : r.criteria[0].checks) {
    INFO(k.source_text, " → ", k.explanation);
    CHECK(k.verdict == rubric::Verdict::pass);
  }
}

TEST_CASE("a concept's evidence names the member that matched") {
  auto r = run("The shared prefix blocks are reused and the requests were evicted first.",
               "let preemption = concept([\"preempt\", \"preemption\", \"requests\" near(6) \"evicted\"], \"any\", \"preemption\")\n"
               "expect answer affirms preemption");
  const auto& k = only_check(r);
  CHECK(k.verdict == rubric::Verdict::pass);
  REQUIRE_FALSE(k.evidence.empty());
  CHECK(k.evidence[0].find("stated by \"requests\" near(6) \"evicted\" in") != std::string::npos);
}

TEST_CASE("a whole decided by a clearly read part is not marked for another part's doubtful reading") {
  const std::string answer = "Bank conflicts cause the stall. Is it the prefix cache?";
  // `or`: one side holds clearly, so the whole does not rest on the question.
  CHECK(only_check(run(answer, "expect answer affirms \"bank conflict\" or answer affirms \"prefix cache\"")).review.empty());
  CHECK(only_check(run(answer, "expect answer affirms \"prefix cache\" or answer affirms \"bank conflict\"")).review.empty());
  // ... and `and` decided by a clear FAIL; `affirms any` with one item stated clearly.
  CHECK(only_check(run(answer, "expect answer denies \"bank conflict\" and answer affirms \"prefix cache\"")).review.empty());
  // A left side that settles leaves the right unread (guards work), so the verdict rests on it.
  CHECK(only_check(run(answer, "expect answer affirms \"prefix cache\" and answer denies \"bank conflict\"")).review ==
        "\"prefix cache\": a question");
  CHECK(only_check(run(answer, "expect answer affirms any [\"prefix cache\", \"bank conflict\"]")).review.empty());
  CHECK(only_check(run(answer, "expect answer denies all [\"bank conflict\", \"prefix cache\"]")).review.empty());
  // The whole rests on the doubtful side: no other side settles it.
  auto neither = run(answer, "expect answer affirms \"prefix cache\" or answer affirms \"register spill\"");
  CHECK(only_check(neither).verdict == rubric::Verdict::fail);
  CHECK(only_check(neither).review == "\"prefix cache\": a question");
  auto both = run(answer, "expect answer affirms \"bank conflict\" and not (answer affirms \"prefix cache\")");
  CHECK(only_check(both).verdict == rubric::Verdict::pass);
  CHECK(only_check(both).review == "\"prefix cache\": a question");
  CHECK(only_check(run(answer, "expect answer affirms all [\"bank conflict\", \"prefix cache\"]")).review == "\"prefix cache\": a question");
  // Nested: the inner `or` is settled clearly, so the outer `and` rests on nothing doubtful.
  CHECK(only_check(run(answer, "expect (answer affirms \"prefix cache\" or answer affirms \"stall\") and answer affirms \"bank conflict\""))
            .review.empty());
  // Doubt on both settling sides is kept from both.
  auto doubts = run("Is it the prefix cache? Is it a bank conflict?",
                    "expect not (answer affirms \"prefix cache\" or answer affirms \"bank conflict\")");
  CHECK(only_check(doubts).review == "\"prefix cache\": a question; \"bank conflict\": a question");
}

TEST_CASE("any over claims is marked only for a doubtful claim whose value matched") {
  const std::string pred = "expect any(claims(answer), c => c.value within 10% of 6.5)";
  // The question's 10x does not match 6.5 whatever its polarity, and the stated 6.5x settles it.
  CHECK(only_check(run("The kernel is 6.5x faster. Is it 10x faster?", pred)).review.empty());
  CHECK(only_check(run("Is it 6.5x faster? It is 6.5x faster.", pred)).review.empty());
  CHECK(only_check(run("Is it 10x faster? It is 3x faster.", pred)).review.empty());
  CHECK(only_check(run("Is it 6.5x faster? It is 3x faster.", pred)).review == "claim 6.5x: a question");
}

TEST_CASE("a claim's doubt is its own field, shown on its line; many doubtful claims give a bounded report") {
  // The reason is the claim's `ambiguous` field, "" when clear.
  auto field = run("Is it 6.5x faster? It is 3x faster.",
                   "expect map(claims(answer), c => c.ambiguous) == [\"a question\", \"\"]");
  CHECK(only_check(field).verdict == rubric::Verdict::pass);
  auto one = run("Is it 6.5x faster? It is 3x faster.", "expect any(claims(answer), c => c.value within 10% of 6.5)");
  REQUIRE_FALSE(only_check(one).evidence.empty());
  CHECK(only_check(one).evidence[0].find("claims 6.5x in \"Is it 6.5x faster?\" (hedged; ambiguous: a question): ") == 0);
  // 10,000 asked claims that each match: eight lines of claims, one of the rest, a review of eight reasons and a count.
  std::string answer;
  for (int i = 0; i < 10000; ++i) answer += "Is it " + std::to_string(2.7 + i * 0.00006) + "x faster? ";
  auto many = run(answer, "expect any(claims(answer), c => c.value within 10% of 3)");
  const auto& k = only_check(many);
  CHECK(k.verdict == rubric::Verdict::fail);
  CHECK(k.evidence.size() <= 10);
  std::size_t bytes = 0;
  for (const auto& e : k.evidence) bytes += e.size();
  CHECK(bytes < 4096);
  CHECK(k.review.size() < 1024);
  CHECK(k.review.find("... and 9992 more claims read in doubt") != std::string::npos);
  CHECK(rubric::review_reason(many.criteria[0]).size() < 1024);
}

TEST_CASE("a claim's polarity read in doubt marks what it decides: a filter before a loop, a predicate of any") {
  // A loop over the claims a filter on polarity chose: every check of the loop rests on the choice.
  const std::string loop =
      "  for c in filter(claims(answer), c => c.unit == \"x\" and c.polarity != \"negated\") {\n"
      "    expect c.value within 10% of 2.4\n  }";
  auto asked = run("The kernel is 2.4x faster. Is it 10x faster?", loop);
  REQUIRE(asked.criteria[0].checks.size() == 2);
  CHECK(asked.criteria[0].verdict == rubric::Verdict::fail);
  CHECK(rubric::review_reason(asked.criteria[0]) == "claim 10x: a question");
  auto far = run("The kernel is 2.4x faster. It is not, in the long run of the benchmark on the big machine with the new "
                 "driver and the old one, 10x faster.",
                 loop);
  CHECK(far.criteria[0].verdict == rubric::Verdict::pass);
  CHECK(rubric::review_reason(far.criteria[0]).find("claim 10x: the negation 'not' is") == 0);
  auto clear = run("The kernel is 2.4x faster. It is not 10x faster.", loop);
  CHECK(rubric::review_reason(clear.criteria[0]).empty());
  // `any` whose predicate reads the polarity: a claim that matches clearly settles it, unmarked.
  auto settled = run("The kernel is 2.4x faster. Is it 10x faster?",
                     "  expect any(claims(answer), c => c.polarity == \"affirmed\" and c.value within 10% of 2.4)");
  CHECK(only_check(settled).verdict == rubric::Verdict::pass);
  CHECK(only_check(settled).review.empty());
  auto rests = run("The kernel is 2.4x faster. Is it 10x faster?",
                   "  expect any(claims(answer), c => c.polarity == \"hedged\" and c.value within 10% of 10)");
  CHECK(only_check(rests).verdict == rubric::Verdict::pass);
  CHECK(only_check(rests).review == "claim 10x: a question");
}

TEST_CASE("section and labelled need a heading or label with words") {
  auto r = run("Root cause: bank conflicts.", "  expect labelled(answer, \"\") affirms \"bank conflict\"");
  CHECK(only_check(r).verdict == rubric::Verdict::error);
  CHECK(only_check(r).explanation.find("bad argument #2 to 'labelled'") != std::string::npos);
  auto s = run("## Fix\n\nPad the tile.", "  expect section(answer, \" : \") affirms \"pad\"");
  CHECK(only_check(s).verdict == rubric::Verdict::error);
}
