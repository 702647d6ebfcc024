#pragma once
// NVBench-style cold timing of one prepared call, with the defences graders need:
//   - a checked untimed call first (run twice with two poison patterns, so an unwritten element
//     shows; canaries around every tensor intact);
//   - before every sample, outside the timed region: inputs restored from a pristine device copy
//     (or freshly drawn), outputs poisoned, device state reset, L2 flushed, device synchronised;
//   - every sample's observation judged: work that escaped the events (the host saw the call take
//     longer than the events did) and samples under 75% of the sustained SM clock are not kept;
//     a call that leaves a new host thread running FAILs;
//   - timed outputs verified against the untimed result for the same inputs (every sample, or a
//     seeded random subset with fresh inputs); a final re-check after the loop.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "operators/cuda/worker/backend.hpp"
#include "operators/cuda/worker/prepared_call.hpp"

namespace rubric::cuda::worker {

struct TimingSettings {
  double warmup_s = 0.025;
  int min_samples = 10;
  double min_time_s = 0.5;       // of measured (GPU) time
  double max_time_s = 15;        // wall time of the sampling loop
  double max_noise = 0.005;      // relative standard deviation
  double min_clock_fraction = 0.75;      // of the sustained SM clock, per sample
  double min_sustained_fraction = 0.5;   // of the nominal clock: below it the machine is at fault
  bool fresh = false;  // inputs drawn anew (from the kernel's generator) before every sample
  bool flush_l2 = true;
  std::size_t max_samples = 1000000;
  std::optional<math::Rule> recheck_rule;  // default: recheck_rule_for(dtype)
  int verify_first = 3;            // with fresh inputs: the first samples always verified,
  double verify_fraction = 0.25;   // then this share of the rest (seeded); without: every sample
  double max_escaped_fraction = 0.1;
};

struct TimingReport {
  std::vector<double> samples;   // seconds, in the order taken
  int warmup_calls = 0;
  int dropped_low_clock = 0;
  int escaped_stream = 0;        // samples whose work escaped the events (never kept)
  int verified_samples = 0;      // samples whose outputs were checked against the untimed result
  double escape_slack_s = 0;     // host overhead allowance, measured on empty launches
  bool stream_held = true;       // samples taken behind the blocking kernel (false: the launch syncs)
  double clock_mhz = 0;          // median SM clock over kept samples (0: not measurable)
  double sustained_clock_mhz = 0;  // median SM clock over the warm-up: the 75% rule's reference
  double nominal_clock_mhz = 0;
  double first_call_s = 0;       // host time of the first checked call
  double noise = 0;              // relative standard deviation of the kept samples
  double elapsed_s = 0;
  std::string stop_reason;
  bool flushed = false;
  std::size_t flush_bytes = 0;
  bool recheck_ok = true;
  std::string recheck;           // what the checks found
  bool grader_environment = false;  // the machine, not the candidate, spoiled the measurement
  std::string environment_reason;
};

// Called once the first checked call is done (the worker reports its duration to the client,
// which sizes the rest of the request's time budget from it).
using FirstCallHook = std::function<void(double first_call_s)>;

TimingReport run_timing(Backend& backend, PreparedCall& call, const std::function<void()>& launch,
                        const TimingSettings& settings, const FirstCallHook& on_first_call = {});

// The result of the checked untimed call: empty `problem` when the outputs were all written and
// no canary was touched.
struct CheckedCall {
  std::string problem;
  std::vector<std::vector<unsigned char>> outputs;  // host copies
  double seconds = 0;                               // host time of the (first) call
};
// Inputs restored, outputs poisoned with pattern 0, the call; once more with pattern 1: elements
// that kept each call's poison were never written.
CheckedCall run_checked_call(Backend& backend, PreparedCall& call, const std::function<void()>& launch);

// Run-to-run tolerance of the re-checks when the rubric gives none: bitwise for integers; for
// floats wide enough for the run-to-run differences of atomics-based reductions.
math::Rule recheck_rule_for(tensor::DType t);

// Whether a sample's work escaped its events: the host saw the launch plus the wait after
// releasing the stream take longer than the events by more than `slack_s` (plus 1%).
bool escaped_events(const TimedSample& s, double slack_s);

// Relative standard deviation (sample stdev / mean); 0 for fewer than 2 values.
double relative_noise(const std::vector<double>& xs);

}  // namespace rubric::cuda::worker
