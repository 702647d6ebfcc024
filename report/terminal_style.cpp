#include "report/terminal_style.hpp"

#include <cstdlib>

#include <unistd.h>

namespace rubric::report {
namespace {

const char* escape_code(Colour c) {
  switch (c) {
    case Colour::green: return "\x1b[32m";
    case Colour::red: return "\x1b[31m";
    case Colour::yellow: return "\x1b[33m";
    case Colour::grey: return "\x1b[90m";
    case Colour::magenta: return "\x1b[35m";
    case Colour::bold: return "\x1b[1m";
  }
  return "";
}

}  // namespace

std::string TerminalStyle::paint(std::string_view text, Colour colour) const {
  if (!enabled_ || text.empty()) return std::string(text);
  return std::string(escape_code(colour)) + std::string(text) + "\x1b[0m";
}

std::string TerminalStyle::paint(std::string_view text, Verdict verdict) const {
  return paint(text, verdict_colour(verdict));
}

std::string TerminalStyle::paint(std::string_view text, OverallVerdict verdict) const {
  switch (verdict) {
    case OverallVerdict::pass: return paint(text, Colour::green);
    case OverallVerdict::fail: return paint(text, Colour::red);
    case OverallVerdict::error: return paint(text, Colour::magenta);
    case OverallVerdict::incomplete: return paint(text, Colour::yellow);
  }
  return std::string(text);
}

Colour verdict_colour(Verdict v) {
  switch (v) {
    case Verdict::pass: return Colour::green;
    case Verdict::fail: return Colour::red;
    case Verdict::inconclusive: return Colour::yellow;
    case Verdict::skip: return Colour::grey;
    case Verdict::error: return Colour::magenta;
  }
  return Colour::bold;
}

const char* verdict_marker(Verdict v) {
  switch (v) {
    case Verdict::pass: return "✔";
    case Verdict::fail: return "✘";
    case Verdict::inconclusive: return "?";
    case Verdict::skip: return "–";
    case Verdict::error: return "!";
  }
  return "!";
}

bool colour_wanted(int fd, bool no_color_flag) {
  if (no_color_flag) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return isatty(fd) != 0;
}

}  // namespace rubric::report
