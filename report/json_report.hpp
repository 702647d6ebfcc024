#pragma once
// The machine-readable report; its schema is documented in docs/report-json.md.
#include <string>

#include "interpreter/report_model.hpp"

namespace rubric::report {

// Version of the JSON layout, written as "schema"; bumped when a field changes meaning.
inline constexpr int kJsonSchemaVersion = 2;  // 2: file digests are XXH3-128 (`xxh3_128`), not SHA-256

std::string format_json(const Report& report);

class JsonWriter;
// One criterion object (groups with their children) and one diagnostic object, exactly as
// format_json writes them; for hosts that embed them in documents of their own (`rubric grade`).
void write_criterion(JsonWriter& w, const CriterionResult& c);
void write_diagnostic(JsonWriter& w, const Diagnostic& d);

// "none", "submission", "rubric", "grader_environment".
const char* blame_name(Blame b);

}  // namespace rubric::report
