// Correct, and opens a shared library of the machine's while it runs: as a "kernel" that hands
// the work to cuBLAS would, it brings in code the worker does not load itself.
#include <dlfcn.h>
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  static void* z = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
  (void)z;
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
