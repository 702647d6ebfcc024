#pragma once
// JUnit XML for CI dashboards: one <testsuite> (the rubric), one <testcase> per criterion (groups
// flattened, their ids joined into the classname). FAIL → <failure>, ERROR → <error>,
// SKIP and INCONCLUSIVE → <skipped> (JUnit has no "undecided"; the message says which).
#include <string>
#include <string_view>

#include "interpreter/report_model.hpp"

namespace rubric::report {

std::string format_junit(const Report& report);

// Text escaped for XML 1.0 content and attributes; characters XML cannot hold become U+FFFD.
std::string xml_escape(std::string_view text);

}  // namespace rubric::report
