#include <doctest/doctest.h>

#include <unistd.h>

#include "operators/cuda/gpu_session.hpp"
#include "operators/cuda/plausibility.hpp"
#include "temp_dir.hpp"

using namespace rubric::cuda;

TEST_CASE("the device query answers from the worker, and says why when no device is usable") {
  TempDir dir;
  SessionOptions o;
  o.compiler.cache_dir = dir / "cache";
  GpuSession session(o);
  const DeviceInfo& d = session.device_info();
  if (d.available) {
    MESSAGE("device: " << d.name << " cc " << d.cc);
    CHECK(d.sm_count > 0);
    CHECK(d.memory_bytes > 0);
    CHECK(d.l2_bytes > 0);
    CHECK(d.peak_bandwidth > 1e11);
    CHECK(d.clock_mhz > 0);
    CHECK_FALSE(d.driver.empty());
  } else {
    MESSAGE("no device: " << d.reason);
    CHECK_FALSE(d.reason.empty());
    CHECK(d.name.empty());
    CHECK(d.peak_bandwidth == 0);
    bool driver_present = ::access("/dev/nvidiactl", F_OK) == 0;
    if (!driver_present && RUBRIC_CUDA_BUILT)
      CHECK(d.reason.find("libcuda.so.1") != std::string::npos);
  }
}

TEST_CASE("a missing worker executable is reported as the reason, not a crash") {
  TempDir dir;
  SessionOptions o;
  o.compiler.cache_dir = dir / "cache";
  o.worker_executable = dir / "no-such-worker";
  GpuSession session(o);
  const DeviceInfo& d = session.device_info();
  CHECK_FALSE(d.available);
  CHECK(d.reason.find("no-such-worker") != std::string::npos);
}

TEST_CASE("plausibility: bandwidth and FLOP/s against the peaks") {
  PlausibilityInput in;
  in.seconds = 1e-3;
  in.bytes = 3.0e9;  // 3 TB/s
  in.peak_bandwidth = 4.8e12;
  PlausibilityVerdict ok = check_plausibility(in);
  CHECK(ok.plausible);
  CHECK(ok.bandwidth_fraction == doctest::Approx(0.625));
  CHECK(ok.explanation == "3 TB/s moved is 62% of the 4.8 TB/s peak");
  in.bytes = 5.3e9;
  PlausibilityVerdict fast = check_plausibility(in);
  CHECK_FALSE(fast.plausible);
  CHECK(fast.explanation.find("faster than memory allows") != std::string::npos);

  PlausibilityInput f;
  f.seconds = 1e-3;
  f.flops = 0.5e12;
  f.peak_flops = *peak_flops("NVIDIA H200", Precision::bf16);
  CHECK(f.peak_flops == doctest::Approx(989.5e12));
  CHECK(check_plausibility(f).plausible);
  f.flops = 1.2e12 * 1000;
  CHECK_FALSE(check_plausibility(f).plausible);
  CHECK_FALSE(peak_flops("Some Future GPU", Precision::fp32).has_value());
  CHECK_FALSE(peak_flops("NVIDIA A100-SXM4-80GB", Precision::fp8).has_value());
  CHECK_THROWS_AS(check_plausibility(PlausibilityInput{}), rubric::OperatorError);
}
