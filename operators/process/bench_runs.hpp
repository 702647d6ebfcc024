#pragma once
// Repeated isolated runs of one command, giving samples of wall time or of a JSON field of stdout.
#include <functional>
#include <string>
#include <vector>

#include "operators/process/run_isolated.hpp"

namespace rubric::process {

struct BenchSpec {
  RunSpec run;
  int warmup = 1;      // runs whose results are checked but not recorded
  int repeat = 10;     // recorded runs
  std::string metric;  // dotted JSON path into each run's stdout ("metrics.output_throughput"); empty: wall time
  // Called before each run with its label ("warm-up run 1 of 1", "run 3 of 10"), for progress displays.
  std::function<void(const std::string& label)> on_run;
};

struct BenchResult {
  bool ok = false;
  // When !ok: which run failed and why, with its stderr tail, e.g.
  // "run 3 of 10: killed by SIGSEGV (signal 11); stderr tail: ..."
  std::string failure;
  bool setup_failed = false;    // the failing run could not be set up (RunResult::setup_failed)
  std::vector<double> samples;  // one per recorded run, in run order
  std::string unit;             // "s" for wall time, "" for a JSON field (dimensionless)
  std::vector<RunResult> runs;  // every run made, warm-ups first, up to and including a failing one;
                                // only a failing run keeps its stdout and stderr
};

// Stops at the first failing run: a non-zero exit, a signal, a timeout, a launch failure, stdout
// that is not JSON, or JSON without the metric (or with a non-numeric one). OperatorError only for
// a bad spec (repeat < 1, warmup < 0, or what run_isolated rejects).
BenchResult bench(const BenchSpec& spec);

}  // namespace rubric::process
