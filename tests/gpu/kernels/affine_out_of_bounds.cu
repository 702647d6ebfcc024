// Reads far past the end of x: an illegal address.
__global__ void affine_kernel(const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i + (1ll << 40)] + 1.0f;
}

void affine(const float* x, float* y, int64_t n, cudaStream_t stream) {
  affine_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(x, y, n);
}
