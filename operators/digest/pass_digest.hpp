#pragma once
// The digest of a large mapped file, computed by the pass that reads its bytes when there is one:
// the comparison hashes each stretch of the file right after comparing it, while it is in cache,
// so the file is read from memory once. Whoever asks for the digest computes it when no pass
// claimed it. The digest is that of content_digest.hpp (XXH3-128 over the whole file).
#include <atomic>
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <string>

#include "operators/digest/content_digest.hpp"

namespace rubric::digest {

class PassDigest {
 public:
  // `keep_alive` owns the `size` bytes at `data` (the mapping); `whole` says after the hash
  // whether the file is still whole (a file that shrank meanwhile gets ""); `fd` the file mapped.
  PassDigest(std::shared_ptr<const void> keep_alive, const std::byte* data, std::size_t size,
             std::function<bool()> whole, int fd);
  ~PassDigest();
  PassDigest(const PassDigest&) = delete;
  PassDigest& operator=(const PassDigest&) = delete;

  // The digest: computed by the first caller of get() unless a pass claimed it, whose end it
  // then waits for.
  std::shared_future<std::string> future(const std::shared_ptr<PassDigest>& self);

  // A pass over the file takes the digest on: true when the caller must now feed it (false: taken
  // already, or a sparse file, hashed hole by hole on its own).
  bool claim();
  // Hashes the file's bytes up to `offset` (from where the last call stopped), in order.
  void feed_until(std::size_t offset);
  // The same when the pass holds a copy of the file's `count` bytes before `offset` at `bytes`
  // (read out of the file rather than through the mapping): those are hashed from the copy, any
  // before them not hashed yet from the mapping. Null `bytes`: feed_until(offset).
  void feed(std::size_t offset, const std::byte* bytes, std::size_t count);
  // Hashes the rest and gives the digest; a claimed digest is finished even when the pass failed.
  void finish();

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  std::string compute_unclaimed();

  std::shared_ptr<const void> keep_alive_;
  const std::byte* data_;
  std::size_t size_;
  std::function<bool()> whole_;
  int fd_;
  bool sparse_ = false;
  std::atomic<bool> taken_{false};
  ContentDigest digest_;
  std::size_t fed_ = 0;
  bool finished_ = false;
  std::promise<std::string> result_;
  std::shared_future<std::string> shared_;
};

}  // namespace rubric::digest
