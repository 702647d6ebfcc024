#pragma once
// A contiguous tensor's elements, stripe by stripe, as a pass over a whole file reads them. A tensor
// in a mapped file is read through the mapping, or copied out of the file with pread() into a
// reused buffer, as `cat` reads, whichever this machine does faster (timed once a process): on
// one virtual machine first touching the pages of a fresh mapping cost 2.4–6× what copying the
// same bytes out of the page cache did, on another 0.7×. A copy stays in cache for whatever reads
// the stripe next (the comparison, then the digest). A tensor in memory is read in place.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

// How a pass reads a tensor's mapped file: as this machine does faster (timed once a process), or
// one way always (tests run every pass both ways).
enum class FileReading { timed, copy, map };
void set_file_reading(FileReading how);

class StripeReader {
 public:
  // `t` must be contiguous and outlive the reader; stripes are at most `max_elements` long, and
  // `slots` of them can be held at once (a stripe read into a slot stays there until the slot is
  // read into again).
  StripeReader(const Tensor& t, std::int64_t max_elements, int slots = 1);
  ~StripeReader();
  StripeReader(const StripeReader&) = delete;
  StripeReader& operator=(const StripeReader&) = delete;

  // Elements [begin, end) in this machine's byte order, held in `slot`. Bytes a file no longer
  // holds (it shrank meanwhile) are read through the mapping, as zeros, and the pass's
  // require_intact reports the shrink.
  const std::byte* read(std::int64_t begin, std::int64_t end, int slot = 0);
  // True when read() copies (the bytes it returns are a copy of the file's, not the mapping).
  bool copies() const { return buffer_ != nullptr; }

 private:
  const Tensor& t_;
  std::size_t item_;
  std::size_t slot_bytes_ = 0;
  int fd_ = -1;
  std::size_t offset_ = 0;  // the file offset of element 0
  std::byte* buffer_ = nullptr;
};

}  // namespace rubric::tensor
