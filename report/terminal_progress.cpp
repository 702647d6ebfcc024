#include "report/terminal_progress.hpp"

#include <fmt/format.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include "report/display_text.hpp"
#include "operators/text/utf8.hpp"

namespace rubric::report {

TerminalProgress::TerminalProgress(std::FILE* stream, bool enabled, std::size_t width)
    : stream_(stream), enabled_(enabled && stream != nullptr), width_(width < 10 ? 10 : width) {}

TerminalProgress TerminalProgress::for_stderr() {
  const int fd = fileno(stderr);
  const bool tty = isatty(fd) != 0;
  std::size_t width = 80;
  winsize ws{};
  if (tty && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) width = ws.ws_col;
  return TerminalProgress(stderr, tty, width);
}

TerminalProgress::~TerminalProgress() { finish(); }

void TerminalProgress::draw(const std::string& text) {
  if (!enabled_) return;
  // One column short of the width so the terminal never wraps onto a second line.
  const std::string shown = text::truncate_to_width(display_text(text::fold_whitespace(text)), width_ - 1);
  fmt::print(stream_, "\r{}\x1b[K", shown);
  std::fflush(stream_);
  line_drawn_ = true;
}

void TerminalProgress::rubric_started(std::size_t criterion_count) {
  std::lock_guard<std::mutex> lock(mutex_);
  total_ = criterion_count;
  started_ = 0;
}

void TerminalProgress::criterion_started(const std::string& id, const std::string& /*title*/) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++started_;
  current_ = total_ > 0 ? fmt::format("[{}/{}] {}", started_, total_, id) : fmt::format("[{}] {}", started_, id);
  draw(current_ + "…");
}

void TerminalProgress::activity(const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  draw(current_.empty() ? what + "…" : fmt::format("{}: {}…", current_, what));
}

void TerminalProgress::criterion_finished(const CriterionResult& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  draw(fmt::format("{}: {}", current_, verdict_name(r.verdict)));
}

void TerminalProgress::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (enabled_ && line_drawn_) {
    fmt::print(stream_, "\r\x1b[K");
    std::fflush(stream_);
  }
  line_drawn_ = false;
}

}  // namespace rubric::report
