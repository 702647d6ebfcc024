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
    w.field("source", check.source_text);
    w.key("location");
    w.begin_object();
    w.field("file", check.location.file);
    w.field("line", check.location.line);
    w.field("column", check.location.column);
    w.end_object();
    w.field("label", check.label);
    w.field("verdict", verdict_name(check.verdict));
    w.field("blame", report::blame_name(check.blame));
    w.key("evidence");
    w.begin_array();
    for (const std::string& e : check.evidence) w.value(e);
    w.end_array();
    w.field("explanation", check.explanation);
    w.field("message", check.message);
    w.field("review", check.review);
    w.end_object();
  }
  w.end_array();
}

void write_case(JsonWriter& w, const CaseResult& c) {
  w.begin_object();
  w.field("name", c.expected.name);
  w.field("submission", c.expected.submission_given);
  w.field("submission_dir", c.expected.submission);
  w.key("reference");
  if (c.expected.reference.empty()) w.null();  // the rubric's folder, as `rubric check` defaults
  else w.value(c.expected.reference_given);
  w.key("reference_dir");
  if (c.expected.reference.empty()) w.null();
  else w.value(c.expected.reference);
  w.field("expected", overall_verdict_name(c.expected.verdict));
  w.field("actual", overall_verdict_name(c.actual));
  w.key("agree");
  optional_bool(w, c.status == CaseStatus::undecided ? std::nullopt : std::optional<bool>(c.status == CaseStatus::agree));
  w.field("status", case_status_name(c.status));
  w.key("verdict_agrees");
  optional_bool(w, c.verdict_agrees);
  w.field("why", c.expected.why);
  w.field("score", c.report.score);
  w.field("undecided_reason", c.undecided_reason);
  w.key("criteria");
  w.begin_array();
  for (const CriterionComparison& k : c.criteria) {
    w.begin_object();
    w.field("id", k.id);
    w.field("kind", k.is_group ? "group" : "criterion");
    w.key("expected");
    optional_verdict(w, k.expected);
    w.field("actual", verdict_name(k.actual));
    w.key("agree");
    optional_bool(w, k.agree);
    w.field("machine_limited", k.machine_limited);
    w.field("reason", k.result->reason);
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
  w.field("cases", std::uint64_t(a.cases));
  w.field("agreeing", std::uint64_t(a.agreeing));
  w.field("disagreeing", std::uint64_t(a.disagreeing));
  w.field("undecided", std::uint64_t(a.undecided));
  w.field("rate", a.rate);
  w.key("fail_class");
  w.begin_object();
  w.field("precision", a.precision);
  w.field("recall", a.recall);
  w.field("f1", a.f1);
  w.field("true_positive", std::uint64_t(a.true_positive));
  w.field("false_positive", std::uint64_t(a.false_positive));
  w.field("false_negative", std::uint64_t(a.false_negative));
  w.field("true_negative", std::uint64_t(a.true_negative));
  w.end_object();
  w.key("criteria");
  w.begin_object();
  w.field("pinned", std::uint64_t(a.pinned));
  w.field("agreeing", std::uint64_t(a.pinned_agreeing));
  w.field("undecided", std::uint64_t(a.pinned_undecided));
  w.key("review");
  w.begin_object();
  w.field("marked", std::uint64_t(a.marked));
  w.field("marked_disagreeing", std::uint64_t(a.marked_disagreeing));
  w.field("unmarked", std::uint64_t(a.unmarked));
  w.field("unmarked_disagreeing", std::uint64_t(a.unmarked_disagreeing));
  w.field("marked_cases", std::uint64_t(a.marked_cases));
  w.field("marked_cases_disagreeing", std::uint64_t(a.marked_cases_disagreeing));
  w.field("unmarked_cases", std::uint64_t(a.unmarked_cases));
  w.field("unmarked_cases_disagreeing", std::uint64_t(a.unmarked_cases_disagreeing));
  w.end_object();
  w.end_object();
  w.end_object();
}

}  // namespace

std::string format_calibration_json(const CalibrationResult& result) {
  JsonWriter w;
  w.begin_object();
  w.field("schema", kCalibrationJsonSchemaVersion);
  w.field("rubric", result.rubric);
  w.field("title", result.title);
  w.field("cases_file", result.cases_file);
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
    w.field("id", row.id);
    w.field("kind", row.is_group ? "group" : "criterion");
    w.field("pinned", std::uint64_t(row.pinned));
    w.field("agreeing", std::uint64_t(row.agreeing));
    w.key("pairs");
    w.begin_array();
    for (const VerdictPair& p : row.pairs) {
      w.begin_object();
      w.key("expected");
      if (p.expected == "-") w.null();
      else w.value(p.expected);
      w.field("actual", p.actual);
      w.field("count", std::uint64_t(p.count));
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
    w.field("id", u.id);
    w.field("never_fails", u.never_fails);
    w.field("never_passes", u.never_passes);
    w.field("suggestion", u.suggestion);
    w.end_object();
  }
  w.end_array();
  w.field("exit_code", result.exit_code());
  w.end_object();
  return w.str();
}

}  // namespace rubric::calibration
