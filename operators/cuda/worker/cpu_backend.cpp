// The CPU stand-in: "device" memory is host memory and the stream is null, so modules built from
// .cpp sources by the host compiler exercise the same protocol as CUDA modules.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

#include <fmt/format.h>

#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

namespace {

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }

  void* allocate(std::size_t bytes) override {
    void* p = std::malloc(bytes);
    if (!p) throw RequestFailure(fmt::format("out of host memory allocating {} bytes", bytes));
    return p;
  }
  void release(void* p) noexcept override { std::free(p); }
  void upload(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void download(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }

  void fill_pattern(void* dst, std::size_t count, std::size_t element_bytes, std::uint64_t pattern) override {
    auto* out = static_cast<unsigned char*>(dst);
    for (std::size_t i = 0; i < count; ++i) std::memcpy(out + i * element_bytes, &pattern, element_bytes);
  }
  void fill_random(void* dst, tensor::DType t, std::size_t count, std::uint64_t seed) override {
    auto* out = static_cast<unsigned char*>(dst);
    for (std::size_t i = 0; i < count; ++i) math::store_random(out, t, i, seed);
  }

  void* stream_handle() override { return nullptr; }
  void run_call(const std::function<void()>& launch) override { launch(); }

  TimedSample timed_call(const std::function<void()>& launch, bool) override {
    auto t0 = std::chrono::steady_clock::now();
    launch();
    auto t1 = std::chrono::steady_clock::now();
    return {std::chrono::duration<double>(t1 - t0).count(), false};
  }
  std::size_t l2_flush_bytes() const override { return 0; }
  ClockReading read_sm_clock() override { return {}; }
  double nominal_sm_clock_mhz() const override { return 0; }

  numerics::CompareStats compare(const void* a, tensor::DType ta, const void* b, tensor::DType tb, std::size_t count,
                                 const math::Rule& rule, double& seconds) override {
    auto t0 = std::chrono::steady_clock::now();
    math::Partial p;
    for (std::size_t i = 0; i < count; ++i)
      math::accumulate(p, static_cast<const unsigned char*>(a), ta, static_cast<const unsigned char*>(b), tb, i, rule);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return math::to_stats(p);
  }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace rubric::cuda::worker
