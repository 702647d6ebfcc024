#include "report/report_format.hpp"

#include "report/html_report.hpp"
#include "report/json_report.hpp"
#include "report/junit_report.hpp"
#include "report/markdown_report.hpp"

namespace rubric::report {

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") return ReportFormat::text;
  if (name == "json") return ReportFormat::json;
  if (name == "junit") return ReportFormat::junit;
  if (name == "markdown" || name == "md") return ReportFormat::markdown;
  if (name == "html") return ReportFormat::html;
  return std::nullopt;
}

std::string render_report(const Report& report, ReportFormat format, const TextOptions& text_options) {
  switch (format) {
    case ReportFormat::text: return format_text(report, text_options);
    case ReportFormat::json: return format_json(report);
    case ReportFormat::junit: return format_junit(report);
    case ReportFormat::markdown: return format_markdown(report);
    case ReportFormat::html: return format_html(report);
  }
  return format_text(report, text_options);
}

}  // namespace rubric::report
