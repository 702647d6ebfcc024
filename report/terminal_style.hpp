#pragma once
// ANSI colours for the text report, applied only when asked (a terminal, no --no-color, no NO_COLOR).
#include <string>
#include <string_view>

#include "interpreter/report_model.hpp"

namespace rubric::report {

enum class Colour { green, red, yellow, grey, magenta, bold };

class TerminalStyle {
 public:
  explicit TerminalStyle(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  // `text` wrapped in the colour's escape codes, or unchanged when colours are off.
  std::string paint(std::string_view text, Colour colour) const;
  // Green PASS, red FAIL, yellow INCONCLUSIVE, grey SKIP, magenta ERROR.
  std::string paint(std::string_view text, Verdict verdict) const;
  std::string paint(std::string_view text, OverallVerdict verdict) const;

 private:
  bool enabled_;
};

Colour verdict_colour(Verdict v);
// ✔ PASS, ✘ FAIL, ? INCONCLUSIVE, – SKIP, ! ERROR.
const char* verdict_marker(Verdict v);

// Whether a report written to the stream `fd` should be coloured: a terminal, `--no-color` absent,
// and NO_COLOR unset or empty (https://no-color.org).
bool colour_wanted(int fd, bool no_color_flag);

}  // namespace rubric::report
