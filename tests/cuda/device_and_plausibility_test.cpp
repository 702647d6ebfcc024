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

TEST_CASE("plausibility: device names match by their exact model word, not a substring") {
  auto fp32 = [](const char* name) { return peak_flops(name, Precision::fp32).value_or(0) / 1e12; };
  CHECK(fp32("NVIDIA L4") == doctest::Approx(30.3));
  CHECK(fp32("NVIDIA L40") == doctest::Approx(90.5));   // not the L4's 30.3
  CHECK(fp32("NVIDIA L40S") == doctest::Approx(91.6));
  CHECK(fp32("NVIDIA A10") == doctest::Approx(31.2));
  CHECK(fp32("NVIDIA A100-SXM4-80GB") == doctest::Approx(19.5));  // not the A10
  CHECK(fp32("NVIDIA A100 80GB PCIe") == doctest::Approx(19.5));
  CHECK(fp32("NVIDIA H100 80GB HBM3") == doctest::Approx(67));
  CHECK(fp32("NVIDIA H100 PCIe") == doctest::Approx(51));
  CHECK(fp32("NVIDIA H100 NVL") == doctest::Approx(60));
  CHECK(fp32("NVIDIA GH200 480GB") == doctest::Approx(67));
  CHECK(fp32("NVIDIA H200") == doctest::Approx(67));
  CHECK(fp32("NVIDIA GeForce RTX 4090") == doctest::Approx(82.6));
  CHECK(fp32("Tesla T4") == doctest::Approx(8.1));
  CHECK(fp32("Tesla V100-SXM2-32GB") == doctest::Approx(15.7));
  CHECK_FALSE(peak_flops("NVIDIA A10G", Precision::fp32).has_value());    // another part
  CHECK_FALSE(peak_flops("NVIDIA H20", Precision::fp32).has_value());     // not an H200
  CHECK_FALSE(peak_flops("NVIDIA RTX 4000 Ada", Precision::fp32).has_value());
  CHECK_FALSE(peak_flops("", Precision::fp32).has_value());
}
