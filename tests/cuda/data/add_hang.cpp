// Never returns when n is 7.
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  volatile bool forever = n == 7;
  while (forever) {
  }
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
