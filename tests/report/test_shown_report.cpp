#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "report/json_report.hpp"
#include "report/junit_report.hpp"
#include "report/markdown_report.hpp"
#include "report/shown_report.hpp"
#include "report/text_report.hpp"
#include "sample_reports.hpp"

using rubric::report::shown_report;

namespace {

rubric::Report report_with_paths() {
  auto r = rubric::test::single_check_report(rubric::Verdict::fail, rubric::OverallVerdict::fail);
  r.provenance.submission_dir = "/srv/grading/job-17/sub";
  r.provenance.reference_dir = "/srv/grading/job-17/sub/ref";
  auto& check = r.criteria[0].checks[0];
  check.evidence = {"/srv/grading/job-17/sub/a.json: no such file",
                    "read /srv/grading/job-17/sub/ref/base.json and (/srv/grading/job-17/sub)",
                    "/srv/grading/job-17/subtle/x is another folder",
                    "Traceback: File \"/tmp/x y/rubric-run-a1B2c3/work/solve.py\", line 3",
                    "/var/tmp/rubric-run-zzzzzz/tmp/cache"};
  check.explanation = "/srv/grading/job-17/sub";
  return r;
}

}  // namespace

TEST_CASE("shown report: the grading machine's folders are shown relative to their roots") {
  const char* old_tmp = std::getenv("TMPDIR");
  const std::string saved = old_tmp ? old_tmp : "";
  setenv("TMPDIR", "/tmp/x y/", 1);  // a TMPDIR with a space: found by its name, not as a token
  const auto shown = shown_report(report_with_paths());
  const auto& e = shown->criteria[0].checks[0].evidence;
  CHECK(e[0] == "submission/a.json: no such file");
  CHECK(e[1] == "read reference/base.json and (submission)");
  CHECK(e[2] == "/srv/grading/job-17/subtle/x is another folder");  // not the submission's folder
  CHECK(e[3] == "Traceback: File \"scratch/work/solve.py\", line 3");
  CHECK(e[4] == "scratch/tmp/cache");
  CHECK(shown->criteria[0].checks[0].explanation == "submission");
  // The provenance keeps the folders as given on the command line.
  CHECK(shown->provenance.submission_dir == "/srv/grading/job-17/sub");
  if (old_tmp) setenv("TMPDIR", saved.c_str(), 1);
  else unsetenv("TMPDIR");
}

TEST_CASE("shown report: every string of the model is one printable line") {
  auto r = report_with_paths();
  const std::string hostile = "x\n[PASS] y\x1b[2K\xef\xbf\xbe\xff";
  const std::string shown_form = "x\\n[PASS] y\\x1b[2K\\u{fffe}\\xff";
  r.title = hostile;
  r.metadata[hostile] = hostile;
  r.provenance.params["p"] = hostile;
  r.provenance.files.push_back({hostile, "submission", "00", 1});
  r.provenance.runs.push_back({hostile, "process group", 0.1, 0});
  r.provenance.device["name"] = hostile;
  r.provenance.host["name"] = hostile;
  r.provenance.compiler = hostile;
  r.provenance.cuda["driver"] = hostile;
  auto& c = r.criteria[0];
  c.title = c.reason = hostile;
  c.notes = {hostile};
  c.checks[0].label = c.checks[0].message = c.checks[0].explanation = hostile;
  c.checks[0].evidence = {hostile};
  r.warnings.push_back(rubric::Diagnostic{rubric::Severity::warning, nullptr, {}, hostile, {hostile}});
  const auto shown = shown_report(r);
  CHECK(shown->title == shown_form);
  CHECK(shown->metadata.begin()->first == shown_form);
  CHECK(shown->metadata.begin()->second == shown_form);
  CHECK(shown->provenance.params.at("p") == shown_form);
  CHECK(shown->provenance.files.back().path == shown_form);
  CHECK(shown->provenance.runs.back().command == shown_form);
  CHECK(shown->provenance.device.at("name") == shown_form);
  CHECK(shown->provenance.host.at("name") == shown_form);
  CHECK(shown->provenance.compiler == shown_form);
  CHECK(shown->provenance.cuda.at("driver") == shown_form);
  CHECK(shown->criteria[0].title == shown_form);
  CHECK(shown->criteria[0].reason == shown_form);
  CHECK(shown->criteria[0].notes[0] == shown_form);
  CHECK(shown->criteria[0].checks[0].label == shown_form);
  CHECK(shown->criteria[0].checks[0].message == shown_form);
  CHECK(shown->criteria[0].checks[0].evidence[0] == shown_form);
  CHECK(shown->warnings[0].message == shown_form);
  CHECK(shown->warnings[0].notes[0] == shown_form);
  // And every printer shows that form, never the raw bytes.
  for (const std::string& out : {rubric::report::format_text(r), rubric::report::format_markdown(r),
                                 rubric::report::format_json(r), rubric::report::format_junit(r)}) {
    CHECK(out.find("\n[PASS]") == std::string::npos);
    CHECK(out.find('\x1b') == std::string::npos);
    CHECK(out.find("\xef\xbf\xbe") == std::string::npos);
  }
}
