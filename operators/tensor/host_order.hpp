#pragma once
// This machine's byte order, for deciding whether a file's elements must be swapped on read.
#include <cstdint>
#include <cstring>

namespace rubric::tensor {

inline bool host_is_little_endian() {
  const std::uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

}  // namespace rubric::tensor
