#include "operators/cuda/content_hash.hpp"

#include <fmt/format.h>

namespace rubric::cuda {

void ContentHash::feed(unsigned char c) {
  a_ = (a_ ^ c) * 0x100000001b3ull;
  b_ = (b_ ^ static_cast<unsigned char>(c + 0x5b)) * 0x100000001b3ull;
  b_ ^= b_ >> 29;
}

ContentHash& ContentHash::add(std::string_view part) {
  std::uint64_t n = part.size();
  for (int i = 0; i < 8; ++i) feed(static_cast<unsigned char>(n >> (8 * i)));
  for (char c : part) feed(static_cast<unsigned char>(c));
  return *this;
}

std::string ContentHash::hex() const { return fmt::format("{:016x}{:016x}", a_, b_); }

}  // namespace rubric::cuda
