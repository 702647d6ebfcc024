// Answers with samples that are not numbers (with the nonce it reads from the worker's memory).
#include "forge.hpp"
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  static bool sent = false;
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
  if (sent) return;
  sent = true;
  forge::send(forge::time_reply(forge::find_nonce(), "abc,1e999"));
}
