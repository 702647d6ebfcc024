#pragma once
// The order in which a grader's hour is best spent: the submissions whose verdicts are least
// settled first, then a seeded random sample of the rest, each group counted.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "operators/json/json_value.hpp"

namespace rubric::grading {

// How far from the pass mark a score counts as near it (5 points).
inline constexpr double kNearPassMark = 0.05;

struct QueueGroup {
  std::string name;                      // "orders the grader", "marked for review", "ERROR", "INCONCLUSIVE", "SKIP", "near the pass mark", "sample"
  std::string why;                       // one line for the page
  std::vector<std::string> submissions;  // in path order (the sample in its drawn order)
};

// `lines`: the latest result of each submission (reviewed_results.hpp). A submission sits in the
// first group it qualifies for: prose that orders whoever grades it (result_line.hpp), a
// criterion marked for review (a non-empty `review` reason: its
// verdict rests on an ambiguous reading of the answer), any criterion in ERROR, INCONCLUSIVE, SKIP
// (in that order), a score within kNearPassMark of the line's pass mark; of the rest, `sample`
// drawn with `seed` (the same seed and corpus give the same sample).
std::vector<QueueGroup> review_queue(const std::map<std::string, json::Value>& lines, std::size_t sample, std::uint64_t seed);

}  // namespace rubric::grading
