#include "operators/cuda/worker/timing_loop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "operators/cuda/dtype_info.hpp"

namespace rubric::cuda::worker {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

math::Rule recheck_rule(tensor::DType t) {
  // measurement.md's default tolerances: run-to-run differences of non-deterministic reductions pass.
  switch (t) {
    case tensor::DType::f64: return {1e-7, 1e-7, 0};
    case tensor::DType::f32: return {1.3e-6, 1e-5, 0};
    case tensor::DType::f16: return {1e-3, 1e-5, 0};
    case tensor::DType::bf16: return {1.6e-2, 1e-5, 0};
    default: return {0, 0, 0};
  }
}

// Empty when `now` matches `first`; else a sentence saying where it does not.
std::string describe_difference(const std::vector<unsigned char>& now, const std::vector<unsigned char>& first,
                                tensor::DType t, std::size_t count, std::size_t output_index) {
  if (now == first) return {};
  math::Partial p;
  math::Rule rule = recheck_rule(t);
  for (std::size_t i = 0; i < count; ++i) math::accumulate(p, now.data(), t, first.data(), t, i, rule);
  if (p.mismatches == 0) return {};
  auto i = static_cast<std::uint64_t>(p.first_mismatch_index);
  return fmt::format("output {} differs from the first call's: {} of {} elements (first at flat index {}: {:g} now, {:g} first)",
                     output_index, p.mismatches, count, i, math::load_as_double(now.data(), t, i),
                     math::load_as_double(first.data(), t, i));
}

}  // namespace

double relative_noise(const std::vector<double>& xs) {
  if (xs.size() < 2) return 0;
  double mean = 0;
  for (double x : xs) mean += x;
  mean /= static_cast<double>(xs.size());
  double ss = 0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  double sd = std::sqrt(ss / static_cast<double>(xs.size() - 1));
  return mean > 0 ? sd / mean : 0;
}

TimingReport run_timing(Backend& backend, PreparedCall& call, const std::function<void()>& launch,
                        const TimingSettings& settings) {
  TimingReport report;
  report.nominal_clock_mhz = backend.nominal_sm_clock_mhz();
  report.flush_bytes = settings.flush_l2 ? backend.l2_flush_bytes() : 0;
  report.flushed = report.flush_bytes > 0;

  // The reference outputs for the re-check: a plain call on the request's inputs.
  call.poison_outputs();
  backend.run_call(launch);
  std::vector<std::vector<unsigned char>> first = call.download_outputs();

  auto t0 = Clock::now();
  do {
    backend.timed_call(launch, false);
    ++report.warmup_calls;
  } while (seconds_since(t0) < settings.warmup_s && report.warmup_calls < 1000);

  auto loop_start = Clock::now();
  double measured = 0;
  std::vector<double> clocks;
  std::vector<double> noise_history;
  std::uint64_t draw = 0;
  while (true) {
    if (settings.fresh) call.randomize_inputs(settings.seed + 1 + draw++);
    TimedSample s = backend.timed_call(launch, settings.flush_l2);
    ClockReading clock = backend.read_sm_clock();
    report.escaped_stream += s.escaped_stream;
    if (clock.valid && report.nominal_clock_mhz > 0 &&
        clock.mhz < settings.min_clock_fraction * report.nominal_clock_mhz) {
      ++report.dropped_low_clock;
    } else {
      report.samples.push_back(s.seconds);
      measured += s.seconds;
      if (clock.valid) clocks.push_back(clock.mhz);
    }
    double wall = seconds_since(loop_start);
    bool enough = static_cast<int>(report.samples.size()) >= settings.min_samples && measured >= settings.min_time_s;
    if (enough) {
      double noise = relative_noise(report.samples);
      if (noise < settings.max_noise) {
        report.stop_reason = fmt::format("noise {:.2f}% < {:.2f}%", noise * 100, settings.max_noise * 100);
        break;
      }
      // NVBench also stops once the noise estimate itself has settled: more samples would not
      // lower it, only spend time.
      noise_history.push_back(noise);
      if (noise_history.size() >= 64) {
        auto [lo, hi] = std::minmax_element(noise_history.end() - 64, noise_history.end());
        if (*hi - *lo < 0.01 * *hi) {
          report.stop_reason = fmt::format("noise estimate stable at {:.2f}%, above the {:.2f}% target", noise * 100,
                                           settings.max_noise * 100);
          break;
        }
      }
    }
    if (wall >= settings.max_time_s) {
      report.stop_reason = fmt::format("time limit {:g} s", settings.max_time_s);
      break;
    }
    if (report.samples.size() >= settings.max_samples) {
      report.stop_reason = fmt::format("{} samples", settings.max_samples);
      break;
    }
  }
  report.elapsed_s = seconds_since(loop_start);
  report.noise = relative_noise(report.samples);
  if (!clocks.empty()) {
    std::nth_element(clocks.begin(), clocks.begin() + clocks.size() / 2, clocks.end());
    report.clock_mhz = clocks[clocks.size() / 2];
  }

  // Re-check: a kernel that worked only once, drifts, or ignores its inputs shows up here.
  std::vector<std::string> problems;
  bool has_inputs = false;
  for (const ArgSpec& s : call.specs()) has_inputs = has_inputs || (s.kind == ArgSpec::Kind::input && s.count > 0);
  if (settings.fresh && has_inputs && !first.empty()) {
    call.randomize_inputs(settings.seed + 0x5eed5eedull);
    call.poison_outputs();
    backend.run_call(launch);
    if (call.download_outputs() == first)
      problems.push_back("outputs did not change when the inputs were redrawn (cached or input-independent results)");
    call.upload_inputs();
  }
  call.poison_outputs();
  backend.run_call(launch);
  std::vector<std::vector<unsigned char>> again = call.download_outputs();
  std::size_t k = 0;
  for (const ArgSpec& s : call.specs()) {
    if (s.kind != ArgSpec::Kind::output) continue;
    std::string d = describe_difference(again[k], first[k], s.dtype, s.count, k);
    if (!d.empty()) problems.push_back("after timing, " + d);
    ++k;
  }
  report.recheck_ok = problems.empty();
  if (problems.empty()) {
    report.recheck = settings.fresh && has_inputs
                         ? "outputs reproduced after timing; they change with fresh inputs"
                         : "outputs reproduced after timing";
  } else {
    for (const std::string& p : problems) report.recheck += (report.recheck.empty() ? "" : "; ") + p;
  }
  return report;
}

}  // namespace rubric::cuda::worker
