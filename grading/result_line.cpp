#include "grading/result_line.hpp"

#include <ctime>

#include <fmt/format.h>

#include "report/json_report.hpp"
#include "report/json_writer.hpp"
#include "report/shown_report.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::grading {
namespace {

// JsonWriter indents; a JSONL line must not. Newlines only ever separate tokens (strings escape
// theirs), so dropping each newline with the indentation after it keeps the document identical.
std::string one_line(const std::string& indented) {
  std::string out;
  out.reserve(indented.size());
  for (std::size_t i = 0; i < indented.size(); ++i) {
    if (indented[i] == '\n') {
      while (i + 1 < indented.size() && indented[i + 1] == ' ') ++i;
      continue;
    }
    out.push_back(indented[i]);
  }
  return out;
}

void write_head(report::JsonWriter& w, const LineContext& c, const char* verdict, const std::optional<double>& score,
                int exit, const std::string& reason) {
  w.begin_object();
  w.key("submission");
  w.value(c.submission);
  w.key("verdict");
  w.value(verdict);
  w.key("score");
  w.value(score);
  w.key("exit");
  w.value(exit);
  w.key("reason");
  w.value(reason);
}

void write_tail(report::JsonWriter& w, const LineContext& c, const Report* report) {
  w.key("seconds");
  w.value(c.seconds);
  w.key("graded_at");
  w.value(c.graded_at);
  w.key("measurements");
  w.begin_object();
  w.key("count");
  w.value(static_cast<std::uint64_t>(c.measurements.count));
  w.key("alone");
  w.value(c.measurements.alone);
  w.key("waited_seconds");
  w.value(c.measurements.waited_seconds);
  w.key("lock");
  w.value(c.measurements.lock);
  w.end_object();
  w.key("key");
  w.begin_object();
  w.key("rubric_sha256");
  w.value(c.key.rubric_sha256);
  w.key("submission_sha256");
  w.value(c.key.submission_sha256);
  w.key("params_sha256");
  w.value(c.key.params_sha256);
  w.key("tool_version");
  w.value(c.key.tool_version);
  w.end_object();
  // Reference files the result depends on: a reused result is checked against them.
  w.key("reference_files");
  w.begin_array();
  if (report)
    for (const FileRecord& f : report->provenance.files) {
      if (f.root != "reference") continue;
      w.begin_object();
      w.key("path");
      w.value(f.path);
      w.key("xxh3_128");
      w.value(f.digest);
      w.end_object();
    }
  w.end_array();
  w.end_object();
}

}  // namespace

std::string format_result_line(const LineContext& context, const Report& unescaped) {
  // The strings `check --format json` shows: escaped, capped, grading-machine paths relative.
  const report::ShownReport shown = report::shown_report(unescaped);
  const Report& report = shown.get();
  report::JsonWriter w;
  write_head(w, context, overall_verdict_name(report.verdict), report.score, exit_code(report.verdict),
             report::overall_reason(report));
  w.key("criteria");
  w.begin_array();
  for (const CriterionResult& c : report.criteria) report::write_criterion(w, c);
  w.end_array();
  w.key("warnings");
  w.begin_array();
  for (const Diagnostic& d : report.warnings) report::write_diagnostic(w, d);
  w.end_array();
  write_tail(w, context, &unescaped);
  return one_line(w.str());
}

std::string format_error_line(const LineContext& context, const std::string& reason) {
  report::JsonWriter w;
  write_head(w, context, overall_verdict_name(OverallVerdict::error), std::nullopt, exit_code(OverallVerdict::error),
             reason);
  w.key("criteria");
  w.begin_array();
  w.end_array();
  w.key("warnings");
  w.begin_array();
  w.end_array();
  write_tail(w, context, nullptr);
  return one_line(w.str());
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace rubric::grading
