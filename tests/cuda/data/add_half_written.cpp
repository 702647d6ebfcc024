// Writes only the first half of its output: the rest must show up as NaN.
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n / 2; ++i) out[i] = a[i] + b[i];
}
