#pragma once
// Host-callable launchers for the worker's own device code (device_kernels.cu): poisoning,
// fresh random inputs, the SM clock probe and the fused comparison.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "operators/cuda/compare_kernel_math.hpp"

namespace rubric::cuda::worker::kernels {

cudaError_t fill_pattern(void* dst, std::size_t count, std::size_t element_bytes, std::uint64_t pattern,
                         cudaStream_t stream);
cudaError_t fill_random(void* dst, tensor::DType t, std::size_t count, std::uint64_t seed, cudaStream_t stream);
// One thread spins ~spin_ns on %globaltimer and writes {clock64 cycles, elapsed ns} to out[0..1].
cudaError_t probe_clock(unsigned long long* out, unsigned long long spin_ns, cudaStream_t stream);

// Threads per block of the comparison kernel; partials holds one math::Partial per block.
inline constexpr int kCompareThreads = 256;
cudaError_t compare(const void* a, tensor::DType ta, const void* b, tensor::DType tb, std::size_t count,
                    math::Rule rule, math::Partial* partials, int blocks, cudaStream_t stream);

}  // namespace rubric::cuda::worker::kernels
