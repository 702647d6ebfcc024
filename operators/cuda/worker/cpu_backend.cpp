// The CPU stand-in: "device" memory is host memory and the stream is null, so modules built from
// .cpp sources by the host compiler exercise the same protocol as CUDA modules. Tensors sit
// against PROT_NONE guard pages with canaries in the slack, as the CUDA backend places them
// against unmapped device pages.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <map>
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

  ~CpuBackend() override {
    for (auto& [p, g] : guarded_) ::munmap(g.base, g.total);
  }

  void* allocate(std::size_t bytes) override {
    void* p = std::malloc(bytes);
    if (!p) throw RequestFailure(fmt::format("out of host memory allocating {} bytes", bytes));
    return p;
  }
  void release(void* p) noexcept override {
    auto it = guarded_.find(p);
    if (it == guarded_.end()) {
      std::free(p);
      return;
    }
    ::munmap(it->second.base, it->second.total);
    guarded_.erase(it);
  }

  // [guard page][slack with canaries | tensor | < kAlign bytes of canaries][guard page]
  void* allocate_guarded(std::size_t bytes) override {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::size_t usable = (bytes + kAlign + page - 1) / page * page;
    std::size_t total = usable + 2 * page;
    void* base = ::mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) throw RequestFailure(fmt::format("out of host memory allocating {} bytes", bytes));
    auto* first = static_cast<unsigned char*>(base) + page;
    if (::mprotect(first, usable, PROT_READ | PROT_WRITE) != 0) {
      ::munmap(base, total);
      throw RequestFailure(fmt::format("out of host memory allocating {} bytes", bytes));
    }
    auto end = reinterpret_cast<std::uintptr_t>(first + usable);
    auto* p = reinterpret_cast<unsigned char*>((end - bytes) / kAlign * kAlign);
    std::memset(first, kCanary, static_cast<std::size_t>(p - first));
    std::memset(p + bytes, kCanary, static_cast<std::size_t>(first + usable - (p + bytes)));
    guarded_[p] = {base, total, first, usable, bytes};
    return p;
  }
  std::size_t check_guard(const void* p) override {
    auto it = guarded_.find(const_cast<void*>(p));
    if (it == guarded_.end()) return 0;
    const Guarded& g = it->second;
    const auto* t = static_cast<const unsigned char*>(p);
    std::size_t damaged = 0;
    for (const unsigned char* c = g.first; c < t; ++c) damaged += *c != kCanary;
    for (const unsigned char* c = t + g.bytes; c < g.first + g.usable; ++c) damaged += *c != kCanary;
    return damaged;
  }

  void upload(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void download(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy(void* dst, const void* src, std::size_t bytes) override { std::memmove(dst, src, bytes); }

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

  // The launch runs to completion on this thread: the "events" are the host clock around it.
  TimedSample timed_call(const std::function<void()>& launch, bool, bool) override {
    auto t0 = std::chrono::steady_clock::now();
    launch();
    auto t1 = std::chrono::steady_clock::now();
    TimedSample s;
    s.seconds = std::chrono::duration<double>(t1 - t0).count();
    s.host_launch_s = s.seconds;
    return s;
  }
  std::size_t l2_flush_bytes() const override { return 0; }
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

 private:
  static constexpr std::size_t kAlign = 256;  // what cudaMalloc guarantees
  static constexpr unsigned char kCanary = 0xA5;
  struct Guarded {
    void* base;
    std::size_t total;
    unsigned char* first;  // the readable, writable pages
    std::size_t usable;
    std::size_t bytes;
  };
  std::map<void*, Guarded> guarded_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace rubric::cuda::worker
