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
    w.key(k);
    w.value(v);
  }
  w.end_object();
}

void write_location(JsonWriter& w, const SourceLocation& loc) {
  w.begin_object();
  w.key("file");
  w.value(loc.file);
  w.key("line");
  w.value(loc.line);
  w.key("column");
  w.value(loc.column);
  w.end_object();
}

void write_check(JsonWriter& w, const CheckResult& c) {
  w.begin_object();
  w.key("source");
  w.value(c.source_text);
  w.key("location");
  write_location(w, c.location);
  w.key("label");
  w.value(c.label);
  w.key("verdict");
  w.value(verdict_name(c.verdict));
  w.key("blame");
  w.value(blame_name(c.blame));
  w.key("evidence");
  write_strings(w, c.evidence);
  w.key("explanation");
  w.value(c.explanation);
  w.key("message");
  w.value(c.message);
  w.key("seconds");
  w.value(c.seconds);
  w.end_object();
}

}  // namespace

void write_criterion(JsonWriter& w, const CriterionResult& c) {
  w.begin_object();
  w.key("id");
  w.value(c.id);
  w.key("kind");
  w.value(c.is_group ? "group" : "criterion");
  w.key("title");
  w.value(c.title);
  w.key("location");
  write_location(w, c.location);
  w.key("verdict");
  w.value(verdict_name(c.verdict));
  w.key("score");
  w.value(c.score);
  w.key("weight");
  w.value(c.weight);
  w.key("penalty");
  w.value(c.penalty);
  w.key("required");
  w.value(c.required);
  w.key("after");
  write_strings(w, c.after);
  w.key("needs");
  write_strings(w, c.needs);
  w.key("reason");
  w.value(c.reason);
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
  w.key("seconds");
  w.value(c.seconds);
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
  w.key("severity");
  w.value(severity_name(d.severity));
  w.key("message");
  w.value(d.message);
  w.key("location");
  if (d.source) {
    const LineColumn lc = d.source->position(d.range.begin);
    write_location(w, SourceLocation{d.source->name(), lc.line, lc.column});
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
  w.key("tool_version");
  w.value(p.tool_version);
  w.key("rubric");
  w.begin_object();
  w.key("file");
  w.value(p.rubric_file);
  w.key("xxh3_128");
  w.value(p.rubric_digest);
  w.end_object();
  w.key("submission_dir");
  w.value(p.submission_dir);
  w.key("reference_dir");
  w.value(p.reference_dir);
  w.key("seed");
  w.value(p.seed);
  w.key("params");
  write_string_map(w, p.params);
  w.key("files");
  w.begin_array();
  for (const FileRecord& f : p.files) {
    w.begin_object();
    w.key("path");
    w.value(f.path);
    w.key("root");
    w.value(f.root);
    w.key("xxh3_128");
    w.value(f.digest);
    w.key("bytes");
    w.value(f.bytes);
    w.end_object();
  }
  w.end_array();
  w.key("runs");
  w.begin_array();
  for (const RunRecord& r : p.runs) {
    w.begin_object();
    w.key("command");
    w.value(r.command);
    w.key("isolation");
    w.value(r.isolation);
    w.key("seconds");
    w.value(r.seconds);
    w.key("exit_code");
    w.value(r.exit_code);
    w.end_object();
  }
  w.end_array();
  w.key("device");
  write_string_map(w, p.device);
  w.key("cuda");
  write_string_map(w, p.cuda);
  w.key("host");
  write_string_map(w, p.host);
  w.key("compiler");
  w.value(p.compiler);
  w.key("started_at");
  w.value(p.started_at);
  w.key("seconds");
  w.value(p.seconds);
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
  w.key("schema");
  w.value(kJsonSchemaVersion);
  w.key("verdict");
  w.value(overall_verdict_name(report.verdict));
  w.key("score");
  w.value(report.score);
  w.key("pass_mark");
  w.value(report.pass_mark);
  w.key("confidence");
  w.value(report.confidence);
  w.key("title");
  w.value(report.title);
  w.key("version");
  w.value(report.version);
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
  w.key("exit_code");
  w.value(exit_code(report.verdict));
  w.end_object();
  return w.str();
}

}  // namespace rubric::report
