#pragma once
// Runs one piece of work per forked process, at most N at once, and hands each one's output back
// to the parent. A piece that crashes, hangs past its time limit or is killed ends only its own
// process; the parent goes on with the rest. The parent is single-threaded, so fork is safe.
#include <cstddef>
#include <functional>
#include <string>

namespace rubric::grading {

struct PieceOutcome {
  std::size_t index = 0;
  bool ok = false;        // the process exited 0 after writing its output
  std::string output;     // what the piece wrote (complete only when ok)
  std::string failure;    // when !ok: "killed by signal 11 (Segmentation fault)", "ran past the 600 s time limit"
  double seconds = 0;     // wall time of the process
};

struct PoolSettings {
  unsigned jobs = 1;
  double timeout_seconds = 0;  // 0: none
  // Called about every 100 ms and after each outcome (progress lines).
  std::function<void()> tick;
  // Checked between events; true stops starting pieces and kills the running ones.
  std::function<bool()> stop_requested;
};

// Runs `work(i)` for i in [0, count) in child processes (each in its own process group, stdin
// from /dev/null); what it returns is the piece's output. `done` is called in the parent, in
// completion order. Returns false when stopped early.
bool run_pieces(std::size_t count, const PoolSettings& settings, const std::function<std::string(std::size_t)>& work,
                const std::function<void(PieceOutcome&&)>& done);

}  // namespace rubric::grading
