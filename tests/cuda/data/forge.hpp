// What a hostile module can do from inside the worker: write to the worker's channel (fd 3) and
// read the worker's memory, where the current request's nonce is.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace forge {

inline bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// The worker holds the request being served as a Message: a vector of (key, value) std::string
// pairs. Find, in writable memory, a live std::string "nonce" (libstdc++: a pointer to its own
// inline buffer, size 5) followed by a string of 32 hex digits, and return that value. (Freed
// copies of older messages fail the test: the allocator overwrites their first bytes.)
inline std::string find_nonce() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream in(line);
    std::string range, perms;
    in >> range >> perms;
    if (perms.size() < 2 || perms[0] != 'r' || perms[1] != 'w') continue;
    unsigned long lo = 0, hi = 0;
    std::sscanf(range.c_str(), "%lx-%lx", &lo, &hi);
    for (unsigned long at = lo; at + 64 <= hi; at += 8) {
      const char* const* key_ptr = reinterpret_cast<const char* const*>(at);
      if (reinterpret_cast<unsigned long>(*key_ptr) != at + 16) continue;
      if (*reinterpret_cast<const unsigned long*>(at + 8) != 5) continue;
      if (std::memcmp(reinterpret_cast<const char*>(at + 16), "nonce", 6) != 0) continue;
      const char* value = *reinterpret_cast<const char* const*>(at + 32);
      unsigned long size = *reinterpret_cast<const unsigned long*>(at + 40);
      unsigned long v = reinterpret_cast<unsigned long>(value);
      if (size != 32 || v < 4096) continue;
      // The value must lie in a mapping we can read: look it up before touching it.
      std::ifstream again("/proc/self/maps");
      std::string l2;
      bool readable = false;
      while (std::getline(again, l2)) {
        unsigned long a = 0, b = 0;
        char r = 0;
        if (std::sscanf(l2.c_str(), "%lx-%lx %c", &a, &b, &r) == 3 && v >= a && v + 33 <= b && r == 'r') readable = true;
      }
      if (!readable) continue;
      std::string candidate(value, 32);
      bool hex = true;
      for (char c : candidate) hex = hex && is_hex(c);
      if (hex) return candidate;
    }
  }
  return "";
}

inline void send(const std::string& text) {
  const char* d = text.data();
  std::size_t n = text.size();
  while (n > 0) {
    ssize_t w = ::write(3, d, n);
    if (w <= 0) return;
    d += w;
    n -= static_cast<std::size_t>(w);
  }
}

// The fields of an honest `time` reply, with figures of the forger's choosing.
inline std::string time_reply(const std::string& nonce, const std::string& samples) {
  std::string head = nonce.empty() ? "" : "nonce=" + nonce + "\n";
  return head + "status=ok\nsamples=" + samples +
         "\nwarmup_calls=1\ndropped_low_clock=0\nescaped_stream=0\nverified_samples=10\nescape_slack_s=2e-05\n"
         "stream_held=1\nfirst_call_s=0.0001\nclock_mhz=0\nsustained_clock_mhz=0\nnominal_clock_mhz=0\nnoise=0.001\n"
         "elapsed_s=0.001\nstop_reason=noise 0.10% < 0.50%\nflushed=0\nflush_bytes=0\nrecheck_ok=1\n"
         "recheck=outputs reproduced after timing\nend\n";
}

inline std::string ten_samples(const char* each) {
  std::string s;
  for (int i = 0; i < 10; ++i) s += (i ? "," : "") + std::string(each);
  return s;
}

}  // namespace forge
