// Correct, and prints 24 MiB to stdout on every call.
#include <cstdio>
#include <cstring>
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  static char line[1 << 20];
  std::memset(line, 'x', sizeof line);
  for (int k = 0; k < 24; ++k) std::fwrite(line, 1, sizeof line, stdout);
  std::fflush(stdout);
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
