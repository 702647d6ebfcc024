#pragma once
// The report formats by name, for `rubric check --format`.
#include <optional>
#include <string>
#include <string_view>

#include "interpreter/report_model.hpp"
#include "report/text_report.hpp"

namespace rubric::report {

enum class ReportFormat { text, json, junit, markdown, html };

// "text", "json", "junit", "markdown" (also "md"), "html"; nullopt for anything else.
std::optional<ReportFormat> parse_report_format(std::string_view name);

// The report in `format`; `text_options` apply to the text format only.
std::string render_report(const Report& report, ReportFormat format, const TextOptions& text_options = {});

}  // namespace rubric::report
