// Writes 256 bytes past the end of its output: past the canary slack, into the guard page.
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
  out[n + 64] = 1.0f;
}
