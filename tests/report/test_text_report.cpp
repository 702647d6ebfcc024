#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "report/text_report.hpp"
#include "operators/text/utf8.hpp"
#include "sample_reports.hpp"

using rubric::text::display_width;
using rubric::report::format_text;
using rubric::report::TextOptions;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

const std::string* line_containing(const std::vector<std::string>& lines, const std::string& needle) {
  for (const std::string& l : lines)
    if (l.find(needle) != std::string::npos) return &l;
  return nullptr;
}

}  // namespace

TEST_CASE("text report: header, criteria, checks with evidence, summary") {
  const std::string text = format_text(rubric::test::kv_cache_report());
  const auto lines = lines_of(text);
  REQUIRE(!lines.empty());
  CHECK(lines[0] == "KV-cache eviction: long-context throughput regression (version 1.0)");
  CHECK(line_containing(lines, "author: grading team"));
  CHECK(line_containing(lines, "params: context = 32768"));

  CHECK(line_containing(lines, "[PASS] numerics — logits match the fp32 reference to 1e-3"));
  const std::string* facts = line_containing(lines, "weight 4 · required · score 100%");
  REQUIRE(facts);
  CHECK(facts->rfind("       weight", 0) == 0);  // under the title
  CHECK(line_containing(lines, "[FAIL] throughput — output throughput"));
  CHECK(line_containing(lines, "weight 3 · after numerics · score 0%"));
  CHECK(line_containing(lines, "penalty 1 · deducted"));

  // Group children are indented by two more columns; skip reason and notes are shown.
  CHECK(line_containing(lines, "[ERROR] group serving — serving performance"));
  const std::string* skipped = line_containing(lines, "[SKIP] speed — at least 1.5x faster");
  REQUIRE(skipped);
  CHECK(skipped->rfind("  [SKIP]", 0) == 0);
  CHECK(line_containing(lines, "needs gpu · not scored"));
  CHECK(line_containing(lines, "reason: no usable CUDA device"));
  CHECK(line_containing(lines, "note: baseline measured on an H100"));
}

TEST_CASE("text report: check lines right-align the location and indent evidence by 4") {
  const std::string text = format_text(rubric::test::kv_cache_report());
  const auto lines = lines_of(text);
  const std::string* fail = line_containing(lines, "✘ cand.output_throughput >= 0.95 * base.output_throughput");
  REQUIRE(fail);
  CHECK(fail->rfind("  ✘ ", 0) == 0);
  CHECK(fail->size() > std::string("kv.rubric:19:10").size());
  CHECK(fail->substr(fail->size() - 15) == "kv.rubric:19:10");
  CHECK(display_width(*fail) == 100);
  const std::string* pass = line_containing(lines, "✔ out.shape == ref.shape");
  REQUIRE(pass);
  CHECK(display_width(*pass) == 100);

  CHECK(line_containing(lines, "      11234.5 tok/s >= 11780 tok/s  (0.95 × 12400 tok/s)"));
  CHECK(line_containing(lines, "      → 4.6% short"));
  CHECK(line_containing(lines, "! cand.p99_ttft <= 1.1 * base.p99_ttft"));
  // Check inside a group sits two columns deeper; its label follows the source.
  const std::string* labelled = line_containing(lines, "[for f = \"a \\\"quoted\\\" name\"]");
  REQUIRE(labelled);
  CHECK(line_containing(lines, "      else: proposes the plausible but wrong fix"));
}

TEST_CASE("text report: summary names score, counts and why") {
  const std::string text = format_text(rubric::test::kv_cache_report());
  CHECK(text.find("criteria: 1 PASS, 2 FAIL, 1 ERROR, 1 SKIP · checks: 2 PASS, 2 FAIL, 1 ERROR") != std::string::npos);
  CHECK(text.find("score 42.9% (pass mark 70%)") != std::string::npos);
  CHECK(text.find("verdict: ERROR — criterion tail in ERROR") != std::string::npos);
}

TEST_CASE("text report: deterministic unless verbose, coloured only when asked") {
  const auto report = rubric::test::kv_cache_report();
  const std::string plain = format_text(report);
  CHECK(plain.find("/abs") == std::string::npos);
  CHECK(plain.find("12.50 s") == std::string::npos);
  CHECK(plain.find("2026-01-02") == std::string::npos);
  CHECK(plain.find('\x1b') == std::string::npos);

  TextOptions verbose;
  verbose.verbose = true;
  const std::string v = format_text(report, verbose);
  CHECK(v.find("checked in 12.50 s · started 2026-01-02T03:04:05Z · 1 files read · 1 program runs · seed 7") !=
        std::string::npos);

  TextOptions colour;
  colour.colour = true;
  const std::string c = format_text(report, colour);
  CHECK(c.find("\x1b[32m[PASS]\x1b[0m numerics") != std::string::npos);
  CHECK(c.find("\x1b[31m✘\x1b[0m cand.output_throughput") != std::string::npos);
  CHECK(c.find("\x1b[90m[SKIP]") != std::string::npos);
  CHECK(c.find("\x1b[35m!\x1b[0m") != std::string::npos);
}

TEST_CASE("text report: a multi-line source is folded, a long one keeps two spaces before the location") {
  auto report = rubric::test::single_check_report(rubric::Verdict::pass, rubric::OverallVerdict::pass);
  report.criteria[0].checks[0].source_text = "call(f, x)[0]\n           matches call(ref, x)[0] to 1e-5";
  std::string text = format_text(report);
  CHECK(text.find("✔ call(f, x)[0] matches call(ref, x)[0] to 1e-5") != std::string::npos);

  report.criteria[0].checks[0].source_text = std::string(120, 'x');
  text = format_text(report);
  CHECK(text.find(std::string(120, 'x') + "  kv.rubric:3:10") != std::string::npos);
}

TEST_CASE("text report: invalid UTF-8 in evidence is shown as escapes, not passed to the terminal") {
  auto report = rubric::test::single_check_report(rubric::Verdict::fail, rubric::OverallVerdict::fail);
  report.criteria[0].checks[0].evidence = {"stdout: \xff\xfe ok"};
  const std::string text = format_text(report);
  CHECK(text.find("stdout: \\xff\\xfe ok") != std::string::npos);
}
