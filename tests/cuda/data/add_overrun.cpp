// Correct sums, plus three elements written past the end of the output.
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
  for (int i = n; i < n + 3; ++i) out[i] = 0.0f;
}
