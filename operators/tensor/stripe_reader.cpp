#include "operators/tensor/stripe_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include <unistd.h>

#include "operators/tensor/mapped_file.hpp"

namespace rubric::tensor {

namespace {
constexpr std::align_val_t kLine{64};  // whole cache lines: the comparison's vector loads never split one
}

StripeReader::StripeReader(const Tensor& t, std::int64_t max_elements, int slots) : t_(t), item_(t.itemsize()) {
  const auto& file = t.mapped_file();
  if (!file || file->fd() < 0) return;
  // Only elements that are the file's bytes (a view elsewhere keeps the file for its name only).
  const auto data = reinterpret_cast<std::uintptr_t>(t.data()), mapped = reinterpret_cast<std::uintptr_t>(file->data());
  if (data < mapped || data - mapped + static_cast<std::size_t>(t.size()) * item_ > file->size()) return;
  offset_ = data - mapped;
  fd_ = file->fd();
  const std::size_t longest = static_cast<std::size_t>(std::max<std::int64_t>(1, std::min(max_elements, t.size())));
  slot_bytes_ = (longest * item_ + 63) / 64 * 64;
  buffer_ = static_cast<std::byte*>(::operator new(slot_bytes_ * static_cast<std::size_t>(std::max(1, slots)), kLine));
}

StripeReader::~StripeReader() {
  if (buffer_) ::operator delete(buffer_, kLine);
}

const std::byte* StripeReader::read(std::int64_t begin, std::int64_t end, int slot) {
  const std::byte* mapped = t_.data() + static_cast<std::size_t>(begin) * item_;
  if (!buffer_) return mapped;
  std::byte* into = buffer_ + static_cast<std::size_t>(slot) * slot_bytes_;
  const std::size_t want = static_cast<std::size_t>(end - begin) * item_;
  const auto at = static_cast<off_t>(offset_ + static_cast<std::size_t>(begin) * item_);
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::pread(fd_, into + got, want - got, at + static_cast<off_t>(got));
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // the end of the file (it shrank) or an error: the rest through the mapping
    }
  }
  if (got < want) std::memcpy(into + got, mapped + got, want - got);
  return into;
}

}  // namespace rubric::tensor
