#pragma once
// A Markdown report (for pull-request comments and task pages): verdict line, a table of the
// criteria, then each criterion's checks with their evidence in code blocks.
#include <string>

#include "interpreter/report_model.hpp"

namespace rubric::report {

std::string format_markdown(const Report& report);

}  // namespace rubric::report
