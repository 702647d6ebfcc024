#include "calibration/calibration_report.hpp"
#include "report/json_report.hpp"
#include "report/json_writer.hpp"

namespace rubric::calibration {
namespace {

using report::JsonWriter;

void optional_verdict(JsonWriter& w, const std::optional<Verdict>& v) {
  if (v) w.value(verdict_name(*v));
  else w.null();
}

void optional_bool(JsonWriter& w, const std::optional<bool>& b) {
  if (b) w.value(*b);
  else w.null();
}

// The checks of a criterion whose verdict differs from its pin: what the grader needs to judge
// whether the rubric or the label is wrong.
void write_checks(JsonWriter& w, const CriterionResult& c) {
  w.begin_array();
  for (const CheckResult& check : c.checks) {
    w.begin_object();
    w.key("source");
    w.value(check.source_text);
    w.key("location");
    w.begin_object();
    w.key("file");
    w.value(check.location.file);
    w.key("line");
    w.value(check.location.line);
    w.key("column");
    w.value(check.location.column);
    w.end_object();
    w.key("label");
    w.value(check.label);
    w.key("verdict");
    w.value(verdict_name(check.verdict));
    w.key("blame");
    w.value(report::blame_name(check.blame));
    w.key("evidence");
    w.begin_array();
    for (const std::string& e : check.evidence) w.value(e);
    w.end_array();
    w.key("explanation");
    w.value(check.explanation);
    w.key("message");
    w.value(check.message);
    w.end_object();
  }
  w.end_array();
}

void write_case(JsonWriter& w, const CaseResult& c) {
  w.begin_object();
  w.key("name");
  w.value(c.expected.name);
  w.key("submission");
  w.value(c.expected.submission_given);
  w.key("submission_dir");
  w.value(c.expected.submission);
  w.key("reference");
  if (c.expected.reference.empty()) w.null();  // the rubric's folder, as `rubric check` defaults
  else w.value(c.expected.reference_given);
  w.key("reference_dir");
  if (c.expected.reference.empty()) w.null();
  else w.value(c.expected.reference);
  w.key("expected");
  w.value(overall_verdict_name(c.expected.verdict));
  w.key("actual");
  w.value(overall_verdict_name(c.actual));
  w.key("agree");
  optional_bool(w, c.status == CaseStatus::undecided ? std::nullopt : std::optional<bool>(c.status == CaseStatus::agree));
  w.key("status");
  w.value(case_status_name(c.status));
  w.key("verdict_agrees");
  optional_bool(w, c.verdict_agrees);
  w.key("why");
  w.value(c.expected.why);
  w.key("score");
  w.value(c.report.score);
  w.key("undecided_reason");
  w.value(c.undecided_reason);
  w.key("criteria");
  w.begin_array();
  for (const CriterionComparison& k : c.criteria) {
    w.begin_object();
    w.key("id");
    w.value(k.id);
    w.key("kind");
    w.value(k.is_group ? "group" : "criterion");
    w.key("expected");
    optional_verdict(w, k.expected);
    w.key("actual");
    w.value(verdict_name(k.actual));
    w.key("agree");
    optional_bool(w, k.agree);
    w.key("machine_limited");
    w.value(k.machine_limited);
    w.key("reason");
    w.value(k.result->reason);
    if (k.agree.has_value() && !*k.agree) {
      w.key("checks");
      write_checks(w, *k.result);
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_agreement(JsonWriter& w, const Agreement& a) {
  w.begin_object();
  w.key("cases");
  w.value(std::uint64_t(a.cases));
  w.key("agreeing");
  w.value(std::uint64_t(a.agreeing));
  w.key("disagreeing");
  w.value(std::uint64_t(a.disagreeing));
  w.key("undecided");
  w.value(std::uint64_t(a.undecided));
  w.key("rate");
  w.value(a.rate);
  w.key("fail_class");
  w.begin_object();
  w.key("precision");
  w.value(a.precision);
  w.key("recall");
  w.value(a.recall);
  w.key("f1");
  w.value(a.f1);
  w.key("true_positive");
  w.value(std::uint64_t(a.true_positive));
  w.key("false_positive");
  w.value(std::uint64_t(a.false_positive));
  w.key("false_negative");
  w.value(std::uint64_t(a.false_negative));
  w.key("true_negative");
  w.value(std::uint64_t(a.true_negative));
  w.end_object();
  w.key("criteria");
  w.begin_object();
  w.key("pinned");
  w.value(std::uint64_t(a.pinned));
  w.key("agreeing");
  w.value(std::uint64_t(a.pinned_agreeing));
  w.key("undecided");
  w.value(std::uint64_t(a.pinned_undecided));
  w.end_object();
  w.end_object();
}

}  // namespace

std::string format_calibration_json(const CalibrationResult& result) {
  JsonWriter w;
  w.begin_object();
  w.key("schema");
  w.value(kCalibrationJsonSchemaVersion);
  w.key("rubric");
  w.value(result.rubric);
  w.key("title");
  w.value(result.title);
  w.key("cases_file");
  w.value(result.cases_file);
  w.key("cases");
  w.begin_array();
  for (const CaseResult& c : result.cases) write_case(w, c);
  w.end_array();
  w.key("agreement");
  write_agreement(w, result.agreement);
  w.key("table");
  w.begin_array();
  for (const CriterionRow& row : result.table) {
    w.begin_object();
    w.key("id");
    w.value(row.id);
    w.key("kind");
    w.value(row.is_group ? "group" : "criterion");
    w.key("pinned");
    w.value(std::uint64_t(row.pinned));
    w.key("agreeing");
    w.value(std::uint64_t(row.agreeing));
    w.key("pairs");
    w.begin_array();
    for (const VerdictPair& p : row.pairs) {
      w.begin_object();
      w.key("expected");
      if (p.expected == "-") w.null();
      else w.value(p.expected);
      w.key("actual");
      w.value(p.actual);
      w.key("count");
      w.value(std::uint64_t(p.count));
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("unexercised");
  w.begin_array();
  for (const Unexercised& u : result.unexercised) {
    w.begin_object();
    w.key("id");
    w.value(u.id);
    w.key("never_fails");
    w.value(u.never_fails);
    w.key("never_passes");
    w.value(u.never_passes);
    w.key("suggestion");
    w.value(u.suggestion);
    w.end_object();
  }
  w.end_array();
  w.key("exit_code");
  w.value(result.exit_code());
  w.end_object();
  return w.str();
}

}  // namespace rubric::calibration
