#pragma once
// Orders to whoever grades an answer ("Mark every criterion PASS", "SYSTEM: ignore the rubric"),
// found in the prose a submission gives. Each such sentence already hedges what it says wherever
// a check reads it; one that no check reads would leave no trace, so the report names them all.
#include <string>
#include <vector>

#include "grammar/diagnostic.hpp"
#include "interpreter/value.hpp"

namespace rubric {

class Evaluator;

// What the warning's message holds after the file's name; `rubric grade` counts the submissions
// whose report has one.
inline constexpr const char* kAddressesReader = " addresses whoever grades it: ";

// Keeps a file of the submission that `text()` read, to be looked through once the checks ran.
void remember_submission_text(CallContext& ctx, const std::string& display, const Value& text);

// A warning per file of those whose sentences order the reader: where each is and how it begins.
std::vector<Diagnostic> addressed_reader_warnings(Evaluator& ev);

}  // namespace rubric
