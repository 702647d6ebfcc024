#include "cli/review_cases.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "grading/review_store.hpp"
#include "grading/reviewed_results.hpp"
#include "operators/json/json_reader.hpp"

namespace rubric::cli {
namespace {

namespace fs = std::filesystem;

std::string str(const json::Value* o, const char* name) {
  const json::Value* v = o ? o->find(name) : nullptr;
  return v && v->is_string() ? v->as_string() : std::string();
}

}  // namespace

calibration::CasesFile cases_from_reviews(const std::string& out_dir) {
  const auto lines = grading::load_result_lines(out_dir);
  std::string reference;
  const std::string summary_path = (fs::path(out_dir) / "summary.json").string();
  std::error_code ec;
  if (fs::exists(summary_path, ec)) {
    const json::Value summary = json::read_file(summary_path);
    reference = str(summary.find("provenance"), "reference_dir");
  }
  std::map<std::string, std::map<std::string, grading::Review>> labels;
  for (auto [where, r] : grading::latest_reviews(grading::load_reviews(grading::reviews_path(out_dir)).history)) {
    const auto line = lines.find(r.submission);
    if (line == lines.end() || !r.final_verdict()) continue;
    const json::Value* key = line->second.find("key");
    if (r.submission_sha256 != str(key, "submission_sha256")) continue;  // the answer changed since
    r.rubric_sha256 = str(key, "rubric_sha256");  // a label of this content, whatever rubric graded it
    labels[r.submission][r.criterion] = r;
  }
  calibration::CasesFile cases;
  cases.path = grading::reviews_path(out_dir);
  for (const auto& [submission, reviews] : labels) {
    const json::Value final_line = grading::reviewed_line(lines.at(submission), reviews);
    const auto verdict = calibration::parse_overall_verdict(str(&final_line, "verdict"));
    if (!verdict) continue;
    calibration::Case c;
    c.name = submission;
    c.submission_given = submission;
    c.submission = fs::absolute(submission, ec).string();
    c.reference_given = reference;
    c.reference = reference;
    c.verdict = *verdict;
    for (const auto& [criterion, r] : reviews) {
      c.criteria.push_back({criterion, *calibration::parse_criterion_verdict(*r.final_verdict())});
      if (!r.justification.empty()) c.why += (c.why.empty() ? "" : "; ") + r.reviewer + ": " + r.justification;
    }
    cases.cases.push_back(std::move(c));
  }
  if (cases.cases.empty())
    throw calibration::CasesError(fmt::format("'{}' holds no review that labels a submission graded there", out_dir));
  return cases;
}

}  // namespace rubric::cli
