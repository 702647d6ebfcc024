#include <cuda_runtime.h>
// Uses a Hopper-only warpgroup instruction: it assembles for sm_90a, not for plain sm_90.
__global__ void fence_kernel(float* out, int n) {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  if (static_cast<int>(threadIdx.x) < n) out[threadIdx.x] = 1.0f;
}
void fence(const float* in, float* out, int n, cudaStream_t s) {
  (void)in;
  fence_kernel<<<1, 128, 0, s>>>(out, n);
}
