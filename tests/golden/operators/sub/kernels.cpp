// Host-compiled stand-ins for CUDA kernels: the GPU worker's CPU backend runs them, so the whole
// cuda_fn / call protocol is exercised on machines without a GPU.
#include <cstdint>

void scale(const float* x, float* y, int n, float a, cudaStream_t) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i];
}

// Writes only the first half of its output.
void half_written(const float* x, float* y, int n, float a, cudaStream_t) {
  for (int i = 0; i < n / 2; ++i) y[i] = a * x[i];
}

// Dereferences a null pointer.
void crashes(const float*, float* y, int, float, cudaStream_t) {
  volatile float* p = nullptr;
  y[0] = *p;
}
