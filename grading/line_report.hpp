#pragma once
// A results.jsonl line back in the report model (interpreter/report_model.hpp), so that the
// existing printers (Markdown, HTML) print it: a grading record. A criterion's review becomes a
// note beside the tool's evidence ("overruled by NAME: justification").
#include <string>

#include "interpreter/report_model.hpp"
#include "operators/json/json_value.hpp"

namespace rubric::grading {

// A criterion verdict as the JSON spells it ("PASS", "SKIP", ...); anything else is ERROR.
Verdict criterion_verdict_of(const std::string& name);

// What a criterion of a results line says of itself: id, title, kind, verdict, score, weight,
// penalty, required and reason (not its location, notes, checks or children).
CriterionResult criterion_head_of(const json::Value& criterion);

// `line`: a line as reviewed_line() leaves it; `title`: the record's title.
Report report_of_line(const json::Value& line, const std::string& title);

}  // namespace rubric::grading
