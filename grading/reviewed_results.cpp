#include "grading/reviewed_results.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "grading/line_report.hpp"
#include "grading/results_file.hpp"
#include "interpreter/report_model.hpp"
#include "interpreter/verdicts.hpp"
#include "operators/json/json_reader.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::grading {
namespace {

std::string string_at(const json::Value& object, const char* name) {
  const json::Value* v = object.find(name);
  return v && v->is_string() ? v->as_string() : std::string();
}

const json::Value* find_in(const json::Value* criteria, const std::string& id) {
  if (!criteria || !criteria->is_array()) return nullptr;
  for (const json::Value& c : criteria->as_array()) {
    if (string_at(c, "id") == id) return &c;
    if (const json::Value* inner = find_in(c.find("criteria"), id)) return inner;
  }
  return nullptr;
}

json::Value text(std::string s) {
  json::Value v;
  v.data = std::move(s);
  return v;
}

json::Value number_or_null(const std::optional<double>& d) {
  json::Value v;
  if (d) v.data = *d;
  return v;
}

// A member of an object, to change in place; nullptr when absent.
json::Value* member(json::Value& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  for (auto& [k, v] : std::get<json::Object>(object.data))
    if (k == key) return &v;
  return nullptr;
}

// Sets `key` of an object, replacing it in place or appending it.
void set(json::Value& object, const std::string& key, json::Value value) {
  auto& members = std::get<json::Object>(object.data);
  for (auto& [k, v] : members)
    if (k == key) {
      v = std::move(value);
      return;
    }
  members.emplace_back(key, std::move(value));
}

std::optional<double> optional_number(const json::Value& object, const char* name) {
  const json::Value* v = object.find(name);
  if (!v || !v->is_number()) return std::nullopt;
  return v->as_number();
}

json::Value review_object(const Review& r, bool applied) {
  json::Value o;
  o.data = json::Object{};
  set(o, "verdict", text(grader_verdict_name(r.verdict)));
  set(o, "reviewer", text(r.reviewer));
  set(o, "justification", text(r.justification));
  set(o, "time", text(r.time));
  set(o, "tool_verdict", text(r.tool_verdict));
  json::Value a;
  a.data = applied;
  set(o, "applied", a);
  return o;
}

// Applies the reviews to the criteria of a line (in place) and returns the same criteria as the
// report model, so that verdicts.hpp recomputes groups and the rubric's verdict.
std::vector<CriterionResult> apply(json::Value& criteria, const std::map<std::string, Review>& in_force,
                                   const json::Value& line) {
  std::vector<CriterionResult> model;
  if (!criteria.is_array()) return model;
  for (json::Value& c : std::get<json::Array>(criteria.data)) {
    if (!c.is_object()) continue;
    CriterionResult r = criterion_head_of(c);
    if (r.is_group) {
      if (json::Value* children = member(c, "criteria")) {
        r.children = apply(*children, in_force, line);
        r.verdict = group_verdict(r.children);
        r.score = combined_score(r.children);
        set(c, "verdict", text(verdict_name(r.verdict)));
        set(c, "score", number_or_null(r.score));
      }
    } else if (const auto review = in_force.find(r.id); review != in_force.end()) {
      const Review& rv = review->second;
      const auto final_verdict = rv.final_verdict();
      const bool applied = final_verdict && !is_stale(rv, line);
      if (applied && *final_verdict != verdict_name(r.verdict)) {
        set(c, "tool_verdict", text(verdict_name(r.verdict)));
        set(c, "tool_score", number_or_null(r.score));
        r.verdict = criterion_verdict_of(*final_verdict);
        // A penalty criterion has no score of its own; its FAIL is subtracted by combined_score.
        r.score = r.penalty ? std::nullopt : criterion_score(r.verdict, std::nullopt, false);
        set(c, "verdict", text(verdict_name(r.verdict)));
        set(c, "score", number_or_null(r.score));
      }
      set(c, "grader_review", review_object(rv, applied));
    }
    model.push_back(std::move(r));
  }
  return model;
}

}  // namespace

json::Value reviewed_line(const json::Value& line, const std::map<std::string, Review>& in_force) {
  json::Value out = line;
  if (!out.is_object() || in_force.empty()) return out;
  json::Value* criteria = member(out, "criteria");
  if (!criteria) return out;
  Report report;
  report.criteria = apply(*criteria, in_force, line);
  const std::optional<double> pass_mark = optional_number(line, "pass_mark");
  if (!pass_mark) return out;  // a line of an older rubric version: its verdict cannot be recomputed
  report.pass_mark = *pass_mark;
  report.score = combined_score(report.criteria);
  report.verdict = overall_verdict(report.criteria, report.score, report.pass_mark);
  const std::string verdict = overall_verdict_name(report.verdict);
  const std::optional<double> tool_score = optional_number(line, "score");
  if (verdict == string_at(line, "verdict") && report.score == tool_score) return out;
  set(out, "tool_verdict", text(string_at(line, "verdict")));
  set(out, "tool_score", number_or_null(tool_score));
  set(out, "tool_reason", text(string_at(line, "reason")));
  set(out, "verdict", text(verdict));
  set(out, "score", number_or_null(report.score));
  json::Value exit;
  exit.data = static_cast<double>(exit_code(report.verdict));
  set(out, "exit", exit);
  set(out, "reason", text("after review: " + report::overall_reason(report)));
  return out;
}

std::map<std::string, json::Value> load_result_lines(const std::string& out_dir) {
  const std::string path = (std::filesystem::path(out_dir) / "results.jsonl").string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw std::runtime_error(fmt::format("'{}' holds no results.jsonl: review the out folder of `rubric grade` or `rubric merge`", out_dir));
  const LoadedResults loaded = load_results(path);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::map<std::string, json::Value> lines;
  for (const auto& [submission, stored] : loaded.latest)
    lines.emplace(submission, json::parse(std::string_view(text).substr(stored.offset, stored.length), path));
  return lines;
}

const json::Value* find_criterion(const json::Value& line, const std::string& id) {
  return find_in(line.find("criteria"), id);
}

void bind_review(Review& review, const json::Value& line) {
  const json::Value* criterion = find_criterion(line, review.criterion);
  if (!criterion) throw std::runtime_error(fmt::format("'{}' has no criterion '{}'", review.submission, review.criterion));
  if (string_at(*criterion, "kind") == "group")
    throw std::runtime_error(fmt::format("'{}' is a group: review its criteria, whose verdicts make its own", review.criterion));
  if (review.tool_verdict.empty()) review.tool_verdict = string_at(*criterion, "verdict");
  if (const json::Value* key = line.find("key")) {
    if (review.rubric_sha256.empty()) review.rubric_sha256 = string_at(*key, "rubric_sha256");
    if (review.submission_sha256.empty()) review.submission_sha256 = string_at(*key, "submission_sha256");
  }
}

bool is_stale(const Review& review, const json::Value& line) {
  const json::Value* key = line.find("key");
  if (!key) return true;
  return review.rubric_sha256 != string_at(*key, "rubric_sha256") ||
         review.submission_sha256 != string_at(*key, "submission_sha256");
}

}  // namespace rubric::grading
