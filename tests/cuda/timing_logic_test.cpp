// The timing loop's decisions with simulated device observations: a backend that keeps tensors in
// host memory (the CPU stand-in) but reports scripted events, host clocks and SM clocks, so work
// escaping the events, throttling, poisoning, restored inputs and verification of timed outputs
// are tested without a GPU. The launches are plain C++ functions acting on the tensors.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "operators/cuda/worker/backend.hpp"
#include "operators/cuda/worker/cuda_errors.hpp"
#include "operators/cuda/worker/prepared_call.hpp"
#include "operators/cuda/worker/timing_loop.hpp"
#include "temp_dir.hpp"

using namespace rubric::cuda;
using namespace rubric::cuda::worker;
using rubric::tensor::DType;

namespace {

// The stand-in's memory and arithmetic, with scripted observations of each timed call.
class ScriptedBackend final : public Backend {
 public:
  // Called for every timed call (k counts from 0, warm-up included) after the launch ran.
  std::function<TimedSample(int k, bool empty_launch)> script;
  double nominal_mhz = 0;
  int timed_calls = 0, fills = 0, copies = 0;
  bool in_timed_call = false;
  std::vector<int> fills_before_sample;  // poisonings since the previous timed call

  ScriptedBackend() : cpu_(make_cpu_backend()) {}
  std::string name() const override { return "scripted"; }
  void* allocate(std::size_t b) override { return cpu_->allocate(b); }
  void release(void* p) noexcept override { cpu_->release(p); }
  void* allocate_guarded(std::size_t b) override { return cpu_->allocate_guarded(b); }
  std::size_t check_guard(const void* p) override { return cpu_->check_guard(p); }
  void upload(void* d, const void* s, std::size_t b) override { cpu_->upload(d, s, b); }
  void download(void* d, const void* s, std::size_t b) override { cpu_->download(d, s, b); }
  void copy(void* d, const void* s, std::size_t b) override {
    ++copies;
    cpu_->copy(d, s, b);
  }
  void fill_pattern(void* d, std::size_t n, std::size_t w, std::uint64_t p) override {
    ++fills;
    ++fills_since_;
    cpu_->fill_pattern(d, n, w, p);
  }
  void fill_random(void* d, DType t, std::size_t n, std::uint64_t s) override { cpu_->fill_random(d, t, n, s); }
  void* stream_handle() override { return nullptr; }
  void run_call(const std::function<void()>& launch) override { launch(); }
  std::vector<bool> held;  // hold_stream of each timed call
  TimedSample timed_call(const std::function<void()>& launch, bool, bool hold_stream) override {
    held.push_back(hold_stream);
    fills_before_sample.push_back(fills_since_);
    fills_since_ = 0;
    bool empty = false;
    in_timed_call = true;
    launch();
    in_timed_call = false;
    // The loop's calibration launches do nothing: recognisable by not touching the counter.
    empty = launches_in_timed_ == launches_;
    launches_in_timed_ = launches_;
    int k = timed_calls++;
    TimedSample s = script ? script(k, empty) : TimedSample{1e-3, 0.9e-3, 0.11e-3, false, {}};
    return s;
  }
  void count_launch() { ++launches_; }
  std::size_t l2_flush_bytes() const override { return 0; }
  double nominal_sm_clock_mhz() const override { return nominal_mhz; }
  double copy_seconds(std::size_t b) override { return cpu_->copy_seconds(b); }
  rubric::numerics::CompareStats compare(const void* a, DType ta, const void* b, DType tb, std::size_t n,
                                         const math::Rule& r, double& s) override {
    return cpu_->compare(a, ta, b, tb, n, r, s);
  }

 private:
  std::unique_ptr<Backend> cpu_;
  int fills_since_ = 0;
  int launches_ = 0, launches_in_timed_ = 0;
};

struct Case {
  TempDir dir;
  ScriptedBackend backend;
  std::vector<float> x;
  std::unique_ptr<PreparedCall> call;

  // One f32 input of n elements (x[i] = i), one f32 output; or an i32 output.
  explicit Case(std::size_t n, DType out = DType::f32) : x(n) {
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
    std::string path = dir / "x.bin";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(x.data(), 4, n, f);
    std::fclose(f);
    ArgSpec in;
    in.kind = ArgSpec::Kind::input;
    in.dtype = DType::f32;
    in.count = n;
    in.file = path;
    ArgSpec o;
    o.kind = ArgSpec::Kind::output;
    o.dtype = out;
    o.count = n;
    o.file = dir / "out.bin";
    call = std::make_unique<PreparedCall>(backend, std::vector<ArgSpec>{in, o});
  }
  float* in() { return *static_cast<float**>(call->argv()[0]); }
  void* out() { return *static_cast<void**>(call->argv()[1]); }
  std::size_t n() const { return x.size(); }
};

TimingSettings quick() {
  TimingSettings s;
  s.warmup_s = 0;
  s.min_samples = 10;
  s.min_time_s = 0;
  s.max_time_s = 5;
  s.max_samples = 40;
  s.max_noise = 0;  // run to max_samples
  return s;
}

TimedSample sample(double events, double host_launch, double host_after, double mhz = 0) {
  TimedSample s;
  s.seconds = events;
  s.host_launch_s = host_launch;
  s.host_after_s = host_after;
  if (mhz > 0) s.clock = {true, mhz};
  return s;
}

}  // namespace

TEST_CASE("the escape rule: the host window against the events, with the calibrated slack") {
  CHECK_FALSE(escaped_events(sample(1e-3, 5e-6, 1.01e-3), 20e-6));   // launch + sync latency
  CHECK(escaped_events(sample(1e-6, 2e-3, 10e-6), 20e-6));          // work done inside the launch call
  CHECK(escaped_events(sample(1e-3, 5e-6, 1.5e-3), 20e-6));         // work still running after the stop event
  CHECK_FALSE(escaped_events(sample(10e-3, 5e-6, 10.05e-3), 20e-6)); // 1% for long samples
  TimedSample expired = sample(1e-3, 5e-6, 1e-3);
  expired.block_expired = true;
  CHECK(escaped_events(expired, 20e-6));
}

TEST_CASE("timing: every sample's work escaping the events FAILs; rare host jitter only drops samples") {
  Case c(64);
  auto f = [&] {
    c.backend.count_launch();
    auto* o = static_cast<float*>(c.out());
    for (std::size_t i = 0; i < c.n(); ++i) o[i] = c.in()[i] * 2;
  };
  // A private stream the candidate waits for inside its launch: 2 ms on the host, 5 µs of events.
  c.backend.script = [](int, bool empty) { return empty ? sample(2e-6, 3e-6, 4e-6) : sample(5e-6, 2e-3, 6e-6); };
  TimingReport r = run_timing(c.backend, *c.call, f, quick());
  CHECK_FALSE(r.recheck_ok);
  CHECK(r.samples.empty());
  CHECK(r.escaped_stream == 40);
  CHECK(r.recheck.find("work escaped the timing events in 40 of 40 samples") != std::string::npos);

  Case j(64);
  j.backend.script = [](int k, bool empty) {
    if (empty) return sample(2e-6, 3e-6, 4e-6);
    return k == 20 ? sample(1e-3, 5e-6, 3e-3) : sample(1e-3, 5e-6, 1.005e-3);  // one preempted sync
  };
  auto g = [&] {
    j.backend.count_launch();
    auto* o = static_cast<float*>(j.out());
    for (std::size_t i = 0; i < j.n(); ++i) o[i] = j.in()[i] * 2;
  };
  TimingReport ok = run_timing(j.backend, *j.call, g, quick());
  INFO(ok.recheck);
  CHECK(ok.recheck_ok);
  CHECK(ok.escaped_stream == 1);
  CHECK(ok.samples.size() == 39);
  CHECK(ok.escape_slack_s == doctest::Approx(20e-6));  // 3 × the 5 µs calibration overhead < the floor
}

TEST_CASE("timing: samples under 75% of the sustained clock are dropped; all dropped is the machine's fault") {
  auto launch_for = [](Case& c) {
    return [&c] {
      c.backend.count_launch();
      auto* o = static_cast<float*>(c.out());
      for (std::size_t i = 0; i < c.n(); ++i) o[i] = c.in()[i] + 1;
    };
  };
  TimingSettings s = quick();
  s.warmup_s = 1e-9;  // one warm-up call
  // Power-capped at 1400 of 1980 MHz (71% of the boost clock): every sample is kept, the
  // reference is the sustained clock, not the nominal one.
  Case capped(16);
  capped.backend.nominal_mhz = 1980;
  capped.backend.script = [](int, bool empty) {
    return empty ? sample(2e-6, 3e-6, 4e-6) : sample(1e-3, 5e-6, 1.005e-3, 1400);
  };
  auto f1 = launch_for(capped);
  TimingReport r1 = run_timing(capped.backend, *capped.call, f1, s);
  CHECK(r1.recheck_ok);
  CHECK(r1.dropped_low_clock == 0);
  CHECK(r1.sustained_clock_mhz == 1400);
  CHECK(r1.samples.size() == 40);

  // Throttled to 900 MHz after the warm-up: samples dropped, the rest kept.
  Case mixed(16);
  mixed.backend.nominal_mhz = 1980;
  mixed.backend.script = [](int k, bool empty) {
    if (empty) return sample(2e-6, 3e-6, 4e-6);
    return sample(1e-3, 5e-6, 1.005e-3, k > 5 && k % 2 ? 900 : 1400);  // k 0-4 calibrate, 5 warms up
  };
  auto f2 = launch_for(mixed);
  TimingReport r2 = run_timing(mixed.backend, *mixed.call, f2, s);
  CHECK(r2.recheck_ok);
  CHECK(r2.dropped_low_clock > 0);
  CHECK(r2.samples.size() + static_cast<std::size_t>(r2.dropped_low_clock) == 40);
  CHECK_FALSE(r2.grader_environment);

  // Every sample throttled: not the candidate's FAIL.
  Case all(16);
  all.backend.nominal_mhz = 1980;
  all.backend.script = [&all](int k, bool empty) {
    if (empty) return sample(2e-6, 3e-6, 4e-6);
    return sample(1e-3, 5e-6, 1.005e-3, k <= 5 ? 1400 : 700);  // calibration (0-4) and warm-up (5) at full clock
  };
  auto f3 = launch_for(all);
  TimingReport r3 = run_timing(all.backend, *all.call, f3, s);
  CHECK(r3.samples.empty());
  CHECK(r3.grader_environment);
  CHECK(r3.environment_reason.find("every one of 40 samples ran under 75% of the 1400 MHz SM clock") !=
        std::string::npos);

  // A device that cannot sustain half its clock at all: the machine, before any sample.
  Case slow(16);
  slow.backend.nominal_mhz = 1980;
  slow.backend.script = [](int, bool empty) { return empty ? sample(2e-6, 3e-6, 4e-6) : sample(1e-3, 5e-6, 1.005e-3, 600); };
  auto f4 = launch_for(slow);
  TimingReport r4 = run_timing(slow.backend, *slow.call, f4, s);
  CHECK(r4.grader_environment);
  CHECK(r4.environment_reason.find("sustained only 600 MHz of its 1980 MHz") != std::string::npos);
}

TEST_CASE("timing: outputs poisoned and inputs restored before every sample, outside the events") {
  Case c(32);
  auto f = [&] {
    c.backend.count_launch();
    auto* o = static_cast<float*>(c.out());
    for (std::size_t i = 0; i < c.n(); ++i) {
      o[i] = c.in()[i] * 2;
      c.in()[i] += 1;  // in place: without restoring, every later call would see other inputs
    }
  };
  TimingReport r = run_timing(c.backend, *c.call, f, quick());
  INFO(r.recheck);
  CHECK(r.recheck_ok);
  CHECK(r.verified_samples == 40);
  // Each sample (warm-up and measured, not the empty calibration launches) was preceded by a poisoning.
  REQUIRE(c.backend.fills_before_sample.size() == 5 + 1 + 40);
  CHECK(c.backend.fills_before_sample[0] >= 1);
  for (std::size_t k = 6; k < c.backend.fills_before_sample.size(); ++k) CHECK(c.backend.fills_before_sample[k] >= 1);
}

TEST_CASE("timing: a launch that synchronises inside outwaits the blocking kernel; the stream is then not held") {
  Case c(16);
  auto f = [&] {
    c.backend.count_launch();
    auto* o = static_cast<float*>(c.out());
    for (std::size_t i = 0; i < c.n(); ++i) o[i] = c.in()[i];
  };
  // The first (held) call: the launch's own device synchronisation waits out the block.
  c.backend.script = [](int k, bool empty) {
    if (k == 0) {
      TimedSample s = sample(1e-3, 0.5, 1e-5);
      s.block_expired = true;
      return s;
    }
    // Not held: the launch includes the device work it waits for.
    return empty ? sample(5e-6, 8e-6, 4e-6) : sample(1e-3, 1.01e-3, 4e-6);
  };
  TimingReport r = run_timing(c.backend, *c.call, f, quick());
  INFO(r.recheck);
  CHECK(r.recheck_ok);
  CHECK_FALSE(r.stream_held);
  CHECK(r.escaped_stream == 0);
  REQUIRE(c.backend.held.size() > 2);
  CHECK(c.backend.held[0]);
  CHECK_FALSE(c.backend.held[1]);
  CHECK_FALSE(c.backend.held.back());
}

TEST_CASE("timing: timed outputs are verified against the untimed result for the same inputs") {
  // Correct when called plainly, wrong while timed (it can tell: the timed path is hot).
  Case c(32);
  auto f = [&] {
    c.backend.count_launch();
    auto* o = static_cast<float*>(c.out());
    for (std::size_t i = 0; i < c.n(); ++i) o[i] = c.in()[i] * 2 + (c.backend.in_timed_call && i == 7 ? 1.f : 0.f);
  };
  TimingReport r = run_timing(c.backend, *c.call, f, quick());
  CHECK_FALSE(r.recheck_ok);
  CHECK(r.recheck == "sample 1 (timed): output 0 differs from the untimed call's: 1 of 32 elements (first at flat "
                     "index 7: 15 timed, 14 untimed)");

  // With fresh inputs, against an untimed call on the same draw.
  Case d(32);
  auto g = [&] {
    d.backend.count_launch();
    auto* o = static_cast<float*>(d.out());
    for (std::size_t i = 0; i < d.n(); ++i) o[i] = d.in()[i] * 2 + (d.backend.in_timed_call && i == 3 ? 1.f : 0.f);
  };
  TimingSettings s = quick();
  s.fresh = true;
  TimingReport rf = run_timing(d.backend, *d.call, g, s);
  CHECK_FALSE(rf.recheck_ok);
  CHECK(rf.recheck.find("sample 1 (timed): output 0 differs from the untimed call's: 1 of 32 elements (first at flat index 3") !=
        std::string::npos);
}

TEST_CASE("timing: the re-check tolerance follows the dtype, or the rubric's") {
  // Run-to-run differences of an atomics-style reduction: a few ULPs of f32 each call.
  Case c(32);
  int calls = 0;
  auto f = [&] {
    c.backend.count_launch();
    auto* o = static_cast<float*>(c.out());
    ++calls;
    for (std::size_t i = 0; i < c.n(); ++i) o[i] = (c.in()[i] + 1000.f) * (1.f + static_cast<float>(calls % 3) * 1e-7f);
  };
  TimingReport r = run_timing(c.backend, *c.call, f, quick());
  INFO(r.recheck);
  CHECK(r.recheck_ok);
  Case d(32);
  auto g = [&] {
    d.backend.count_launch();
    auto* o = static_cast<float*>(d.out());
    ++calls;
    for (std::size_t i = 0; i < d.n(); ++i) o[i] = (d.in()[i] + 1000.f) * (1.f + static_cast<float>(calls % 3) * 1e-7f);
  };
  TimingSettings exact = quick();
  exact.recheck_rule = math::Rule{0, 0, 0};
  TimingReport r2 = run_timing(d.backend, *d.call, g, exact);
  CHECK_FALSE(r2.recheck_ok);
  CHECK(recheck_rule_for(DType::f32).rtol == doctest::Approx(1e-4));
  CHECK(recheck_rule_for(DType::i32).rtol == 0);
}

TEST_CASE("checked call: integer outputs with two poison patterns; a NaN the kernel computes is the same twice") {
  Case c(10, DType::i32);
  auto f = [&] {
    auto* o = static_cast<std::int32_t*>(c.out());
    for (std::size_t i = 0; i < c.n(); i += 3) o[i] = -1;  // -1 is a legitimate value; the others are unwritten
  };
  CheckedCall r = run_checked_call(c.backend, *c.call, f);
  CHECK(r.problem == "output 0 (i32): 6 of 10 elements were never written (they kept the poison; first at flat index 1)");

  Case n(8);
  auto g = [&] {
    n.backend.count_launch();
    auto* o = static_cast<float*>(n.out());
    for (std::size_t i = 0; i < n.n(); ++i) o[i] = std::log(n.in()[i] - 3.f);  // NaN below 3
  };
  TimingReport t = run_timing(n.backend, *n.call, g, quick());
  INFO(t.recheck);
  CHECK(t.recheck_ok);
}

TEST_CASE("CUDA error classes: sticky faults end the worker, the machine's faults are blamed on it") {
  CHECK(classify_cuda_error(209) == ErrorClass::environment);  // no kernel image for this device
  CHECK(classify_cuda_error(222) == ErrorClass::environment);  // PTX newer than the driver
  CHECK(classify_cuda_error(35) == ErrorClass::environment);   // driver too old
  CHECK(classify_cuda_error(100) == ErrorClass::environment);  // no device
  CHECK(classify_cuda_error(46) == ErrorClass::environment);   // busy (exclusive process)
  CHECK(classify_cuda_error(810) == ErrorClass::environment);  // MPS client terminated
  CHECK(classify_cuda_error(911) == ErrorClass::environment);  // external device
  CHECK(classify_cuda_error(214) == ErrorClass::environment);  // ECC
  CHECK(classify_cuda_error(700) == ErrorClass::sticky);       // illegal address
  CHECK(classify_cuda_error(226) == ErrorClass::sticky);       // contained
  CHECK(classify_cuda_error(999) == ErrorClass::sticky);       // unknown
  CHECK(classify_cuda_error(719) == ErrorClass::sticky);       // launch failure
  CHECK(classify_cuda_error(9) == ErrorClass::request);        // invalid configuration
  CHECK(classify_cuda_error(2) == ErrorClass::request);        // out of memory
  CHECK(classify_cuda_error(1) == ErrorClass::request);        // invalid value
}
