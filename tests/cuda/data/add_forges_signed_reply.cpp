// As add_forges_reply.cpp, but the reply carries the nonce it reads from the worker's memory:
// only the grader's clock can tell that 10 samples of 100 µs cannot be what the loop measured.
#include <time.h>

#include "forge.hpp"
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  static bool sent = false;
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
  if (sent) return;
  sent = true;
  std::string nonce = forge::find_nonce();
  timespec ts{0, 4000000};
  nanosleep(&ts, nullptr);
  forge::send(forge::time_reply(nonce, forge::ten_samples("0.0001")));
}
