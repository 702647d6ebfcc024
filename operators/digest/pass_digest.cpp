#include "operators/digest/pass_digest.hpp"

#include <string_view>

#include <unistd.h>

namespace rubric::digest {

PassDigest::PassDigest(std::shared_ptr<const void> keep_alive, const std::byte* data, std::size_t size,
                       std::function<bool()> whole, int fd)
    : keep_alive_(std::move(keep_alive)), data_(data), size_(size), whole_(std::move(whole)), fd_(fd) {
  // A file with holes is hashed hole by hole (content_digest_mapped), never read whole by a pass.
  if (fd_ >= 0) {
    const off_t hole = ::lseek(fd_, 0, SEEK_HOLE);
    sparse_ = hole >= 0 && static_cast<std::size_t>(hole) < size_;
  }
  shared_ = result_.get_future().share();
}

PassDigest::~PassDigest() = default;

std::shared_future<std::string> PassDigest::future(const std::shared_ptr<PassDigest>& self) {
  // Deferred: runs in whichever thread first waits for the digest (the report's provenance).
  return std::async(std::launch::deferred, [self] {
           if (!self->taken_.exchange(true)) self->result_.set_value(self->compute_unclaimed());
           return self->shared_.get();
         }).share();
}

std::string PassDigest::compute_unclaimed() {
  std::string hex = content_digest_mapped(std::string_view(reinterpret_cast<const char*>(data_), size_), fd_);
  return !whole_ || whole_() ? hex : std::string();
}

bool PassDigest::claim() { return !sparse_ && !taken_.exchange(true); }

void PassDigest::feed_until(std::size_t offset) {
  if (offset > size_) offset = size_;
  if (offset <= fed_) return;
  digest_.update(data_ + fed_, offset - fed_);
  fed_ = offset;
}

void PassDigest::feed(std::size_t offset, const std::byte* bytes, std::size_t count) {
  if (!bytes || count > offset || offset > size_) {
    feed_until(offset);
    return;
  }
  const std::size_t from = offset - count;
  if (from > fed_) feed_until(from);
  if (offset <= fed_) return;
  digest_.update(bytes + (fed_ - from), offset - fed_);
  fed_ = offset;
}

void PassDigest::finish() {
  if (finished_) return;
  finished_ = true;
  feed_until(size_);
  std::string hex = digest_.hex();
  result_.set_value(!whole_ || whole_() ? std::move(hex) : std::string());
}

}  // namespace rubric::digest
