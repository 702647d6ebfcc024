#include "grading/batch_progress.hpp"

#include <cstdlib>

#include <fmt/format.h>
#include <unistd.h>

namespace rubric::grading {
namespace {

using Clock = std::chrono::steady_clock;

std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

BatchProgress::BatchProgress(std::FILE* stream, Mode mode, std::size_t total)
    : stream_(stream), mode_(mode), total_(total), started_(Clock::now()), last_draw_(Clock::now()) {}

BatchProgress::Mode BatchProgress::mode_for_stderr(bool quiet) {
  if (quiet) return Mode::silent;
  if (::isatty(STDERR_FILENO)) return Mode::live;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && *ci != '\0' && std::string(ci) != "false" && std::string(ci) != "0") return Mode::periodic;
  return Mode::silent;
}

void BatchProgress::finished(const std::string& verdict, bool reused) {
  ++done_;
  if (reused) ++reused_;
  ++verdicts_[verdict];
}

std::string BatchProgress::line() const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - started_).count();
  const std::size_t fresh = done_ - reused_;
  std::string text = fmt::format("{}{}/{} graded", prefix_, done_, total_);
  if (reused_ > 0) text += fmt::format(" ({} reused)", reused_);
  if (fresh > 0 && elapsed > 0.5) {
    const double rate = static_cast<double>(fresh) / elapsed;
    text += fmt::format(" · {:.1f}/s", rate);
    if (done_ < total_) text += fmt::format(" · ETA {}", clock_text(static_cast<double>(total_ - done_) / rate));
  }
  for (const char* v : {"PASS", "FAIL", "INCOMPLETE", "ERROR"}) {
    auto it = verdicts_.find(v);
    if (it != verdicts_.end()) text += fmt::format(" · {} {}", it->second, v);
  }
  return text;
}

void BatchProgress::tick() {
  if (mode_ == Mode::silent) return;
  const auto now = Clock::now();
  const double since = std::chrono::duration<double>(now - last_draw_).count();
  if (mode_ == Mode::live) {
    if (drawn_ && since < 0.1 && done_ < total_) return;
    fmt::print(stream_, "\r\x1b[K{}", line());
    drawn_ = true;
  } else {
    if (since < 5 && done_ < total_) return;
    if (done_ == total_ && drawn_) return;  // the final line once
    fmt::print(stream_, "{}\n", line());
    drawn_ = done_ == total_;
  }
  last_draw_ = now;
  std::fflush(stream_);
}

void BatchProgress::clear() {
  if (mode_ == Mode::live && drawn_) {
    fmt::print(stream_, "\r\x1b[K");
    std::fflush(stream_);
    drawn_ = false;
  }
}

}  // namespace rubric::grading
