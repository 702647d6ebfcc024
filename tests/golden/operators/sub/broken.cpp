void scale(const float* x, float* y, int n, float a, cudaStream_t) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i]   // missing semicolon
}
