#include "grading/line_report.hpp"

#include <fmt/format.h>

namespace rubric::grading {
namespace {

std::string str(const json::Value& o, const char* name) {
  const json::Value* v = o.find(name);
  return v && v->is_string() ? v->as_string() : std::string();
}

std::optional<double> number(const json::Value& o, const char* name) {
  const json::Value* v = o.find(name);
  return v && v->is_number() ? std::optional<double>(v->as_number()) : std::nullopt;
}

std::vector<std::string> strings(const json::Value* v) {
  std::vector<std::string> out;
  if (v && v->is_array())
    for (const json::Value& s : v->as_array())
      if (s.is_string()) out.push_back(s.as_string());
  return out;
}

SourceLocation location_of(const json::Value* l) {
  SourceLocation loc;
  if (!l || !l->is_object()) return loc;
  loc.file = str(*l, "file");
  loc.line = static_cast<std::uint32_t>(number(*l, "line").value_or(0));
  loc.column = static_cast<std::uint32_t>(number(*l, "column").value_or(0));
  return loc;
}

std::string review_note(const json::Value& review, const std::string& tool_verdict) {
  const std::string verdict = str(review, "verdict");
  const std::string who = str(review, "reviewer");
  const std::string why = str(review, "justification");
  const json::Value* applied = review.find("applied");
  std::string note;
  if (applied && applied->is_bool() && !applied->as_bool() && verdict != "cannot tell")
    note = fmt::format("review by {} ({}) is stale: made against another rubric or submission content, not applied", who, verdict);
  else if (verdict == "agree") note = fmt::format("agreed by {}", who);
  else if (verdict == "cannot tell") note = fmt::format("{} cannot tell", who);
  else if (!tool_verdict.empty()) note = fmt::format("overruled by {} (the tool said {})", who, tool_verdict);
  else note = fmt::format("{} by {}", verdict, who);
  if (!why.empty()) note += ": " + why;
  return note;
}

}  // namespace

CriterionResult criterion_head_of(const json::Value& c) {
  CriterionResult r;
  r.id = str(c, "id");
  r.title = str(c, "title");
  r.is_group = str(c, "kind") == "group";
  r.verdict = criterion_verdict_of(str(c, "verdict"));
  r.score = number(c, "score");
  r.weight = number(c, "weight").value_or(1.0);
  r.penalty = number(c, "penalty");
  const json::Value* required = c.find("required");
  r.required = required && required->is_bool() && required->as_bool();
  r.reason = str(c, "reason");
  return r;
}

namespace {

std::vector<CriterionResult> criteria_of(const json::Value* criteria) {
  std::vector<CriterionResult> out;
  if (!criteria || !criteria->is_array()) return out;
  for (const json::Value& c : criteria->as_array()) {
    CriterionResult r = criterion_head_of(c);
    r.location = location_of(c.find("location"));
    r.after = strings(c.find("after"));
    r.needs = strings(c.find("needs"));
    r.notes = strings(c.find("notes"));
    if (const json::Value* review = c.find("grader_review")) r.notes.push_back(review_note(*review, str(c, "tool_verdict")));
    if (const json::Value* checks = c.find("checks"); checks && checks->is_array())
      for (const json::Value& k : checks->as_array()) {
        CheckResult check;
        check.source_text = str(k, "source");
        check.location = location_of(k.find("location"));
        check.label = str(k, "label");
        check.verdict = criterion_verdict_of(str(k, "verdict"));
        check.evidence = strings(k.find("evidence"));
        check.explanation = str(k, "explanation");
        check.message = str(k, "message");
        r.checks.push_back(std::move(check));
      }
    r.children = criteria_of(c.find("criteria"));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

Verdict criterion_verdict_of(const std::string& name) {
  for (Verdict v : {Verdict::pass, Verdict::skip, Verdict::inconclusive, Verdict::fail, Verdict::error})
    if (name == verdict_name(v)) return v;
  return Verdict::error;
}

Report report_of_line(const json::Value& line, const std::string& title) {
  Report report;
  report.title = title;
  report.pass_mark = number(line, "pass_mark").value_or(1.0);
  const std::string verdict = str(line, "verdict");
  for (OverallVerdict v : {OverallVerdict::pass, OverallVerdict::fail, OverallVerdict::error, OverallVerdict::incomplete})
    if (verdict == overall_verdict_name(v)) report.verdict = v;
  report.score = number(line, "score");
  report.criteria = criteria_of(line.find("criteria"));
  report.provenance.submission_dir = str(line, "submission");
  report.provenance.started_at = str(line, "graded_at");
  if (const json::Value* key = line.find("key")) report.provenance.rubric_digest = str(*key, "rubric_sha256");
  if (!str(line, "tool_verdict").empty())
    report.metadata["tool's verdict"] = fmt::format("{} — {}", str(line, "tool_verdict"), str(line, "tool_reason"));
  return report;
}

}  // namespace rubric::grading
