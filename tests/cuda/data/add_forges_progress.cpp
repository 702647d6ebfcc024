// Claims a first call of 100,000 s (with the nonce it reads from the worker's memory) so the time
// request's budget would grow to days, then never returns.
#include <unistd.h>

#include "forge.hpp"
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
  forge::send("nonce=" + forge::find_nonce() + "\nstatus=progress\nfirst_call_s=100000\nend\n");
  for (;;) pause();
}
