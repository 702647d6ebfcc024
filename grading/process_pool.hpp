#pragma once
// Runs pieces of work in long-lived forked worker processes, at most N at once, and hands each
// piece's output back to the parent. A worker takes pieces one at a time and is replaced after a
// fixed number of them (whatever it accumulates is bounded). A piece that crashes its worker,
// hangs past its time limit or is killed ends only that worker: the piece is reported failed, a
// fresh worker takes the next one, and no other piece is affected. The parent is single-threaded
// where it forks (a background thread may run, touching nothing a worker uses).
#include <cstddef>
#include <functional>
#include <string>

namespace rubric::grading {

struct PieceOutcome {
  std::size_t index = 0;
  bool ok = false;        // the worker returned the piece's output
  std::string output;     // what the piece returned (only when ok)
  std::string failure;    // when !ok: "the grading process was killed by signal 11 (Segmentation fault)", ...
  double seconds = 0;     // wall time from handing the piece over to its outcome
};

struct PoolSettings {
  unsigned jobs = 1;
  double timeout_seconds = 0;           // per piece; 0: none
  std::size_t pieces_per_worker = 500;  // a worker is replaced after this many pieces
  // Called about every 100 ms and after each outcome (progress lines).
  std::function<void()> tick;
  // Checked between events; true stops handing out pieces and kills the workers.
  std::function<bool()> stop_requested;
  // In a new worker, before its first piece; `slot` in [0, jobs) is its place (one device each).
  std::function<void(unsigned slot)> worker_started;
  // In a worker that is done (no more pieces for it), before it exits: releases what it started.
  std::function<void()> worker_ending;
};

// Runs `work(i)` for i in [0, count) in worker processes (each in its own process group, stdin
// from /dev/null); what it returns is the piece's output, and an exception it throws fails that
// piece alone. `done` is called in the parent, in completion order. Returns false when stopped.
bool run_pieces(std::size_t count, const PoolSettings& settings, const std::function<std::string(std::size_t)>& work,
                const std::function<void(PieceOutcome&&)>& done);

}  // namespace rubric::grading
