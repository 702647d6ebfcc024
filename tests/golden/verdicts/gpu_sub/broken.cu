// Does not compile: an undeclared name on line 5.
__global__ void scale_kernel(const float* x, float* y, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] * undeclared_factor;
}

void scale(const float* x, float* y, float alpha, int n, cudaStream_t stream) {
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, y, alpha, n);
}
