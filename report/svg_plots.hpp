#pragma once
// Inline SVG pictures for the HTML report, drawn from the report model alone (no script): the
// samples of a statistical comparison with its interval and bound, and the map of where a tensor
// comparison's mismatches lie. Every text they hold is HTML-escaped here.
#include <string>

#include "interpreter/report_model.hpp"

namespace rubric::report {

// Each side's samples as a strip plot (dots, median tick) on one axis; below it, the decided
// quantity's confidence interval and median against the bound, the passing side shaded.
std::string svg_sample_plot(const SamplePlot& plot);

// The tensor's rows × cols view as a grid of cells shaded by the fraction of mismatching elements.
std::string svg_mismatch_map(const MismatchMap& map);

// `text` with & < > " ' replaced by entities: safe in element content and quoted attributes.
std::string html_escape(std::string_view text);

}  // namespace rubric::report
