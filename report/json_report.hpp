#pragma once
// The machine-readable report; its schema is documented in docs/report-json.md.
#include <string>

#include "interpreter/report_model.hpp"

namespace rubric::report {

// Version of the JSON layout, written as "schema"; bumped when a field changes meaning.
inline constexpr int kJsonSchemaVersion = 1;

std::string format_json(const Report& report);

// "none", "submission", "rubric", "grader_environment".
const char* blame_name(Blame b);

}  // namespace rubric::report
