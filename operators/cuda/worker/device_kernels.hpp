#pragma once
// Host-callable launchers for the worker's own device code (device_kernels.cu): poisoning,
// fresh random inputs, the stream-blocking kernel, SM timestamps, canary checks and the fused
// comparison.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "operators/cuda/compare_kernel_math.hpp"

namespace rubric::cuda::worker::kernels {

cudaError_t fill_pattern(void* dst, std::size_t count, std::size_t element_bytes, std::uint64_t pattern,
                         cudaStream_t stream);
cudaError_t fill_random(void* dst, tensor::DType t, std::size_t count, std::uint64_t seed, cudaStream_t stream);
// Holds `stream` until the host sets *release (host-mapped) or timeout_ns pass on %globaltimer;
// sets *expired (host-mapped) when it gave up waiting.
cudaError_t block_stream(volatile int* release, int* expired, unsigned long long timeout_ns, cudaStream_t stream);

// One SM's clocks at one moment; `seq` says which launch wrote it.
struct SmStamp {
  unsigned long long clock;  // clock64 of that SM
  unsigned long long ns;     // %globaltimer
  unsigned long long seq;
};
// `blocks` one-thread blocks each write their SM's stamp to out[%smid] (out holds max_sm slots).
cudaError_t stamp_sms(SmStamp* out, int max_sm, unsigned long long seq, int blocks, cudaStream_t stream);

// Adds to *damaged the number of bytes in [p, p + bytes) that are not `canary`.
cudaError_t count_not_canary(const unsigned char* p, std::size_t bytes, unsigned char canary,
                             unsigned long long* damaged, cudaStream_t stream);

// The fused comparison: a kernel per common dtype pair (16-byte loads, dtypes folded at compile
// time), a generic one for the rest; as many blocks as fit at once (occupancy), at most
// kMaxCompareBlocksPerSm per SM. `partials` holds compare_grid(sm_count) math::Partial; the blocks
// used come back in *blocks, one partial each, to be combined in block order.
inline constexpr int kCompareThreads = 256;
inline constexpr int kMaxCompareBlocksPerSm = 8;
inline constexpr int compare_grid(int sm_count) { return kMaxCompareBlocksPerSm * sm_count; }
cudaError_t compare(const void* a, tensor::DType ta, const void* b, tensor::DType tb, std::size_t count,
                    math::Rule rule, math::Partial* partials, int sm_count, int* blocks, cudaStream_t stream);

}  // namespace rubric::cuda::worker::kernels
