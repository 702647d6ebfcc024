// Compute-bound: 4096 dependent FMAs per element, 8 independent chains per thread.
__global__ void fma_kernel(const float* __restrict__ x, float* __restrict__ y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float a[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) a[k] = v + k;
  for (int it = 0; it < 512; ++it) {
#pragma unroll
    for (int k = 0; k < 8; ++k) a[k] = fmaf(a[k], 0.999f, 0.001f);
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += a[k];
  y[i] = s;
}

void fma_chain(const float* x, float* y, int64_t n, cudaStream_t stream) {
  fma_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(x, y, n);
}
