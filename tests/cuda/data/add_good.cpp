// CPU stand-in candidate: out = a + b.
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
