// Costs of the CUDA backend's machinery, each against a baseline measured in the same run:
//   module build: nvcc cold compile vs a cache hit
//   worker: a call round trip (upload, poison, call, download) vs a bare protocol round trip
//   comparison: fused compare throughput vs a device-to-device copy (on the CPU stand-in here;
//               on the GPU too when a device is usable)
//   usage: cuda_bench [MiB per compared tensor, default 256]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "operators/cuda/gpu_session.hpp"

using namespace rubric::cuda;
using rubric::tensor::DType;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// The comparison's element arithmetic with and without ULP distances (what `ulp_stats` adds), f32
// and f16 pairs, on the stand-in: the per-element work the device kernel does too.
void bench_compare_ulp(GpuSession& s, std::size_t mib) {
  std::size_t n = mib * (1u << 20) / 4;
  std::vector<float> a(n), b(n);
  std::vector<std::uint16_t> ha(n), hb(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 4093) * 1e-3f;
    b[i] = a[i] + (i % 101 == 0 ? 1e-2f : 0.f);
    ha[i] = static_cast<std::uint16_t>(0x3C00 + i % 1021);  // halves in [1, 2)
    hb[i] = static_cast<std::uint16_t>(ha[i] + (i % 97 == 0));
  }
  auto rate = [&](DType t, const void* x, const void* y, bool ulp) {
    TensorArg ta{t, {static_cast<std::int64_t>(n)}, x, {}, 0}, tb{t, {static_cast<std::int64_t>(n)}, y, {}, 0};
    std::vector<double> rates;
    for (int k = 0; k < 3; ++k) {
      CompareOutcome r = s.compare(ta, tb, {1e-3, 1e-5, 0}, true, ulp);
      if (!r.ok) return 0.0;
      rates.push_back(static_cast<double>(r.stats.count) / r.kernel_seconds);
    }
    return median(rates);
  };
  double f32_plain = rate(DType::f32, a.data(), b.data(), false), f32_ulp = rate(DType::f32, a.data(), b.data(), true);
  double f16_plain = rate(DType::f16, ha.data(), hb.data(), false), f16_ulp = rate(DType::f16, ha.data(), hb.data(), true);
  fmt::print("compare stand-in, {} Mi elements: f32 {:.0f} M elements/s, with ULP distances {:.0f} (ratio {:.2f}); "
             "f16 {:.0f}, with ULP distances {:.0f} (ratio {:.2f})\n",
             n >> 20, f32_plain / 1e6, f32_ulp / 1e6, f32_plain / f32_ulp, f16_plain / 1e6, f16_ulp / 1e6,
             f16_plain / f16_ulp);
}

void bench_compare(GpuSession& s, std::size_t mib, bool on_cpu) {
  std::size_t n = mib * (1u << 20) / 4;
  std::vector<float> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 4093) * 1e-3f;
    b[i] = a[i] + (i % 101 == 0 ? 1e-2f : 0.f);
  }
  TensorArg ta{DType::f32, {static_cast<std::int64_t>(n)}, a.data(), {}, 0};
  TensorArg tb{DType::f32, {static_cast<std::int64_t>(n)}, b.data(), {}, 0};
  std::vector<double> rates;
  for (int k = 0; k < 3; ++k) {
    CompareOutcome r = s.compare(ta, tb, {1.3e-6, 1e-5, 0}, on_cpu);
    if (!r.ok) {
      fmt::print("compare ({}): failed: {}\n", on_cpu ? "cpu" : "cuda", r.failure);
      return;
    }
    rates.push_back(static_cast<double>(r.bytes) / r.kernel_seconds);
  }
  double copy = s.copy_bandwidth(n * 4, on_cpu);
  double rate = median(rates);
  fmt::print("compare {} ({} MiB x 2 f32): {:.2f} GB/s read; copy {:.2f} GB/s; ratio {:.2f}\n", on_cpu ? "cpu stand-in" : "cuda",
             mib, rate / 1e9, copy / 1e9, rate / copy);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t mib = argc > 1 ? static_cast<std::size_t>(std::atol(argv[1])) : 256;
  std::string cache = (std::filesystem::temp_directory_path() / fmt::format("rubric-cuda-bench-{}", ::getpid())).string();
  SessionOptions o;
  o.compiler.cache_dir = cache;
  GpuSession s(o);
  std::string src = std::string(RUBRIC_BENCH_CUDA_DIR) + "/../../tests/cuda/data/";

  if (compiler_available(ModuleKind::cuda, o.compiler)) {
    auto t0 = Clock::now();
    CompileOutcome cold = s.cuda_fn(src + "scale_good.cu", "scale", "void(const float*, float*, float, int, cudaStream_t)");
    double cold_s = since(t0);
    t0 = Clock::now();
    CompileOutcome hit = s.cuda_fn(src + "scale_good.cu", "scale", "void(const float*, float*, float, int, cudaStream_t)");
    double hit_s = since(t0);
    fmt::print("cuda_fn nvcc: cold {:.2f} s, cached {:.2f} ms (ok: {} {}); ratio {:.0f}x\n", cold_s, hit_s * 1e3,
               cold.ok, hit.module.from_cache ? "hit" : "miss", cold_s / hit_s);
  } else {
    fmt::print("cuda_fn nvcc: skipped (nvcc not found)\n");
  }

  auto t0 = Clock::now();
  CompileOutcome add = s.cuda_fn(src + "add_good.cpp", "add", "void(const float*, const float*, float*, int, cudaStream_t)");
  fmt::print("cuda_fn host compiler (stand-in): cold {:.2f} s\n", since(t0));
  if (!add.ok) return 1;

  WorkerClient& w = s.worker(ModuleKind::cpu_standin);
  t0 = Clock::now();
  w.request(Message().set("op", "ping"), 10);
  fmt::print("worker start + first reply: {:.2f} ms\n", since(t0) * 1e3);
  std::vector<double> ping, call;
  for (int k = 0; k < 200; ++k) {
    t0 = Clock::now();
    w.request(Message().set("op", "ping"), 10);
    ping.push_back(since(t0));
  }
  std::vector<float> x(1024, 1.f);
  std::vector<CallArg> args{TensorArg{DType::f32, {1024}, x.data(), {}, 0}, TensorArg{DType::f32, {1024}, x.data(), {}, 0},
                            OutputArg{DType::f32, {1024}}, std::int64_t{1024}};
  for (int k = 0; k < 200; ++k) {
    t0 = Clock::now();
    CallOutcome r = s.call(add.module, args);
    call.push_back(since(t0));
    if (!r.ok) return 1;
  }
  fmt::print("call round trip (4 KiB tensors, stand-in): {:.1f} us; bare protocol round trip {:.1f} us; ratio {:.1f}\n",
             median(call) * 1e6, median(ping) * 1e6, median(call) / median(ping));

  bench_compare(s, mib, true);
  bench_compare_ulp(s, mib / 4 ? mib / 4 : 1);
  const DeviceInfo& d = s.device_info();
  if (d.available) bench_compare(s, mib, false);
  else fmt::print("compare cuda: skipped ({})\n", d.reason);
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  return 0;
}
