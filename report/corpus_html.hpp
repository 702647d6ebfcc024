#pragma once
// The HTML view of a corpus (`rubric grade --format html`, `rubric merge --format html`): one
// self-contained page drawn from summary.json (docs/report-json.md): verdict counts, the score
// histogram, each criterion's pass rate, the slowest submissions, every ERROR, provenance.
// Inline CSS and SVG, no script; every string HTML-escaped after display_text.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "operators/json/json_value.hpp"

namespace rubric::report {

// One submission's row, as summary.json's submission_list holds it.
struct CorpusRow {
  std::string submission;
  std::string verdict;
  std::optional<double> score;
  std::string reason;
};
// Calls `visit` with each row in order until it returns false.
using CorpusRows = std::function<void(const std::function<bool(const CorpusRow&)>& visit)>;

// `summary` is a parsed summary.json; fields it lacks are shown as absent, never guessed.
std::string format_corpus_html(const json::Value& summary);

// The same page handed to `out` piece by piece, its ERRORs and submissions taken from `rows`
// rather than from the summary's lists, so a corpus's page is written in the memory 300
// submissions take (`rubric grade` passes its row spool).
void write_corpus_html(const json::Value& summary, const CorpusRows& rows, const std::function<void(std::string_view)>& out);

}  // namespace rubric::report
