#include "operators/cuda/worker/timing_loop.hpp"

#include <sys/random.h>

#include <cerrno>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "operators/cuda/dtype_info.hpp"
#include "operators/cuda/worker/host_threads.hpp"

namespace rubric::cuda::worker {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

constexpr double kMinEscapeSlack = 20e-6;  // host clock and launch jitter on an idle machine

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

std::vector<const ArgSpec*> output_specs(const PreparedCall& call) {
  std::vector<const ArgSpec*> out;
  for (const ArgSpec& s : call.specs())
    if (s.kind == ArgSpec::Kind::output) out.push_back(&s);
  return out;
}

// Elements that kept the poison of both calls (pattern 0's bits after the first, pattern 1's after
// the second): never written. Compared by their bits, so a value the kernel computes (a NaN too)
// or a float that differs between runs (atomics) is never taken for one.
std::string unwritten_elements(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                               const ArgSpec& s, std::size_t k) {
  const std::size_t width = element_bytes(s.dtype);
  const std::uint64_t p0 = poison_bits(s.dtype, 0), p1 = poison_bits(s.dtype, 1);
  std::size_t n = 0, first = 0;
  for (std::size_t i = 0; i < s.count; ++i) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, a.data() + i * width, width);  // little-endian: the low bytes, as fill_pattern writes them
    std::memcpy(&y, b.data() + i * width, width);
    if (x != p0 || y != p1) continue;
    if (n++ == 0) first = i;
  }
  if (n == 0) return {};
  return fmt::format("output {} ({}): {} of {} elements were never written (they kept the poison; first at flat index {})",
                     k, dtype_label(s.dtype), n, s.count, first);
}

// Empty when `now` matches `expected` under `rule`; else a sentence saying where it does not.
std::string describe_difference(Backend& backend, const void* now, const void* expected, const ArgSpec& s,
                                const math::Rule& rule, std::size_t k, const char* now_name,
                                const char* expected_phrase, const char* expected_name) {
  double seconds = 0;
  numerics::CompareStats st = backend.compare(now, s.dtype, expected, s.dtype, s.count, rule, seconds);
  if (st.mismatches == 0) return {};
  auto i = static_cast<std::uint64_t>(st.first_mismatch_index);
  std::size_t width = element_bytes(s.dtype);
  unsigned char x[8] = {0}, y[8] = {0};
  backend.download(x, static_cast<const unsigned char*>(now) + i * width, width);
  backend.download(y, static_cast<const unsigned char*>(expected) + i * width, width);
  return fmt::format("output {} differs from the {}: {} of {} elements (first at flat index {}: {:g} {}, {:g} {})", k,
                     expected_phrase, st.mismatches, s.count, i, math::load_as_double(x, s.dtype, 0), now_name,
                     math::load_as_double(y, s.dtype, 0), expected_name);
}

struct Verifier {
  Backend& backend;
  PreparedCall& call;
  const std::function<void()>& launch;
  const TimingSettings& settings;
  std::vector<DeviceBuffer> expected;  // the untimed call's outputs for the request's inputs
  std::vector<DeviceBuffer> timed;     // a timed sample's outputs, kept while its reference runs

  math::Rule rule(const ArgSpec& s) const {
    math::Rule r = settings.recheck_rule ? *settings.recheck_rule : recheck_rule_for(s.dtype);
    r.nan_equal = true;    // a NaN the kernel computes is the same result twice
    r.ulp_stats = false;   // only counts matter here
    return r;
  }

  // The checked call's outputs (host copies) become the reference every timed sample must match.
  void keep_expected(const std::vector<std::vector<unsigned char>>& outputs) {
    expected.clear();
    for (const auto& o : outputs) {
      expected.emplace_back(backend, o.size());
      if (!o.empty()) backend.upload(expected.back().get(), o.data(), o.size());
    }
  }

  // Outputs now in the buffers against the expected copies: the first difference, or empty.
  std::string against_expected(const char* label) {
    std::size_t k = 0;
    for (const ArgSpec* s : output_specs(call)) {
      std::string d = describe_difference(backend, call.output_buffer(k), expected[k].get(), *s, rule(*s), k, label,
                                          "untimed call's", "untimed");
      if (!d.empty()) return d;
      ++k;
    }
    return {};
  }

  // A fresh-input sample: its outputs kept, the same draw recomputed untimed, both compared.
  std::string against_untimed_redraw(std::uint64_t seed) {
    auto outs = output_specs(call);
    if (timed.empty())
      for (const ArgSpec* s : outs) timed.emplace_back(backend, s->count * element_bytes(s->dtype));
    for (std::size_t k = 0; k < outs.size(); ++k) {
      std::size_t bytes = outs[k]->count * element_bytes(outs[k]->dtype);
      if (bytes) backend.copy(timed[k].get(), call.output_buffer(k), bytes);
    }
    call.randomize_inputs(seed);
    call.poison_outputs();
    backend.run_call(launch);
    for (std::size_t k = 0; k < outs.size(); ++k) {
      std::string d = describe_difference(backend, timed[k].get(), call.output_buffer(k), *outs[k], rule(*outs[k]), k,
                                          "timed", "untimed call's", "untimed");
      if (!d.empty()) return d;
    }
    return {};
  }
};

// Threads of the worker that were not there before a timed call and still run after it returned:
// work handed to them is finished off the clock.
std::string threads_left_running(const std::optional<std::set<pid_t>>& before) {
  if (!before) return {};
  auto after = live_threads();
  if (!after) return {};
  std::size_t added = 0;
  for (pid_t t : *after) added += before->count(t) == 0;
  if (added == 0) return {};
  return fmt::format("the call left {} new host thread{} running after it returned (work finished after the call "
                     "is not timed)", added, added == 1 ? "" : "s");
}

// A timed sample whose outputs were wrong when it returned: if they come right a moment later, the
// work was finished after the call (by a host thread or on another stream), off the clock.
std::string deferred_write_or(Verifier& verify, std::string wrong) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  verify.backend.run_call([] {});
  if (!verify.against_expected("timed").empty()) return wrong;
  return "its outputs were wrong when the call returned and right 50 ms later: the work was finished after the "
         "call (a deferred write, off the clock)";
}

// 64 bits from the kernel's generator, drawn at the moment they are needed.
std::uint64_t unpredictable_draw() {
  std::uint64_t v = 0;
  for (std::size_t got = 0; got < sizeof v;) {
    ssize_t n = ::getrandom(reinterpret_cast<char*>(&v) + got, sizeof v - got, 0);
    if (n > 0) got += static_cast<std::size_t>(n);
    else if (errno != EINTR) return math::splitmix64(static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()));
  }
  return v;
}

}  // namespace

math::Rule recheck_rule_for(tensor::DType t) {
  // Atomics-based reductions reorder their sums from run to run: the relative differences reach
  // a few hundred ULPs of the result on large reductions, more where terms cancel (atol).
  switch (t) {
    case tensor::DType::f64: return {1e-9, 1e-12, 0};
    case tensor::DType::f32: return {1e-4, 1e-5, 0};
    case tensor::DType::f16: return {5e-3, 1e-4, 0};
    case tensor::DType::bf16: return {4e-2, 1e-3, 0};
    case tensor::DType::f8e4m3: case tensor::DType::f8e5m2: return {0.25, 1e-2, 0};
    default: return {0, 0, 0};
  }
}

bool escaped_events(const TimedSample& s, double slack_s) {
  if (s.block_expired) return true;
  return s.host_launch_s + s.host_after_s > s.seconds * 1.01 + slack_s;
}

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

CheckedCall run_checked_call(Backend& backend, PreparedCall& call, const std::function<void()>& launch) {
  CheckedCall r;
  call.restore_inputs();
  call.poison_outputs(0);
  auto t0 = Clock::now();
  backend.run_call(launch);
  r.seconds = seconds_since(t0);
  r.outputs = call.download_outputs();
  std::string damage = call.guard_damage();
  if (!damage.empty()) {
    r.problem = damage;
    return r;
  }
  // 0xFF bytes decode as -1, 255 or true, and a NaN may be what the kernel computes: an element
  // is unwritten only if it also keeps a second call's different poison.
  call.restore_inputs();
  call.poison_outputs(1);
  backend.run_call(launch);
  std::vector<std::vector<unsigned char>> again = call.download_outputs();
  std::size_t k = 0;
  for (const ArgSpec* s : output_specs(call)) {
    std::string d = unwritten_elements(r.outputs[k], again[k], *s, k);
    if (!d.empty()) r.problem += (r.problem.empty() ? "" : "; ") + d;
    ++k;
  }
  return r;
}

TimingReport run_timing(Backend& backend, PreparedCall& call, const std::function<void()>& launch,
                        const TimingSettings& settings, const FirstCallHook& on_first_call) {
  TimingReport report;
  report.nominal_clock_mhz = backend.nominal_sm_clock_mhz();
  report.flush_bytes = settings.flush_l2 ? backend.l2_flush_bytes() : 0;
  report.flushed = report.flush_bytes > 0;
  auto fail = [&](std::string why) {
    report.recheck_ok = false;
    report.recheck = std::move(why);
    return report;
  };

  // 1. The checked untimed call on the request's inputs: the reference for every later check.
  call.keep_pristine_inputs();
  CheckedCall first = run_checked_call(backend, call, launch);
  report.first_call_s = first.seconds;
  if (on_first_call) on_first_call(first.seconds);
  if (!first.problem.empty()) return fail(first.problem);
  Verifier verify{backend, call, launch, settings, {}, {}};
  // The first of the checked call's two runs is the reference: a function that works only once
  // left the second run's poison in the buffers.
  verify.keep_expected(first.outputs);

  auto prepare = [&](std::optional<std::uint64_t> draw) {
    if (draw) call.randomize_inputs(*draw);
    else call.restore_inputs();
    call.poison_outputs();
  };

  // 2. The first warm-up call with our stream held. A launch that waits for the device itself
  //    (a cudaDeviceSynchronize inside it) outwaits the blocking kernel: the stream is then not
  //    held for this request, and host launch latency counts inside the events, as do_bench has it.
  auto t0 = Clock::now();
  prepare(std::nullopt);
  TimedSample first_warm = backend.timed_call(launch, false, true);
  ++report.warmup_calls;
  report.stream_held = !first_warm.block_expired;
  std::vector<double> warm_clocks;
  if (first_warm.clock.valid) warm_clocks.push_back(first_warm.clock.mhz);

  // 3. What a sample costs the host beyond its events when the call does nothing: the allowance
  //    before a sample counts as escaped.
  std::vector<double> overheads;
  for (int k = 0; k < 5; ++k) {
    TimedSample e = backend.timed_call([] {}, false, report.stream_held);
    overheads.push_back(std::max(0.0, e.host_launch_s + e.host_after_s - e.seconds));
  }
  report.escape_slack_s = std::max(kMinEscapeSlack, 3 * median_of(overheads));

  // 4. The rest of the warm-up (not flushed), which also tells the clock this device sustains on
  //    this kernel.
  while (seconds_since(t0) < settings.warmup_s && report.warmup_calls < 1000) {
    prepare(std::nullopt);
    TimedSample w = backend.timed_call(launch, false, report.stream_held);
    if (w.clock.valid) warm_clocks.push_back(w.clock.mhz);
    ++report.warmup_calls;
  }
  report.sustained_clock_mhz = warm_clocks.empty() ? 0 : median_of(warm_clocks);
  if (report.sustained_clock_mhz > 0 && report.nominal_clock_mhz > 0 &&
      report.sustained_clock_mhz < settings.min_sustained_fraction * report.nominal_clock_mhz) {
    report.grader_environment = true;
    report.environment_reason =
        fmt::format("the device sustained only {:.0f} MHz of its {:.0f} MHz SM clock during warm-up (throttled or "
                    "power-capped machine)", report.sustained_clock_mhz, report.nominal_clock_mhz);
    return report;
  }
  double clock_reference = report.sustained_clock_mhz;

  // 5. Samples.
  auto loop_start = Clock::now();
  double measured = 0;
  std::vector<double> clocks, noise_history;
  int taken = 0;
  while (true) {
    // Each sample's inputs are drawn when the sample starts, and whether it is verified is drawn
    // after it ends: neither exists earlier, so a module cannot do many samples' work in one call
    // or skip the work of the samples that go unchecked.
    std::optional<std::uint64_t> draw;
    if (settings.fresh) draw = unpredictable_draw();
    prepare(draw);
    auto threads_before = live_threads();
    TimedSample s = backend.timed_call(launch, settings.flush_l2, report.stream_held);
    ++taken;
    std::string damage = call.guard_damage();
    if (!damage.empty()) return fail(fmt::format("while timed (sample {}), {}", taken, damage));
    if (std::string left = threads_left_running(threads_before); !left.empty())
      return fail(fmt::format("sample {} (timed): {}", taken, left));
    bool keep = true;
    if (escaped_events(s, report.escape_slack_s)) {
      ++report.escaped_stream;
      keep = false;
    } else if (s.clock.valid && clock_reference > 0 && s.clock.mhz < settings.min_clock_fraction * clock_reference) {
      ++report.dropped_low_clock;
      keep = false;
    }
    if (keep) {
      report.samples.push_back(s.seconds);
      measured += s.seconds;
      if (s.clock.valid) clocks.push_back(s.clock.mhz);
      bool check = !settings.fresh || taken <= settings.verify_first ||
                   static_cast<double>(unpredictable_draw() >> 11) * 0x1.0p-53 < settings.verify_fraction;
      if (check) {
        std::string d = draw ? verify.against_untimed_redraw(*draw) : verify.against_expected("timed");
        if (!d.empty() && !draw) d = deferred_write_or(verify, std::move(d));
        ++report.verified_samples;
        if (!d.empty()) return fail(fmt::format("sample {} (timed): {}", taken, d));
      }
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
    if (static_cast<std::size_t>(taken) >= settings.max_samples) {
      report.stop_reason = fmt::format("{} samples", settings.max_samples);
      break;
    }
  }
  report.elapsed_s = seconds_since(loop_start);
  report.noise = relative_noise(report.samples);
  report.clock_mhz = median_of(clocks);

  if (report.escaped_stream > std::max(1.0, settings.max_escaped_fraction * taken))
    return fail(fmt::format(
        "work escaped the timing events in {} of {} samples: the host saw the call take longer than the events "
        "measured by more than {:.0f} µs (work on another stream, or done inside the launch call)",
        report.escaped_stream, taken, report.escape_slack_s * 1e6));
  if (report.samples.empty() && report.dropped_low_clock > 0) {
    report.grader_environment = true;
    report.environment_reason = fmt::format(
        "every one of {} samples ran under {:.0f}% of the {:.0f} MHz SM clock sustained during warm-up (the device "
        "throttled)", taken, settings.min_clock_fraction * 100, clock_reference);
    return report;
  }

  // 6. Re-check: a kernel that worked only once, drifts, or ignores its inputs shows up here.
  std::vector<std::string> problems;
  bool has_inputs = false;
  for (const ArgSpec& s : call.specs()) has_inputs = has_inputs || (s.kind == ArgSpec::Kind::input && s.count > 0);
  if (settings.fresh && has_inputs) {
    call.randomize_inputs(unpredictable_draw());
    call.poison_outputs();
    backend.run_call(launch);
    if (call.download_outputs() == first.outputs)
      problems.push_back("outputs did not change when the inputs were redrawn (cached or input-independent results)");
  }
  prepare(std::nullopt);
  backend.run_call(launch);
  std::string damage = call.guard_damage();
  if (!damage.empty()) problems.push_back("after timing, " + damage);
  std::size_t k = 0;
  for (const ArgSpec* s : output_specs(call)) {
    std::string d = describe_difference(backend, call.output_buffer(k), verify.expected[k].get(), *s, verify.rule(*s), k,
                                        "now", "first call's", "first");
    if (!d.empty()) problems.push_back("after timing, " + d);
    ++k;
  }
  report.recheck_ok = problems.empty();
  if (problems.empty()) {
    report.recheck = fmt::format("outputs reproduced after timing{}; {} timed samples verified",
                                 settings.fresh && has_inputs ? "; they change with fresh inputs" : "",
                                 report.verified_samples);
  } else {
    for (const std::string& p : problems) report.recheck += (report.recheck.empty() ? "" : "; ") + p;
  }
  return report;
}

}  // namespace rubric::cuda::worker
