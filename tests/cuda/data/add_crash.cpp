// Crashes when n is 13; works otherwise (so the next call in a fresh worker succeeds).
#include <csignal>
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  if (n == 13) std::raise(SIGSEGV);
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
