#pragma once
// How the reports print scores, weights and durations.
#include <string>

namespace rubric::report {

// A fraction as a percentage with at most one decimal: 0.725 → "72.5%", 1 → "100%", 2/3 → "66.7%".
std::string format_percent(double fraction);

// A plain number with up to 6 significant digits and no trailing zeros: 4 → "4", 0.5 → "0.5".
std::string format_number(double value);

// A duration for the --verbose line and JUnit: "0.123 s", "12.3 ms".
std::string format_seconds(double seconds);

}  // namespace rubric::report
