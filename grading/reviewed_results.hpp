#pragma once
// Reviews against the results they judge: which result line and criterion a review is about,
// the tool's verdict and key it is bound to, and whether it still applies (a review made against
// another rubric or other submission content is stale).
#include <map>
#include <string>

#include "grading/review_store.hpp"
#include "operators/json/json_value.hpp"

namespace rubric::grading {

// The latest results.jsonl line of each submission in OUT, parsed, by submission.
std::map<std::string, json::Value> load_result_lines(const std::string& out_dir);

// The criterion `id` (not a group) among a result line's criteria, at any depth; nullptr when absent.
const json::Value* find_criterion(const json::Value& line, const std::string& id);

// Fills the review's tool verdict and digests from `line` where the review does not carry them
// (an imported review keeps those it was made against). Throws std::runtime_error when the
// criterion is not one of the line's, or is a group.
void bind_review(Review& review, const json::Value& line);

// The review was made against another rubric or other submission content than `line` was graded with.
bool is_stale(const Review& review, const json::Value& line);

// `line` as the reviews in force for its submission (by criterion id) leave it. A reviewed
// criterion gets a `review` object (the grader's verdict, reviewer, justification, time, and
// `applied`: false when stale or "cannot tell") beside the tool's checks and evidence; where a
// review applies, the criterion's verdict and score become the grader's (PASS 1, FAIL 0) and
// `tool_verdict`/`tool_score` keep the tool's. Groups, the score and the verdict are then
// recomputed with the rubric's own rules (interpreter/verdicts.hpp: weights, penalties, required,
// the pass mark the line records); the tool's are kept as `tool_verdict`, `tool_score`,
// `tool_reason` at the top.
json::Value reviewed_line(const json::Value& line, const std::map<std::string, Review>& in_force);

}  // namespace rubric::grading
