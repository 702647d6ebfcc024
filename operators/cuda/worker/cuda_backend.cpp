// The CUDA backend: owns the worker's context on device 0, a blocking non-default stream (so work
// a candidate puts on the legacy default stream is ordered before our stop event), the L2 flush
// buffer and the timing events.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "operators/cuda/worker/backend.hpp"
#include "operators/cuda/worker/device_kernels.hpp"

namespace rubric::cuda::worker {

namespace {

std::string describe(cudaError_t e) { return fmt::format("{}: {}", cudaGetErrorName(e), cudaGetErrorString(e)); }

// Errors after which the context is unusable: the worker must exit and the next request starts a
// fresh one.
bool is_sticky(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress: case cudaErrorLaunchTimeout: case cudaErrorAssert:
    case cudaErrorHardwareStackError: case cudaErrorIllegalInstruction: case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace: case cudaErrorInvalidPc: case cudaErrorLaunchFailure:
    case cudaErrorECCUncorrectable: case cudaErrorContextIsDestroyed: case cudaErrorTensorMemoryLeak:
      return true;
    default:
      return false;
  }
}

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next request starts clean
  if (is_sticky(e)) throw DeviceFault(describe(e));
  throw RequestFailure(fmt::format("{} ({})", describe(e), what));
}

class CudaBackend final : public Backend {
 public:
  CudaBackend() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) throw RequestFailure(fmt::format("no usable CUDA device ({})", describe(e)));
    if (count == 0) throw RequestFailure("no CUDA device");
    check(cudaSetDevice(0), "selecting device 0");
    int l2 = 0, khz = 0, sms = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    l2_bytes_ = static_cast<std::size_t>(l2);
    nominal_mhz_ = khz / 1000.0;
    sm_count_ = sms > 0 ? sms : 1;
    check(cudaStreamCreate(&stream_), "creating the stream");
    check(cudaEventCreate(&start_), "creating events");
    check(cudaEventCreate(&stop_), "creating events");
    check(cudaEventCreate(&stop_after_sync_), "creating events");
    if (l2_bytes_) check(cudaMalloc(&flush_, l2_bytes_), "allocating the L2 flush buffer");
    check(cudaMalloc(&probe_, 2 * sizeof(unsigned long long)), "allocating the clock probe");
    check(cudaMalloc(reinterpret_cast<void**>(&partials_), sizeof(math::Partial) * compare_blocks()),
          "allocating comparison partials");
  }
  ~CudaBackend() override {
    // Best effort: after a sticky error these fail, and the process is about to exit anyway.
    cudaFree(flush_);
    cudaFree(probe_);
    cudaFree(partials_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaEventDestroy(stop_after_sync_);
    cudaStreamDestroy(stream_);
  }

  std::string name() const override { return "cuda"; }

  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "allocating device memory");
    return p;
  }
  void release(void* p) noexcept override { cudaFree(p); }
  void upload(void* dst, const void* src, std::size_t bytes) override {
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "uploading");
  }
  void download(void* dst, const void* src, std::size_t bytes) override {
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "downloading");
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
    launch();
    cudaError_t launch_error = cudaGetLastError();
    cudaError_t sync_error = cudaDeviceSynchronize();
    check(launch_error != cudaSuccess ? launch_error : sync_error, "running the candidate");
    check(cudaGetLastError(), "running the candidate");
  }

  TimedSample timed_call(const std::function<void()>& launch, bool flush_l2) override {
    TimedSample s;
    if (flush_l2 && flush_) check(cudaMemsetAsync(flush_, 0, l2_bytes_, stream_), "flushing L2");
    check(cudaEventRecord(start_, stream_), "recording the start event");
    launch();
    cudaError_t launch_error = cudaGetLastError();
    check(cudaEventRecord(stop_, stream_), "recording the stop event");
    check(launch_error != cudaSuccess ? launch_error : cudaEventSynchronize(stop_), "running the candidate");
    auto stop_seen = std::chrono::steady_clock::now();
    check(cudaDeviceSynchronize(), "running the candidate");
    double pending = std::chrono::duration<double>(std::chrono::steady_clock::now() - stop_seen).count();
    float ms = 0;
    // Work still running elsewhere after our stop event escaped it: time up to the device sync.
    if (pending > kEscapeThreshold) {
      s.escaped_stream = true;
      check(cudaEventRecord(stop_after_sync_, stream_), "recording the stop event");
      check(cudaEventSynchronize(stop_after_sync_), "recording the stop event");
      check(cudaEventElapsedTime(&ms, start_, stop_after_sync_), "reading events");
    } else {
      check(cudaEventElapsedTime(&ms, start_, stop_), "reading events");
    }
    s.seconds = ms * 1e-3;
    return s;
  }

  std::size_t l2_flush_bytes() const override { return flush_ ? l2_bytes_ : 0; }

  ClockReading read_sm_clock() override {
    check(kernels::probe_clock(probe_, kProbeSpinNs, stream_), "probing the SM clock");
    unsigned long long host[2] = {0, 0};
    check(cudaMemcpyAsync(host, probe_, sizeof host, cudaMemcpyDeviceToHost, stream_), "probing the SM clock");
    check(cudaStreamSynchronize(stream_), "probing the SM clock");
    ClockReading r;
    if (host[1] > 0) {
      r.valid = true;
      r.mhz = static_cast<double>(host[0]) / static_cast<double>(host[1]) * 1e3;
    }
    return r;
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
    int blocks = compare_blocks();
    check(cudaEventRecord(start_, stream_), "recording the start event");
    check(kernels::compare(a, ta, b, tb, count, rule, partials_, blocks, stream_), "comparing");
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
  static constexpr double kEscapeThreshold = 20e-6;           // a device sync on an idle GPU takes a few µs
  static constexpr unsigned long long kProbeSpinNs = 20000;  // %globaltimer ticks at ≤ 1 µs
  int compare_blocks() const { return 2 * sm_count_; }        // 2 blocks of 256 fit per SM at ~120 registers

  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr, stop_after_sync_ = nullptr;
  void* flush_ = nullptr;
  unsigned long long* probe_ = nullptr;
  math::Partial* partials_ = nullptr;
  std::size_t l2_bytes_ = 0;
  double nominal_mhz_ = 0;
  int sm_count_ = 1;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace rubric::cuda::worker
