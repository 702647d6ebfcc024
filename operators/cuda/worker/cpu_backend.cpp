// The CPU stand-in: "device" memory is host memory and the stream is null, so modules built from
// .cpp sources by the host compiler exercise the same protocol as CUDA modules.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <new>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

namespace {

template <typename WA, typename WB>
void compare_words(math::Partial& p, const WA* a, tensor::DType ta, const WB* b, tensor::DType tb, std::size_t begin,
                   std::size_t end, const math::Rule& rule) {
  for (std::size_t i = begin; i < end; ++i) math::accumulate_bits(p, a[i], ta, b[i], tb, i, rule);
}

template <typename WA>
void compare_b(math::Partial& p, const WA* a, tensor::DType ta, const void* b, tensor::DType tb, std::size_t begin,
               std::size_t end, const math::Rule& rule) {
  switch (math::dtype_width_bits(tb)) {
    case 8: compare_words(p, a, ta, static_cast<const std::uint8_t*>(b), tb, begin, end, rule); break;
    case 16: compare_words(p, a, ta, static_cast<const std::uint16_t*>(b), tb, begin, end, rule); break;
    case 32: compare_words(p, a, ta, static_cast<const std::uint32_t*>(b), tb, begin, end, rule); break;
    default: compare_words(p, a, ta, static_cast<const std::uint64_t*>(b), tb, begin, end, rule); break;
  }
}

// Typed loads per element width, as the device kernel does (no per-element memcpy).
void compare_range(math::Partial& p, const void* a, tensor::DType ta, const void* b, tensor::DType tb,
                   std::size_t begin, std::size_t end, const math::Rule& rule) {
  switch (math::dtype_width_bits(ta)) {
    case 8: compare_b(p, static_cast<const std::uint8_t*>(a), ta, b, tb, begin, end, rule); break;
    case 16: compare_b(p, static_cast<const std::uint16_t*>(a), ta, b, tb, begin, end, rule); break;
    case 32: compare_b(p, static_cast<const std::uint32_t*>(a), ta, b, tb, begin, end, rule); break;
    default: compare_b(p, static_cast<const std::uint64_t*>(a), ta, b, tb, begin, end, rule); break;
  }
}

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

  double copy_seconds(std::size_t bytes) override {
    std::vector<unsigned char> a(bytes, 1), b(bytes);
    double best = 1e30;
    for (int k = 0; k < 3; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      std::memcpy(b.data(), a.data(), bytes);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
  }

  numerics::CompareStats compare(const void* a, tensor::DType ta, const void* b, tensor::DType tb, std::size_t count,
                                 const math::Rule& rule, double& seconds) override {
    auto t0 = std::chrono::steady_clock::now();
    // Contiguous chunks per thread, combined in chunk order: the same partial-combine the device
    // kernel uses, so both paths differ only in the order of the floating-point sums.
    unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
    if (count < (1u << 20)) threads = 1;
    std::vector<math::Partial> parts(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::size_t begin = count * t / threads, end = count * (t + 1) / threads;
        compare_range(parts[t], a, ta, b, tb, begin, end, rule);
      });
    }
    for (std::thread& th : pool) th.join();
    math::Partial total;
    for (const math::Partial& p : parts) math::combine(total, p);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return math::to_stats(total);
  }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace rubric::cuda::worker
