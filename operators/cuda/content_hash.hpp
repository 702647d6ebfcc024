#pragma once
// A 128-bit content hash (XXH3-128, libxxhash) used as the module cache key. Not cryptographic:
// it names cache entries, it does not defend against crafted collisions.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace rubric::cuda {

class ContentHash {
 public:
  ContentHash();
  ~ContentHash();
  ContentHash(const ContentHash&) = delete;
  ContentHash& operator=(const ContentHash&) = delete;
  // Each part is length-prefixed, so ("ab","c") and ("a","bc") hash differently.
  ContentHash& add(std::string_view part);
  std::string hex() const;  // 32 lowercase hex digits

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rubric::cuda
