// Sleeps 4 ms on its first call, then writes a `time` reply of its own claiming 100 µs samples,
// without the request's nonce (it does not look for it).
#include <time.h>

#include "forge.hpp"
void add(const float* a, const float* b, float* out, int n, cudaStream_t) {
  static bool sent = false;
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
  if (sent) return;
  sent = true;
  timespec ts{0, 4000000};
  nanosleep(&ts, nullptr);
  forge::send(forge::time_reply("", forge::ten_samples("0.0001")));
}
