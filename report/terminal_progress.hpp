#pragma once
// Progress on a terminal while a rubric is checked: one status line, "[3/12] throughput: bench run 4/10…",
// redrawn in place with \r and cleared at the end. Silent when the stream is not a terminal, so
// piped and redirected output stays clean.
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>

#include "interpreter/report_model.hpp"

namespace rubric::report {

class TerminalProgress : public ProgressSink {
 public:
  // Draws on `stream` only when `enabled`; `width` is the terminal width in columns.
  TerminalProgress(std::FILE* stream, bool enabled, std::size_t width = 80);
  // Draws on stderr when stderr is a terminal (its width from the terminal, else 80).
  static TerminalProgress for_stderr();
  ~TerminalProgress() override;

  void rubric_started(std::size_t criterion_count) override;
  void criterion_started(const std::string& id, const std::string& title) override;
  void activity(const std::string& what) override;
  void criterion_finished(const CriterionResult& r) override;

  // Erases the status line (also done by the destructor); call before printing the report.
  void finish();

 private:
  void draw(const std::string& text);

  std::FILE* stream_;
  bool enabled_;
  std::size_t width_;
  std::mutex mutex_;  // activity may be reported from measurement threads
  std::size_t total_ = 0;
  std::size_t started_ = 0;
  std::string current_;
  bool line_drawn_ = false;
};

}  // namespace rubric::report
