#pragma once
// The HTML view of a corpus (`rubric grade --format html`, `rubric merge --format html`): one
// self-contained page drawn from summary.json (docs/report-json.md): verdict counts, the score
// histogram, each criterion's pass rate, the slowest submissions, every ERROR, provenance.
// Inline CSS and SVG, no script; every string HTML-escaped after display_text.
#include <string>

#include "operators/json/json_value.hpp"

namespace rubric::report {

// `summary` is a parsed summary.json; fields it lacks are shown as absent, never guessed.
std::string format_corpus_html(const json::Value& summary);

}  // namespace rubric::report
