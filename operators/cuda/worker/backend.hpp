#pragma once
// What the worker needs from a device: memory (tensors against guard pages), a stream, calls with
// full synchronisation and error checks, timed calls with their raw observations, and the fused
// comparison. Two implementations:
// the CUDA backend (device memory) and the CPU stand-in (host memory, streams ignored), which
// lets the whole protocol be tested on machines without a GPU.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "operators/cuda/compare_kernel_math.hpp"
#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/dtype.hpp"

namespace rubric::cuda::worker {

// The device is unusable after this (a sticky CUDA error): the worker answers, then exits.
struct DeviceFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The grading machine cannot serve this (no device, driver too old, no kernel image for the
// device, MPS or hardware failure): the worker answers with blame=environment, then exits, so the
// next request retries with a fresh process (nothing is cached).
struct EnvironmentFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// This request failed (bad launch configuration, out of memory); the worker carries on.
struct RequestFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ClockReading {
  bool valid = false;
  double mhz = 0;
};

// One cold sample as the backend observed it; timing_loop decides what it is worth.
struct TimedSample {
  double seconds = 0;         // between the start and stop events
  double host_launch_s = 0;   // host time inside the candidate's launch (our stream held back)
  double host_after_s = 0;    // host time from releasing our stream to the device synchronised
  bool block_expired = false; // the blocking kernel let go before the launch returned
  ClockReading clock;         // SM clock over the sample, from SM timestamps either side of it
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;

  // Plain allocations (the worker's own scratch).
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void release(void* p) noexcept = 0;
  // A tensor's allocation: its last byte sits against an unmapped guard page, the slack around it
  // holds canaries; check_guard says how many slack bytes lost their canary (writes just outside
  // the tensor). release() frees both kinds.
  virtual void* allocate_guarded(std::size_t bytes) = 0;
  virtual std::size_t check_guard(const void* p) = 0;

  virtual void upload(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void download(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;  // device to device
  // `count` elements of `element_bytes` each, all set to the low bytes of `pattern`.
  virtual void fill_pattern(void* dst, std::size_t count, std::size_t element_bytes, std::uint64_t pattern) = 0;
  virtual void fill_random(void* dst, tensor::DType t, std::size_t count, std::uint64_t seed) = 0;

  // The value passed for a cudaStream_t parameter.
  virtual void* stream_handle() = 0;
  // Runs `launch`, synchronises the whole device and checks for errors.
  virtual void run_call(const std::function<void()>& launch) = 0;
  // One cold sample, NVBench's way: device state reset (persisting-L2 limit, stream attributes),
  // L2 flushed when asked, device synchronised, our stream held by a blocking kernel (when
  // `hold_stream`), SM timestamps and the start event queued, `launch` (host-timed), stop event
  // and timestamps, stream released, device synchronised (host-timed).
  virtual TimedSample timed_call(const std::function<void()>& launch, bool flush_l2, bool hold_stream = true) = 0;
  virtual std::size_t l2_flush_bytes() const = 0;  // 0 when there is nothing to flush
  // Device memory in use (every process on the device) and the device's total; 0 when not known
  // (the CPU stand-in). The worker's memory limit compares the use against its start.
  virtual std::uint64_t device_memory_used() { return 0; }
  virtual std::uint64_t device_memory_total() { return 0; }
  virtual double nominal_sm_clock_mhz() const = 0;  // 0 when unknown

  // Seconds for one device-to-device copy of `bytes` (best of a few): the bandwidth yardstick.
  virtual double copy_seconds(std::size_t bytes) = 0;

  // The fused comparison of two resident buffers; `seconds` receives the kernel time.
  virtual numerics::CompareStats compare(const void* a, tensor::DType ta, const void* b, tensor::DType tb,
                                         std::size_t count, const math::Rule& rule, double& seconds) = 0;
};

std::unique_ptr<Backend> make_cpu_backend();
// Throws RequestFailure with the reason when no device is usable (or CUDA was not built).
std::unique_ptr<Backend> make_cuda_backend();

// Device facts as protocol fields (available=0 with reason=... when unusable). Never throws.
void describe_device(std::function<void(const std::string&, const std::string&)> put);

// Owns one allocation of a backend (guarded: placed against a guard page, see allocate_guarded).
class DeviceBuffer {
 public:
  DeviceBuffer(Backend& b, std::size_t bytes, bool guarded = false)
      : backend_(&b), bytes_(bytes), ptr_(guarded ? b.allocate_guarded(bytes) : b.allocate(bytes ? bytes : 1)) {}
  DeviceBuffer(DeviceBuffer&& o) noexcept : backend_(o.backend_), bytes_(o.bytes_), ptr_(o.ptr_) { o.ptr_ = nullptr; }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(DeviceBuffer&&) = delete;
  ~DeviceBuffer() {
    if (ptr_) backend_->release(ptr_);
  }
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  Backend* backend_;
  std::size_t bytes_;
  void* ptr_;
};

}  // namespace rubric::cuda::worker
