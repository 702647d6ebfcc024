// Correct, plus one write 64 bytes past the end of its output (into a neighbour, were the
// tensors packed together).
__global__ void affine_kernel(const float* __restrict__ x, float* __restrict__ y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    y[i] = 2.0f * x[i] + 1.0f;
  if (blockIdx.x == 0 && threadIdx.x == 0) y[n + 16] = 0.0f;
}

void affine(const float* x, float* y, int64_t n, cudaStream_t stream) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  affine_kernel<<<sms * 8, 512, 0, stream>>>(x, y, n);
}
