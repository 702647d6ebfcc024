#include "grading/result_line.hpp"

#include <ctime>

#include <fmt/format.h>

#include "interpreter/addressed_reader.hpp"
#include "report/json_report.hpp"
#include "report/json_writer.hpp"
#include "report/shown_report.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::grading {
namespace {

void write_head(report::JsonWriter& w, const LineContext& c, const char* verdict, const std::optional<double>& score,
                int exit, const std::string& reason) {
  w.begin_object();
  w.field("submission", c.submission);
  w.field("verdict", verdict);
  w.field("score", score);
  w.field("exit", exit);
  w.field("reason", reason);
}

void write_tail(report::JsonWriter& w, const LineContext& c, const Report* report) {
  w.field("seconds", c.seconds);
  w.field("graded_at", c.graded_at);
  w.key("measurements");
  w.begin_object();
  w.field("count", static_cast<std::uint64_t>(c.measurements.count));
  w.field("alone", c.measurements.alone);
  w.field("waited_seconds", c.measurements.waited_seconds);
  w.field("lock", c.measurements.lock);
  w.end_object();
  w.key("key");
  w.begin_object();
  w.field("rubric_sha256", c.key.rubric_sha256);
  w.field("submission_sha256", c.key.submission_sha256);
  w.field("params_sha256", c.key.params_sha256);
  w.field("tool_version", c.key.tool_version);
  w.end_object();
  // Reference files the result depends on: a reused result is checked against them.
  w.key("reference_files");
  w.begin_array();
  if (report)
    for (const FileRecord& f : report->provenance.files) {
      if (f.root != "reference") continue;
      w.begin_object();
      w.field("path", f.path);
      w.field("xxh3_128", f.digest);
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
  report::JsonWriter w(report::JsonWriter::Layout::one_line);
  write_head(w, context, overall_verdict_name(report.verdict), report.score, exit_code(report.verdict),
             report::overall_reason(report));
  w.field("pass_mark", report.pass_mark);  // so that a grader's review can recompute the verdict
  w.key("criteria");
  w.begin_array();
  for (const CriterionResult& c : report.criteria) report::write_criterion(w, c);
  w.end_array();
  w.key("warnings");
  w.begin_array();
  for (const Diagnostic& d : report.warnings) report::write_diagnostic(w, d);
  w.end_array();
  write_tail(w, context, &unescaped);
  return w.take();
}

std::string format_error_line(const LineContext& context, const std::string& reason) {
  report::JsonWriter w(report::JsonWriter::Layout::one_line);
  write_head(w, context, overall_verdict_name(OverallVerdict::error), std::nullopt, exit_code(OverallVerdict::error),
             reason);
  w.key("criteria");
  w.begin_array();
  w.end_array();
  w.key("warnings");
  w.begin_array();
  w.end_array();
  write_tail(w, context, nullptr);
  return w.take();
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool orders_grader(const json::Value& line) {
  const json::Value* warnings = line.find("warnings");
  if (!warnings || !warnings->is_array()) return false;
  for (const json::Value& w : warnings->as_array()) {
    const json::Value* m = w.is_object() ? w.find("message") : nullptr;
    if (m && m->is_string() && m->as_string().find(kAddressesReader) != std::string::npos) return true;
  }
  return false;
}

}  // namespace rubric::grading
