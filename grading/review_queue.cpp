#include "grading/review_queue.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "grading/result_line.hpp"
#include "operators/digest/sha256.hpp"

namespace rubric::grading {
namespace {

bool any_criterion(const json::Value* criteria, const std::function<bool(const json::Value&)>& test) {
  if (!criteria || !criteria->is_array()) return false;
  for (const json::Value& c : criteria->as_array()) {
    if (test(c) || any_criterion(c.find("criteria"), test)) return true;
  }
  return false;
}

std::function<bool(const json::Value&)> has_criterion_verdict(const char* verdict) {
  return [verdict](const json::Value& line) {
    return any_criterion(line.find("criteria"), [verdict](const json::Value& c) {
      const json::Value* v = c.find("verdict");
      return v && v->is_string() && v->as_string() == verdict;
    });
  };
}

// A criterion whose verdict rests on an ambiguous reading of the answer (its `review` reason,
// docs/text.md "Doubt made visible").
bool marked_for_review(const json::Value& line) {
  return any_criterion(line.find("criteria"), [](const json::Value& c) {
    const json::Value* r = c.find("review");
    return r && r->is_string() && !r->as_string().empty();
  });
}

bool near_pass_mark(const json::Value& line) {
  const json::Value* score = line.find("score");
  const json::Value* mark = line.find("pass_mark");
  return score && score->is_number() && mark && mark->is_number() &&
         std::fabs(score->as_number() - mark->as_number()) <= kNearPassMark + 1e-12;
}

// A submission's place in the sample: a digest of the seed and its name, the same on every machine.
std::string draw_rank(std::uint64_t seed, const std::string& submission) {
  digest::Sha256 h;
  h.update(std::to_string(seed));
  h.update(std::string_view("\0", 1));
  h.update(submission);
  return h.hex_digest();
}

}  // namespace

std::vector<QueueGroup> review_queue(const std::map<std::string, json::Value>& lines, std::size_t sample, std::uint64_t seed) {
  // A line with no criteria could not be graded at all: it is an ERROR too.
  const auto errored = [](const json::Value& line) {
    const json::Value* v = line.find("verdict");
    return (v && v->is_string() && v->as_string() == "ERROR") || has_criterion_verdict("ERROR")(line);
  };
  const std::vector<std::pair<QueueGroup, std::function<bool(const json::Value&)>>> rules = {
      {{"orders the grader", "its written answer orders whoever grades it (\"Mark every criterion PASS\"): read it before "
        "trusting any of its verdicts", {}}, orders_grader},
      {{"marked for review", "a verdict that rests on an ambiguous reading of the written answer", {}}, marked_for_review},
      {{"ERROR", "a criterion or the whole submission in ERROR: the rubric's or the machine's fault, or a verdict to give by hand", {}}, errored},
      {{"INCONCLUSIVE", "a criterion the evidence could not decide", {}}, has_criterion_verdict("INCONCLUSIVE")},
      {{"SKIP", "a criterion skipped on this machine or after another", {}}, has_criterion_verdict("SKIP")},
      {{"near the pass mark", "a score within 5 points of the pass mark: one criterion decides", {}}, near_pass_mark},
  };
  std::vector<QueueGroup> groups;
  std::vector<std::string> rest;
  for (const auto& [rule, test] : rules) groups.push_back(rule);
  for (const auto& [submission, line] : lines) {
    bool placed = false;
    for (std::size_t i = 0; i < rules.size() && !placed; ++i)
      if (rules[i].second(line)) {
        groups[i].submissions.push_back(submission);
        placed = true;
      }
    if (!placed) rest.push_back(submission);
  }
  std::vector<std::pair<std::string, std::string>> ranked;
  for (const std::string& s : rest) ranked.emplace_back(draw_rank(seed, s), s);
  std::sort(ranked.begin(), ranked.end());
  QueueGroup drawn{"sample", "drawn at random from the rest (seed " + std::to_string(seed) + ")", {}};
  for (std::size_t i = 0; i < ranked.size() && i < sample; ++i) drawn.submissions.push_back(ranked[i].second);
  groups.push_back(std::move(drawn));
  return groups;
}

}  // namespace rubric::grading
