#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include "report/junit_report.hpp"
#include "report/markdown_report.hpp"
#include "report/report_format.hpp"
#include "sample_reports.hpp"
#include "tests/shell_quote.hpp"

namespace fs = std::filesystem;
using namespace rubric;

TEST_CASE("xml escaping") {
  CHECK(report::xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
  CHECK(report::xml_escape(std::string("bell\x07", 5)) == "bell\xEF\xBF\xBD");
  CHECK(report::xml_escape("keep\nnewline\ttab") == "keep\nnewline\ttab");
}

TEST_CASE("junit report parses with xml.etree: one testsuite, one testcase per criterion") {
  Report r = test::kv_cache_report();
  r.criteria[3].checks[0].evidence.push_back("raw <&> text");
  const fs::path dir = fs::temp_directory_path() / fmt::format("rubric-junit-{}", getpid());
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "report.xml", std::ios::binary);
    out << report::format_junit(r);
  }
  const std::string command = fmt::format("/usr/bin/python3 {} {} > {} 2>&1", rubric::test::shell_quote(RUBRIC_REPORT_TEST_DIR "/check_junit_report.py"),
                                           rubric::test::shell_quote((dir / "report.xml").string()), rubric::test::shell_quote((dir / "py.txt").string()));
  const int status = std::system(command.c_str());
  std::ifstream py(dir / "py.txt");
  const std::string py_output((std::istreambuf_iterator<char>(py)), std::istreambuf_iterator<char>());
  INFO(py_output);
  CHECK(status == 0);
  CHECK(py_output == "ok\n");
  fs::remove_all(dir);
}

TEST_CASE("junit report: the rubric's warnings are the suite's system-err, escaped") {
  Report r = test::kv_cache_report();
  CHECK(report::format_junit(r).find("<system-err>") == std::string::npos);
  r.warnings.push_back(Diagnostic{Severity::warning, nullptr, {}, "header field 'pass' must be in [0, 1] <got 70>", {"write 70%"}});
  const std::string xml = report::format_junit(r);
  const auto at = xml.find("    <system-err>");
  REQUIRE(at != std::string::npos);
  CHECK(xml.find("header field &apos;pass&apos; must be in [0, 1] &lt;got 70&gt;", at) != std::string::npos);
  CHECK(xml.find("write 70%", at) != std::string::npos);
  CHECK(xml.find("</system-err>\n  </testsuite>", at) != std::string::npos);  // after the test cases
}

TEST_CASE("markdown report: verdict line, criteria table, details with evidence") {
  Report r = test::kv_cache_report();
  r.criteria[1].title = "pipes | in titles";
  r.criteria[1].checks[0].source_text = "a `tick` b";
  const std::string md = report::format_markdown(r);
  CHECK(md.rfind("# KV-cache eviction: long-context throughput regression (version 1.0)\n", 0) == 0);
  CHECK(md.find("**Verdict: ERROR** — criterion tail in ERROR") != std::string::npos);
  CHECK(md.find("| criterion | title | verdict | weight | score |") != std::string::npos);
  CHECK(md.find("| numerics | logits match the fp32 reference to 1e-3 | ✔ PASS | 4, required | 100% |") !=
        std::string::npos);
  CHECK(md.find("| throughput | pipes \\| in titles | ✘ FAIL | 3 | 0% |") != std::string::npos);
  CHECK(md.find("| ↳ speed | at least 1.5x faster | – SKIP | 1 | – |") != std::string::npos);
  CHECK(md.find("| hardcoded | does not hard-code the outputs | ✘ FAIL | penalty 1 | 0% |") != std::string::npos);
  CHECK(md.find("- ✘ FAIL ``a `tick` b`` — `kv.rubric:19:10`") != std::string::npos);
  CHECK(md.find("  ```\n  11234.5 tok/s >= 11780 tok/s  (0.95 × 12400 tok/s)\n  → 4.6% short\n  ```") !=
        std::string::npos);
  CHECK(md.find("*Reason:* no usable CUDA device") != std::string::npos);
}

TEST_CASE("report formats by name") {
  CHECK(report::parse_report_format("json") == report::ReportFormat::json);
  CHECK(report::parse_report_format("md") == report::ReportFormat::markdown);
  CHECK(report::parse_report_format("html") == report::ReportFormat::html);
  CHECK(!report::parse_report_format("pdf"));
  const Report r = test::single_check_report(Verdict::pass, OverallVerdict::pass);
  CHECK(report::render_report(r, report::ReportFormat::json).rfind("{\n  \"schema\": 2,", 0) == 0);
  CHECK(report::render_report(r, report::ReportFormat::junit).rfind("<?xml", 0) == 0);
}
