#pragma once
// NVBench-style cold timing of one prepared call, with the defences graders need: a warm-up,
// L2 flushed before every sample, the whole device synchronised, samples under 75% of the
// nominal SM clock dropped, optional fresh inputs per sample, and outputs re-checked afterwards.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "operators/cuda/worker/backend.hpp"
#include "operators/cuda/worker/prepared_call.hpp"

namespace rubric::cuda::worker {

struct TimingSettings {
  double warmup_s = 0.025;
  int min_samples = 10;
  double min_time_s = 0.5;       // of measured (GPU) time
  double max_time_s = 15;        // wall time of the whole loop
  double max_noise = 0.005;      // relative standard deviation
  double min_clock_fraction = 0.75;
  bool fresh = false;
  std::uint64_t seed = 0;
  bool flush_l2 = true;
  std::size_t max_samples = 1000000;
};

struct TimingReport {
  std::vector<double> samples;   // seconds, in the order taken
  int warmup_calls = 0;
  int dropped_low_clock = 0;
  int escaped_stream = 0;        // samples where work outlived our stream's stop event
  double clock_mhz = 0;          // median SM clock over kept samples (0: not measurable)
  double nominal_clock_mhz = 0;
  double noise = 0;              // relative standard deviation of the kept samples
  double elapsed_s = 0;
  std::string stop_reason;
  bool flushed = false;
  std::size_t flush_bytes = 0;
  bool recheck_ok = true;
  std::string recheck;           // what the re-check found
};

TimingReport run_timing(Backend& backend, PreparedCall& call, const std::function<void()>& launch,
                        const TimingSettings& settings);

// Relative standard deviation (sample stdev / mean); 0 for fewer than 2 values.
double relative_noise(const std::vector<double>& xs);

}  // namespace rubric::cuda::worker
