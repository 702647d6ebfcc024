#pragma once
// A self-contained HTML report (`rubric check --format html`): one file with inline CSS and
// inline SVG plots, no script, no network, no external fonts, for opening from a results folder
// or an artifact store. Every string of the report passes through shown_report() and is then
// HTML-escaped, so nothing a submission writes becomes markup or script.
#include <string>

#include "interpreter/report_model.hpp"

namespace rubric::report {

std::string format_html(const Report& report);

}  // namespace rubric::report
