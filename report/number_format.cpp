#include "report/number_format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace rubric::report {
namespace {

std::string strip_trailing_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return fmt::format("{}", fraction);
  std::string digits = strip_trailing_zeros(fmt::format("{:.1f}", fraction * 100.0));
  if (digits == "-0") digits = "0";
  return digits + "%";
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  if (value == std::floor(value) && std::fabs(value) < 1e15) return fmt::format("{:.0f}", value);
  return fmt::format("{:.6g}", value);
}

std::string format_seconds(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.0f} us", seconds * 1e6);
  if (seconds < 1.0) return fmt::format("{:.1f} ms", seconds * 1e3);
  return fmt::format("{:.2f} s", seconds);
}

}  // namespace rubric::report
