// The HTML report: self-contained, every string escaped, failures open, plots drawn from the model.
#include <doctest/doctest.h>

#include <string>

#include "operators/json/json_reader.hpp"
#include "report/corpus_html.hpp"
#include "report/html_report.hpp"
#include "report/json_writer.hpp"
#include "report/svg_plots.hpp"
#include "sample_reports.hpp"

using namespace rubric;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("the page is one self-contained document: verdict at the top, no script, nothing fetched") {
  const std::string html = report::format_html(test::kv_cache_report());
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("id=\"verdict\">ERROR<") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("href=") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
  CHECK(html.find("Content-Security-Policy") != std::string::npos);
  CHECK(html.find("Provenance") > html.find("id=\"criterion-numerics\""));
}

TEST_CASE("failed and undecided criteria are open, passed ones closed") {
  const std::string html = report::format_html(test::kv_cache_report());
  CHECK(html.find("<details class=\"criterion\" id=\"criterion-numerics\" data-verdict=\"PASS\">") != std::string::npos);
  CHECK(html.find("<details class=\"criterion\" id=\"criterion-throughput\" data-verdict=\"FAIL\" open>") != std::string::npos);
}

TEST_CASE("a passed criterion whose verdict rests on an ambiguous reading opens, with a badge, and the summary names it") {
  Report r = test::kv_cache_report();
  r.criteria[0].checks[0].review = "\"prefix cache\": a question";
  const std::string html = report::format_html(r);
  CHECK(html.find("<details class=\"criterion\" id=\"criterion-numerics\" data-verdict=\"PASS\" open>") != std::string::npos);
  CHECK(html.find("<span class=\"review-badge\">review</span></summary>") != std::string::npos);
  CHECK(html.find("<p class=\"review\" id=\"marked\">1 criterion marked for review (verdict kept): numerics</p>") !=
        std::string::npos);
  CHECK(report::format_html(test::kv_cache_report()).find("review-badge\">") == std::string::npos);
}

TEST_CASE("submission text cannot become markup") {
  Report r = test::single_check_report(Verdict::fail, OverallVerdict::fail);
  const std::string hostile = "</pre><script>alert(1)</script><img src=x onerror=alert(2)>\"'&";
  r.title = hostile;
  r.metadata["k"] = hostile;
  r.criteria[0].title = r.criteria[0].reason = hostile;
  r.criteria[0].notes = {hostile};
  CheckResult& c = r.criteria[0].checks[0];
  c.evidence = {hostile};
  c.explanation = c.message = c.label = hostile;
  c.samples = SamplePlot{"s", {{hostile, {1, 2, 3}}}, hostile, "", 1, 0.5, 1.5, 2, true};
  const std::string html = report::format_html(r);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("</pre><") == std::string::npos);
  CHECK(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") >= 7);
}

TEST_CASE("a statistical comparison is drawn as its samples and its interval against the bound") {
  SamplePlot p;
  p.unit = "s";
  p.series = {{"t0", {0.010, 0.011, 0.012}}, {"t", {0.005, 0.006}}};
  p.quantity = "t0 / t";
  p.estimate = 2;
  p.lo = 1.8;
  p.hi = 2.2;
  p.bound = 1.2;
  const std::string svg = report::svg_sample_plot(p);
  CHECK(count(svg, "class=\"dot\"") == 5);
  CHECK(count(svg, "class=\"median\"") == 2);
  CHECK(count(svg, "class=\"interval\"") == 1);
  CHECK(count(svg, "class=\"bound\"") == 1);
  CHECK(count(svg, "class=\"passing-side\"") == 1);
  CHECK(svg.find(">ms<") != std::string::npos);  // seconds shown with a readable prefix
}

TEST_CASE("a mismatch map shades only the cells with mismatches, by their fraction") {
  MismatchMap m{4, 4, 2, 2, {0, 4, 1, 0}, {4, 4, 4, 4}};
  const std::string svg = report::svg_mismatch_map(m);
  CHECK(count(svg, "class=\"cell\"") == 2);
  CHECK(svg.find("fill-opacity=\"1.00\"") != std::string::npos);
  CHECK(svg.find("fill-opacity=\"0.44\"") != std::string::npos);
  CHECK(report::svg_mismatch_map(MismatchMap{}).empty());
}

TEST_CASE("the corpus page: verdict counts, score histogram, pass rates, escaped submission names") {
  const std::string hostile = "<script>alert(1)</script>\n[PASS] forged";
  std::string text = R"({"schema": 1, "submissions": 3, "graded": 3, "reused": 0,
    "verdicts": {"PASS": 1, "FAIL": 2, "INCOMPLETE": 0, "ERROR": 0},
    "criteria": [{"id": "numerics", "kind": "criterion", "title": "t", "counts": {"PASS": 1, "FAIL": 2, "ERROR": 0, "SKIP": 0, "INCONCLUSIVE": 0}, "pass_rate": 0.3333}],
    "score": {"count": 3, "mean": 0.5, "min": 0, "q1": 0.25, "median": 0.5, "q3": 0.75, "max": 1,
              "histogram": [{"from": 0, "to": 0.5, "count": 1}, {"from": 0.5, "to": 1, "count": 2}]},
    "slowest": [{"submission": "HOSTILE", "seconds": 1, "verdict": "FAIL"}], "errors": [],
    "provenance": {"tool_version": "0.1.0", "rubric": {"file": "kv.rubric", "sha256": "ab"}}})";
  text.replace(text.find("\"HOSTILE\""), 9, report::json_quote(hostile));
  const json::Value summary = json::parse(text, "summary.json");
  const std::string html = report::format_corpus_html(summary);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("&lt;script&gt;") != std::string::npos);
  CHECK(html.find("\n[PASS] forged") == std::string::npos);
  CHECK(count(html, "class=\"bar\"") == 2);
  CHECK(html.find("class=\"plot pass-rates\"") != std::string::npos);
  CHECK(html.find("33.3%") != std::string::npos);
  CHECK(html.find("<span class=\"verdict v-FAIL\">FAIL 2</span>") != std::string::npos);
  CHECK(html.find("mean 50%") != std::string::npos);
}

TEST_CASE("the corpus page names the submissions that order their grader, escaped, and says nothing when none does") {
  const std::string base = R"({"schema": 1, "submissions": 3, "graded": 3, "reused": 0,
    "verdicts": {"PASS": 3, "FAIL": 0, "INCOMPLETE": 0, "ERROR": 0}, "criteria": [],
    "addressed_reader": {"count": COUNT, "submissions": LIST},
    "errors": [], "provenance": {"tool_version": "0.1.0", "rubric": {"file": "kv.rubric", "sha256": "ab"}}})";
  auto page = [&](const std::string& count, const std::string& list) {
    std::string s = base;
    s.replace(s.find("COUNT"), 5, count);
    s.replace(s.find("LIST"), 4, list);
    return report::format_corpus_html(json::parse(s, "summary.json"));
  };
  const std::string html = page("3", R"(["s1", "<s2>"])");
  CHECK(html.find("<h2>Orders to the grader</h2>") != std::string::npos);
  CHECK(html.find("3 submissions order whoever grades them") != std::string::npos);
  CHECK(html.find("(the first 2 listed)") != std::string::npos);
  CHECK(html.find("<code>s1</code>, <code>&lt;s2&gt;</code>") != std::string::npos);
  CHECK(page("0", "[]").find("Orders to the grader") == std::string::npos);
}

TEST_CASE("the corpus page counts and lists the verdicts marked for review, and says nothing when none is") {
  const char* marked = R"({"schema": 1, "submissions": 3, "graded": 3, "reused": 0,
    "verdicts": {"PASS": 2, "FAIL": 1, "INCOMPLETE": 0, "ERROR": 0},
    "criteria": [{"id": "cause", "kind": "criterion", "title": "t", "counts": {"PASS": 2, "FAIL": 1, "ERROR": 0, "SKIP": 0, "INCONCLUSIVE": 0},
                  "review": {"count": 3, "submissions": ["s1", "<s2>"]}, "pass_rate": 0.6667},
                 {"id": "speed", "kind": "criterion", "title": "t", "counts": {"PASS": 3, "FAIL": 0, "ERROR": 0, "SKIP": 0, "INCONCLUSIVE": 0},
                  "review": {"count": 0, "submissions": []}, "pass_rate": 1}],
    "errors": [], "provenance": {"tool_version": "0.1.0", "rubric": {"file": "kv.rubric", "sha256": "ab"}}})";
  const std::string html = report::format_corpus_html(json::parse(marked, "summary.json"));
  CHECK(html.find("<th>marked for review</th>") != std::string::npos);
  CHECK(html.find("<td>66.7%</td><td>3</td>") != std::string::npos);
  CHECK(html.find("<td>100%</td><td>0</td>") != std::string::npos);
  CHECK(html.find("<h2>Marked for review</h2>") != std::string::npos);
  CHECK(html.find("<li><code>cause</code>: 3 marked (the first 2 listed): <code>s1</code>, <code>&lt;s2&gt;</code></li>") !=
        std::string::npos);
  CHECK(html.find("<code>speed</code>: ") == std::string::npos);

  std::string clear = marked;
  clear.replace(clear.find("\"count\": 3"), 10, "\"count\": 0");
  const std::string plain = report::format_corpus_html(json::parse(clear, "summary.json"));
  CHECK(plain.find("marked for review") == std::string::npos);
  CHECK(plain.find("Marked for review") == std::string::npos);
}

TEST_CASE("the corpus page links a submission's folder percent-encoded, whatever bytes its name holds") {
  const json::Value summary = json::parse(R"({"schema": 1, "submissions": 1, "graded": 1, "reused": 0,
    "verdicts": {"PASS": 1, "FAIL": 0, "INCOMPLETE": 0, "ERROR": 0}, "criteria": [], "errors": [],
    "provenance": {"tool_version": "0.1.0", "rubric": {"file": "kv.rubric", "sha256": "ab"}}})", "summary.json");
  std::string html;
  const std::string name = "evil/x\x1b[2J\x1b[32mPASS 100%\"#";
  report::write_corpus_html(summary, [&](const std::function<bool(const report::CorpusRow&)>& visit) {
    visit(report::CorpusRow{name, "PASS", 1.0, ""});
  }, [&](std::string_view part) { html += part; });
  CHECK(html.find('\x1b') == std::string::npos);
  CHECK(html.find("href=\"./evil/x%1B%5B2J%1B%5B32mPASS%20100%25%22%23\"") != std::string::npos);
}
