// The CUDA backend: owns the worker's context on device 0, a blocking non-default stream (work a
// candidate puts on the legacy default stream is ordered with ours), tensors against guard pages,
// the L2 flush buffer, the stream-blocking flag and SM timestamp slots (host-mapped), and the
// timing events.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "operators/cuda/worker/backend.hpp"
#include "operators/cuda/worker/cuda_errors.hpp"
#include "operators/cuda/worker/device_kernels.hpp"
#include "operators/cuda/worker/guarded_memory.hpp"

namespace rubric::cuda::worker {

namespace {

using Clock = std::chrono::steady_clock;

std::string describe(cudaError_t e) { return fmt::format("{}: {}", cudaGetErrorName(e), cudaGetErrorString(e)); }

[[noreturn]] void raise(cudaError_t e, const char* what) {
  switch (classify_cuda_error(static_cast<int>(e))) {
    case ErrorClass::environment: throw EnvironmentFault(fmt::format("{} ({})", describe(e), what));
    case ErrorClass::sticky: throw DeviceFault(describe(e));
    case ErrorClass::request: break;
  }
  throw RequestFailure(fmt::format("{} ({})", describe(e), what));
}

// Any error: clear it, then re-check the context with a device synchronisation. A launch error
// can be reported ahead of a sticky fault of the kernels before it; if the context does not come
// back clean, the worker must end (DeviceFault) rather than hand the dead context to the next
// request, which may be the reference's.
void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();
  if (classify_cuda_error(static_cast<int>(e)) != ErrorClass::request) raise(e, what);
  cudaError_t again = cudaDeviceSynchronize();
  if (again == cudaSuccess) again = cudaGetLastError();
  if (again != cudaSuccess) {
    if (classify_cuda_error(static_cast<int>(again)) == ErrorClass::environment) raise(again, what);
    throw DeviceFault(describe(again));
  }
  raise(e, what);
}

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

class CudaBackend final : public Backend {
 public:
  CudaBackend() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) throw EnvironmentFault(fmt::format("no usable CUDA device ({})", describe(e)));
    if (count == 0) throw EnvironmentFault("no CUDA device");
    // Failures from here on are the machine's too: the context or our own kernels cannot start.
    env(cudaSetDevice(0), "selecting device 0");
    env(cudaFree(nullptr), "creating the context");
    int l2 = 0, khz = 0, sms = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    l2_bytes_ = static_cast<std::size_t>(l2);
    nominal_mhz_ = khz / 1000.0;
    sm_count_ = sms > 0 ? sms : 1;
    guards_ = std::make_unique<GuardedMemory>(0);
    env(cudaStreamCreate(&stream_), "creating the stream");
    env(cudaEventCreate(&start_), "creating events");
    env(cudaEventCreate(&stop_), "creating events");
    // Flush twice the L2: one pass can leave lines of the candidate's buffers resident.
    if (l2_bytes_) env(cudaMalloc(&flush_, 2 * l2_bytes_), "allocating the L2 flush buffer");
    env(cudaMalloc(reinterpret_cast<void**>(&partials_), sizeof(math::Partial) * compare_blocks()),
        "allocating comparison partials");
    env(cudaMalloc(reinterpret_cast<void**>(&damaged_), sizeof(unsigned long long)), "allocating the canary counter");
    env(cudaHostAlloc(reinterpret_cast<void**>(&host_flags_), 2 * sizeof(int), cudaHostAllocMapped),
        "allocating the blocking flag");
    env(cudaHostAlloc(reinterpret_cast<void**>(&stamps_), 2 * stamp_slots() * sizeof(kernels::SmStamp),
                      cudaHostAllocMapped),
        "allocating SM timestamp slots");
    std::fill(stamps_, stamps_ + 2 * stamp_slots(), kernels::SmStamp{0, 0, 0});
    // Our own kernels must run here: a missing kernel image is the build's fault, not a candidate's.
    env(kernels::fill_pattern(damaged_, 1, 8, 0, stream_), "running the worker's kernels on this device");
    env(cudaStreamSynchronize(stream_), "running the worker's kernels on this device");
  }
  ~CudaBackend() override {
    // Best effort: after a sticky error these fail, and the process is about to exit anyway.
    guards_.reset();
    cudaFree(flush_);
    cudaFree(partials_);
    cudaFree(damaged_);
    cudaFreeHost(host_flags_);
    cudaFreeHost(stamps_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
  }

  std::string name() const override { return "cuda"; }

  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "allocating device memory");
    return p;
  }
  void release(void* p) noexcept override {
    if (!guards_->release(p)) cudaFree(p);
  }
  void* allocate_guarded(std::size_t bytes) override {
    void* p = guards_->allocate(bytes);
    for (const GuardedMemory::Range& r : guards_->slack(p))
      if (r.bytes) check(kernels::fill_pattern(r.p, r.bytes, 1, kCanary, stream_), "writing canaries");
    check(cudaStreamSynchronize(stream_), "writing canaries");
    return p;
  }
  std::size_t check_guard(const void* p) override {
    check(cudaMemsetAsync(damaged_, 0, sizeof(unsigned long long), stream_), "checking canaries");
    for (const GuardedMemory::Range& r : guards_->slack(p))
      check(kernels::count_not_canary(r.p, r.bytes, kCanary, damaged_, stream_), "checking canaries");
    unsigned long long n = 0;
    check(cudaMemcpyAsync(&n, damaged_, sizeof n, cudaMemcpyDeviceToHost, stream_), "checking canaries");
    check(cudaStreamSynchronize(stream_), "checking canaries");
    return static_cast<std::size_t>(n);
  }

  void upload(void* dst, const void* src, std::size_t bytes) override {
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "uploading");
  }
  void download(void* dst, const void* src, std::size_t bytes) override {
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "downloading");
  }
  void copy(void* dst, const void* src, std::size_t bytes) override {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_), "copying on the device");
    check(cudaStreamSynchronize(stream_), "copying on the device");
  }
  void fill_pattern(void* dst, std::size_t count, std::size_t element_bytes, std::uint64_t pattern) override {
    if (count == 0) return;
    check(kernels::fill_pattern(dst, count, element_bytes, pattern, stream_), "poisoning outputs");
    check(cudaStreamSynchronize(stream_), "poisoning outputs");
  }
  void fill_random(void* dst, tensor::DType t, std::size_t count, std::uint64_t seed) override {
    if (count == 0) return;
    check(kernels::fill_random(dst, t, count, seed, stream_), "drawing fresh inputs");
    check(cudaStreamSynchronize(stream_), "drawing fresh inputs");
  }

  void* stream_handle() override { return stream_; }

  void run_call(const std::function<void()>& launch) override {
    check(cudaDeviceSynchronize(), "before the call");
    reset_device_state();
    launch();
    cudaError_t launch_error = cudaGetLastError();
    cudaError_t sync_error = cudaDeviceSynchronize();
    check(launch_error != cudaSuccess ? launch_error : sync_error, "running the candidate");
    check(cudaGetLastError(), "running the candidate");
  }

  TimedSample timed_call(const std::function<void()>& launch, bool flush_l2, bool hold_stream) override {
    TimedSample s;
    reset_device_state();
    if (flush_l2 && flush_) check(cudaMemsetAsync(flush_, 0, 2 * l2_bytes_, stream_), "flushing L2");
    // Nothing of ours (or the candidate's last call) may still run when the timer starts.
    check(cudaDeviceSynchronize(), "before the sample");
    volatile int* release = host_flags_;
    release[0] = 0;
    host_flags_[1] = 0;
    ++seq_;
    if (hold_stream)
      check(kernels::block_stream(release, host_flags_ + 1, kBlockTimeoutNs, stream_), "blocking the stream");
    check(kernels::stamp_sms(stamps_, stamp_slots(), seq_, 2 * sm_count_, stream_), "SM timestamps");
    check(cudaEventRecord(start_, stream_), "recording the start event");
    auto t0 = Clock::now();
    launch();
    auto t1 = Clock::now();
    cudaError_t launch_error = cudaGetLastError();
    check(cudaEventRecord(stop_, stream_), "recording the stop event");
    check(kernels::stamp_sms(stamps_ + stamp_slots(), stamp_slots(), seq_, 2 * sm_count_, stream_), "SM timestamps");
    release[0] = 1;
    auto t2 = Clock::now();
    cudaError_t sync_error = cudaDeviceSynchronize();
    auto t3 = Clock::now();
    check(launch_error != cudaSuccess ? launch_error : sync_error, "running the candidate");
    check(cudaGetLastError(), "running the candidate");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "reading events");
    s.seconds = ms * 1e-3;
    s.host_launch_s = seconds_between(t0, t1);
    s.host_after_s = seconds_between(t2, t3);
    s.block_expired = static_cast<volatile int*>(host_flags_)[1] != 0;  // written by the device
    s.clock = clock_over_sample();
    return s;
  }

  std::size_t l2_flush_bytes() const override { return flush_ ? 2 * l2_bytes_ : 0; }
  std::uint64_t device_memory_used() override {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 0;
    return total - free;
  }
  std::uint64_t device_memory_total() override {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 0;
    return total;
  }
  double nominal_sm_clock_mhz() const override { return nominal_mhz_; }

  double copy_seconds(std::size_t bytes) override {
    void* src = allocate(bytes);
    void* dst = nullptr;
    try {
      dst = allocate(bytes);
    } catch (...) {
      release(src);
      throw;
    }
    float best = 1e30f;
    for (int k = 0; k < 4; ++k) {
      check(cudaEventRecord(start_, stream_), "recording the start event");
      check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_), "copying");
      check(cudaEventRecord(stop_, stream_), "recording the stop event");
      check(cudaEventSynchronize(stop_), "copying");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start_, stop_), "reading events");
      if (k > 0) best = std::min(best, ms);  // the first copy warms up
    }
    release(src);
    release(dst);
    return best * 1e-3;
  }

  numerics::CompareStats compare(const void* a, tensor::DType ta, const void* b, tensor::DType tb, std::size_t count,
                                 const math::Rule& rule, double& seconds) override {
    int blocks = 0;
    check(cudaEventRecord(start_, stream_), "recording the start event");
    check(kernels::compare(a, ta, b, tb, count, rule, partials_, sm_count_, &blocks, stream_), "comparing");
    check(cudaEventRecord(stop_, stream_), "recording the stop event");
    check(cudaEventSynchronize(stop_), "comparing");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "reading events");
    seconds = ms * 1e-3;
    std::vector<math::Partial> host(static_cast<std::size_t>(blocks));
    check(cudaMemcpy(host.data(), partials_, sizeof(math::Partial) * host.size(), cudaMemcpyDeviceToHost),
          "reading comparison partials");
    math::Partial total;
    for (const math::Partial& p : host) math::combine(total, p);  // block order: deterministic
    return math::to_stats(total);
  }

 private:
  static constexpr unsigned char kCanary = 0xA5;
  static constexpr unsigned long long kBlockTimeoutNs = 500000000ull;  // the launch must return within it
  static constexpr unsigned long long kMinClockWindowNs = 100000;     // %globaltimer ticks at up to 1 µs

  // Failures while setting up our own context are the machine's, whatever their class.
  static void env(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    cudaGetLastError();
    throw EnvironmentFault(fmt::format("{} ({})", describe(e), what));
  }

  // A candidate may leave a persisting-L2 carve-out or an access-policy window on our stream: a
  // memset flush cannot evict persisting lines, so the next sample (or the reference) would be
  // timed with its data pinned in L2.
  void reset_device_state() {
    cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    if (e != cudaSuccess && e != cudaErrorUnsupportedLimit && e != cudaErrorNotSupported) check(e, "resetting L2 persistence");
    cudaGetLastError();
    e = cudaCtxResetPersistingL2Cache();
    if (e != cudaSuccess && e != cudaErrorNotSupported) check(e, "resetting L2 persistence");
    cudaGetLastError();
    cudaStreamAttrValue window{};
    window.accessPolicyWindow.num_bytes = 0;
    window.accessPolicyWindow.hitRatio = 0;
    window.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
    window.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
    e = cudaStreamSetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &window);
    if (e != cudaSuccess && e != cudaErrorNotSupported) check(e, "resetting the stream's access policy");
    cudaGetLastError();
  }

  // Per SM, cycles over nanoseconds between the stamps either side of the sample; the median SM.
  ClockReading clock_over_sample() const {
    std::vector<double> mhz;
    const kernels::SmStamp* begin = stamps_;
    const kernels::SmStamp* end = stamps_ + stamp_slots();
    for (int i = 0; i < stamp_slots(); ++i) {
      if (begin[i].seq != seq_ || end[i].seq != seq_ || end[i].ns <= begin[i].ns) continue;
      unsigned long long ns = end[i].ns - begin[i].ns;
      if (ns < kMinClockWindowNs) continue;
      mhz.push_back(static_cast<double>(end[i].clock - begin[i].clock) / static_cast<double>(ns) * 1e3);
    }
    ClockReading r;
    if (mhz.empty()) return r;
    std::nth_element(mhz.begin(), mhz.begin() + static_cast<std::ptrdiff_t>(mhz.size() / 2), mhz.end());
    r.valid = true;
    r.mhz = mhz[mhz.size() / 2];
    return r;
  }

  int compare_blocks() const { return kernels::compare_grid(sm_count_); }
  int stamp_slots() const { return 4 * sm_count_ + 64; }  // %smid can exceed the SM count

  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  void* flush_ = nullptr;
  math::Partial* partials_ = nullptr;
  unsigned long long* damaged_ = nullptr;
  int* host_flags_ = nullptr;              // [0] release the stream, [1] the block expired
  kernels::SmStamp* stamps_ = nullptr;     // begin slots, then end slots
  unsigned long long seq_ = 0;
  std::unique_ptr<GuardedMemory> guards_;
  std::size_t l2_bytes_ = 0;
  double nominal_mhz_ = 0;
  int sm_count_ = 1;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace rubric::cuda::worker
