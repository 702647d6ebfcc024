#include "report/json_report.hpp"

#include "report/json_writer.hpp"
#include "report/shown_report.hpp"

namespace rubric::report {
namespace {

void write_strings(JsonWriter& w, const std::vector<std::string>& list) {
  w.begin_array();
  for (const std::string& s : list) w.value(s);
  w.end_array();
}

void write_string_map(JsonWriter& w, const std::map<std::string, std::string>& map) {
  w.begin_object();
  for (const auto& [k, v] : map) {
    w.field(k, v);
  }
  w.end_object();
}

void write_location(JsonWriter& w, const SourceLocation& loc) {
  w.begin_object();
  w.field("file", loc.file);
  w.field("line", loc.line);
  w.field("column", loc.column);
  w.end_object();
}

void write_check(JsonWriter& w, const CheckResult& c) {
  w.begin_object();
  w.field("source", c.source_text);
  w.key("location");
  write_location(w, c.location);
  w.field("label", c.label);
  w.field("verdict", verdict_name(c.verdict));
  w.field("blame", blame_name(c.blame));
  w.key("evidence");
  write_strings(w, c.evidence);
  w.field("explanation", c.explanation);
  w.field("message", c.message);
  w.field("review", c.review);
  w.field("seconds", c.seconds);
  w.end_object();
}

}  // namespace

void write_criterion(JsonWriter& w, const CriterionResult& c) {
  w.begin_object();
  w.field("id", c.id);
  w.field("kind", c.is_group ? "group" : "criterion");
  w.field("title", c.title);
  w.key("location");
  write_location(w, c.location);
  w.field("verdict", verdict_name(c.verdict));
  w.field("score", c.score);
  w.field("weight", c.weight);
  w.field("penalty", c.penalty);
  if (c.penalty) w.field("deducted", c.deducted);
  w.field("required", c.required);
  w.key("after");
  write_strings(w, c.after);
  w.key("needs");
  write_strings(w, c.needs);
  w.field("reason", c.reason);
  w.field("review", review_reason(c));
  w.key("notes");
  write_strings(w, c.notes);
  w.key("checks");
  w.begin_array();
  for (const CheckResult& check : c.checks) write_check(w, check);
  w.end_array();
  if (c.is_group) {
    w.key("criteria");
    w.begin_array();
    for (const CriterionResult& child : c.children) write_criterion(w, child);
    w.end_array();
  }
  w.field("seconds", c.seconds);
  w.end_object();
}

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

}  // namespace

void write_diagnostic(JsonWriter& w, const Diagnostic& d) {
  w.begin_object();
  w.field("severity", severity_name(d.severity));
  w.field("message", d.message);
  w.key("location");
  if (d.source) {
    const LineColumn lc = d.source->position(d.range.begin);
    write_location(w, SourceLocation{d.source->name(), lc.line, lc.column, ""});
  } else {
    w.null();
  }
  w.key("notes");
  write_strings(w, d.notes);
  w.end_object();
}

namespace {

void write_provenance(JsonWriter& w, const Provenance& p) {
  w.begin_object();
  w.field("tool_version", p.tool_version);
  w.key("rubric");
  w.begin_object();
  w.field("file", p.rubric_file);
  w.field("xxh3_128", p.rubric_digest);
  w.end_object();
  w.field("submission_dir", p.submission_dir);
  w.field("reference_dir", p.reference_dir);
  w.field("seed", p.seed);
  w.key("params");
  write_string_map(w, p.params);
  w.key("files");
  w.begin_array();
  for (const FileRecord& f : p.files) {
    w.begin_object();
    w.field("path", f.path);
    w.field("root", f.root);
    w.field("xxh3_128", f.digest);
    w.field("bytes", f.bytes);
    w.end_object();
  }
  w.end_array();
  w.key("runs");
  w.begin_array();
  for (const RunRecord& r : p.runs) {
    w.begin_object();
    w.field("command", r.command);
    w.field("isolation", r.isolation);
    w.field("seconds", r.seconds);
    w.field("exit_code", r.exit_code);
    w.end_object();
  }
  w.end_array();
  w.key("device");
  write_string_map(w, p.device);
  w.key("cuda");
  write_string_map(w, p.cuda);
  w.key("host");
  write_string_map(w, p.host);
  w.field("compiler", p.compiler);
  w.field("started_at", p.started_at);
  w.field("seconds", p.seconds);
  w.end_object();
}

}  // namespace

const char* blame_name(Blame b) {
  switch (b) {
    case Blame::none: return "none";
    case Blame::submission: return "submission";
    case Blame::rubric: return "rubric";
    case Blame::grader_environment: return "grader_environment";
  }
  return "none";
}

std::string format_json(const Report& unescaped) {
  // Strings hold what the text report shows (escaped, capped, paths relative to their roots), so a
  // consumer printing a field prints nothing a submission controls the layout of.
  const ShownReport shown = shown_report(unescaped);
  const Report& report = shown.get();
  JsonWriter w;
  w.begin_object();
  w.field("schema", kJsonSchemaVersion);
  w.field("verdict", overall_verdict_name(report.verdict));
  w.field("score", report.score);
  w.field("pass_mark", report.pass_mark);
  w.field("confidence", report.confidence);
  w.field("title", report.title);
  w.field("version", report.version);
  w.key("metadata");
  write_string_map(w, report.metadata);
  w.key("criteria");
  w.begin_array();
  for (const CriterionResult& c : report.criteria) write_criterion(w, c);
  w.end_array();
  w.key("warnings");
  w.begin_array();
  for (const Diagnostic& d : report.warnings) write_diagnostic(w, d);
  w.end_array();
  w.key("provenance");
  write_provenance(w, report.provenance);
  w.field("exit_code", exit_code(report.verdict));
  w.end_object();
  return w.str();
}

}  // namespace rubric::report
