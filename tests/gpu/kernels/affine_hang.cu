// Spins forever on the device.
__global__ void affine_kernel(const float* x, float* y, long long n, volatile int* never) {
  while (*never == 0) {
  }
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}

void affine(const float* x, float* y, int64_t n, cudaStream_t stream) {
  static int* flag = nullptr;
  if (!flag) {
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
  }
  affine_kernel<<<1, 32, 0, stream>>>(x, y, n, flag);
}
