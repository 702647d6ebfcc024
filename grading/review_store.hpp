#pragma once
// OUT/reviews.jsonl: the graders' own verdicts beside the tool's, one JSON record a line, only
// ever appended. Each append is one write(2) of whole lines under flock, so concurrent reviewers
// never tear or lose a record; a later review of a criterion supersedes an earlier one, which
// stays in the file as history.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "operators/json/json_value.hpp"

namespace rubric::grading {

// What the grader said about one criterion: the tool is right, the verdict is PASS or FAIL
// whatever the tool said, or the grader abstains.
enum class GraderVerdict { agree, pass, fail, cannot_tell };
const char* grader_verdict_name(GraderVerdict v);  // "agree", "PASS", "FAIL", "cannot tell"
// Accepts those names, case-insensitively, and "cannot-tell"/"cannot_tell".
std::optional<GraderVerdict> parse_grader_verdict(std::string_view text);

struct Review {
  std::string submission;  // as results.jsonl names it
  std::string criterion;   // a criterion id (never a group: a group's verdict follows its children)
  GraderVerdict verdict = GraderVerdict::agree;
  std::string justification;
  std::string reviewer;
  std::string time;  // ISO 8601 UTC
  // The tool's verdict and the result's key when the grader decided: a review stands only for
  // the rubric and the submission content it was made against.
  std::string tool_verdict;
  std::string rubric_sha256;
  std::string submission_sha256;
  bool blind = false;  // committed before the tool's verdict and evidence were shown

  // PASS or FAIL where the tool said otherwise: such a review needs a justification.
  bool overrules() const;
  // The verdict the criterion has once this review applies; nullopt for "cannot tell".
  std::optional<std::string> final_verdict() const;
};

// Why `review` cannot be recorded ("" when it can): a missing field, or an overrule without a
// justification.
std::string review_problem(const Review& review);

std::string format_review_line(const Review& review);  // one line, no newline
// A record of reviews.jsonl; throws std::runtime_error naming the field at fault.
Review review_of(const json::Value& record);

// Appends `reviews` to `path` (created when missing) with one write(2) under an exclusive flock,
// made durable before returning. A torn last line left by a crash is closed off with a newline
// first, so it stays one unreadable line instead of corrupting the next record.
void append_reviews(const std::string& path, const std::vector<Review>& reviews);

struct LoadedReviews {
  std::vector<Review> history;  // every readable record, in file order
  std::size_t dropped = 0;      // unreadable or torn lines skipped
};
// Reads `path` (a missing file holds no reviews); a last line without its newline is a write in
// progress or a torn one and is skipped.
LoadedReviews load_reviews(const std::string& path);

// The review in force for each (submission, criterion): the last one in the history.
std::map<std::pair<std::string, std::string>, Review> latest_reviews(const std::vector<Review>& history);

// OUT/reviews.jsonl.
std::string reviews_path(const std::string& out_dir);

}  // namespace rubric::grading
