#pragma once
// Progress of a batch on stderr: on a terminal one live line (done/total, rate, ETA, verdicts so
// far), redrawn at most ten times a second; in CI (CI set, not a terminal) a plain line every few
// seconds; otherwise, and with --quiet, nothing.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <string>

namespace rubric::grading {

class BatchProgress {
 public:
  enum class Mode { silent, live, periodic };
  BatchProgress(std::FILE* stream, Mode mode, std::size_t total);
  // The mode for stderr: live on a terminal, periodic when the CI variable is set, else silent.
  static Mode mode_for_stderr(bool quiet);

  void finished(const std::string& verdict, bool reused);
  void tick();          // redraws when due
  void clear();         // erases the live line (before printing anything else)
  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }
  void set_total(std::size_t total) { total_ = total; }

 private:
  std::string line() const;
  std::FILE* stream_;
  Mode mode_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::size_t reused_ = 0;
  std::map<std::string, std::size_t> verdicts_;
  std::string prefix_;
  std::chrono::steady_clock::time_point started_, last_draw_;
  bool drawn_ = false;
};

}  // namespace rubric::grading
