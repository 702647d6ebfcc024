// out = 2x, and x is incremented in place as a side effect: timed on mutated inputs, every sample
// would differ from the first call.
void twice(float* x, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n; ++i) {
    out[i] = 2.0f * x[i];
    x[i] += 1.0f;
  }
}
