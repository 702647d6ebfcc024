#pragma once
// One line of results.jsonl: a submission's verdict, score, exit code and criteria (the same
// criterion objects as `rubric check --format json`), with the key it was graded under.
#include <string>
#include <vector>

#include "grading/results_file.hpp"
#include "interpreter/report_model.hpp"
#include "operators/json/json_value.hpp"

namespace rubric::grading {

// How the submission's timing measurements shared the machine (grading/measure_lock.hpp).
struct MeasurementRecord {
  unsigned count = 0;           // measuring calls made (bench, time, GPU operators)
  bool alone = true;            // every one of them held the exclusive measurement lock
  double waited_seconds = 0;    // time spent waiting for the lock
  std::string lock;             // the lock file's name, "" when nothing was measured
};

struct LineContext {
  std::string submission;  // as given
  CacheKey key;
  double seconds = 0;      // wall time of grading it, hashing included
  std::string graded_at;   // ISO 8601 UTC
  MeasurementRecord measurements;
};

// The line for a graded submission (no trailing newline; one line whatever the report holds).
std::string format_result_line(const LineContext& context, const Report& report);

// The line for a submission that could not be graded (its folder is missing, the grading process
// crashed or ran out of time): verdict ERROR, exit 2, no criteria, `reason` says why.
std::string format_error_line(const LineContext& context, const std::string& reason);

// Whether the line's report warns that the submission's prose orders whoever grades it
// (interpreter/addressed_reader.hpp).
bool orders_grader(const json::Value& line);

// Current UTC time as "2026-12-01T03:45:12Z".
std::string utc_now();

}  // namespace rubric::grading
