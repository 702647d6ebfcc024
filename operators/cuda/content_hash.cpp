#include "operators/cuda/content_hash.hpp"

#include <xxhash.h>

#include <fmt/format.h>

namespace rubric::cuda {

struct ContentHash::State {
  XXH3_state_t* s = XXH3_createState();
  ~State() { XXH3_freeState(s); }
};

ContentHash::ContentHash() : state_(std::make_unique<State>()) { XXH3_128bits_reset(state_->s); }
ContentHash::~ContentHash() = default;

ContentHash& ContentHash::add(std::string_view part) {
  unsigned char n[8];
  for (int i = 0; i < 8; ++i) n[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(part.size()) >> (8 * i));
  XXH3_128bits_update(state_->s, n, sizeof n);
  XXH3_128bits_update(state_->s, part.data(), part.size());
  return *this;
}

std::string ContentHash::hex() const {
  XXH128_hash_t h = XXH3_128bits_digest(state_->s);
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

}  // namespace rubric::cuda
