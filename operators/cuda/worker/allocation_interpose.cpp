// The runtime's allocation calls as the CUDA worker exports them: a candidate module (linked
// against the shared runtime) binds to these before libcudart's, so every allocation it makes
// through them is counted against the worker's device memory limit (allocation_limit.hpp).
// Each forwards to the runtime's own function, found once with dlsym(RTLD_NEXT).
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include "operators/cuda/worker/allocation_limit.hpp"

namespace {

template <typename F>
F real(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

using rubric::cuda::worker::admit_allocation;
using rubric::cuda::worker::record_allocation;
using rubric::cuda::worker::record_release;

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** p, size_t bytes) {
  static auto next = real<cudaError_t (*)(void**, size_t)>("cudaMalloc");
  if (!next) return cudaErrorInitializationError;
  if (!admit_allocation(bytes, "cudaMalloc")) return cudaErrorMemoryAllocation;
  cudaError_t e = next(p, bytes);
  if (e == cudaSuccess && p) record_allocation(*p, bytes);
  return e;
}

cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned int flags) {
  static auto next = real<cudaError_t (*)(void**, size_t, unsigned int)>("cudaMallocManaged");
  if (!next) return cudaErrorInitializationError;
  if (!admit_allocation(bytes, "cudaMallocManaged")) return cudaErrorMemoryAllocation;
  cudaError_t e = next(p, bytes, flags);
  if (e == cudaSuccess && p) record_allocation(*p, bytes);
  return e;
}

cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  static auto next = real<cudaError_t (*)(void**, size_t*, size_t, size_t)>("cudaMallocPitch");
  if (!next) return cudaErrorInitializationError;
  // The pitch is at most the width rounded up to 512 bytes.
  if (!admit_allocation((width + 511) / 512 * 512 * height, "cudaMallocPitch")) return cudaErrorMemoryAllocation;
  cudaError_t e = next(p, pitch, width, height);
  if (e == cudaSuccess && p && pitch) record_allocation(*p, *pitch * height);
  return e;
}

cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream) {
  static auto next = real<cudaError_t (*)(void**, size_t, cudaStream_t)>("cudaMallocAsync");
  if (!next) return cudaErrorInitializationError;
  if (!admit_allocation(bytes, "cudaMallocAsync")) return cudaErrorMemoryAllocation;
  cudaError_t e = next(p, bytes, stream);
  if (e == cudaSuccess && p) record_allocation(*p, bytes);
  return e;
}

cudaError_t cudaFree(void* p) {
  static auto next = real<cudaError_t (*)(void*)>("cudaFree");
  if (!next) return cudaErrorInitializationError;
  cudaError_t e = next(p);
  if (e == cudaSuccess) record_release(p);
  return e;
}

cudaError_t cudaFreeAsync(void* p, cudaStream_t stream) {
  static auto next = real<cudaError_t (*)(void*, cudaStream_t)>("cudaFreeAsync");
  if (!next) return cudaErrorInitializationError;
  cudaError_t e = next(p, stream);
  if (e == cudaSuccess) record_release(p);
  return e;
}

}  // extern "C"
