#pragma once
// What `rubric test` prints: the text summary a grader reads and the JSON a CI job keeps
// (both documented in docs/calibration.md; the JSON also in docs/report-json.md).
#include <string>

#include "calibration/calibration.hpp"

namespace rubric::calibration {

struct CalibrationTextOptions {
  bool colour = false;
  std::size_t max_checks_shown = 20;  // per differing criterion; the rest are counted
};

std::string format_calibration_text(const CalibrationResult& result, const CalibrationTextOptions& options = {});

// Version of the calibration JSON layout, written as "schema".
inline constexpr int kCalibrationJsonSchemaVersion = 1;
std::string format_calibration_json(const CalibrationResult& result);

}  // namespace rubric::calibration
