#pragma once
// A 128-bit content hash (two independent FNV-1a 64 lanes) used as the module cache key.
// Not cryptographic: it names cache entries, it does not defend against crafted collisions.
#include <cstdint>
#include <string>
#include <string_view>

namespace rubric::cuda {

class ContentHash {
 public:
  // Each part is length-prefixed, so ("ab","c") and ("a","bc") hash differently.
  ContentHash& add(std::string_view part);
  std::string hex() const;  // 32 lowercase hex digits

 private:
  std::uint64_t a_ = 0xcbf29ce484222325ull;
  std::uint64_t b_ = 0x84222325cbf29ce4ull;
  void feed(unsigned char c);
};

}  // namespace rubric::cuda
