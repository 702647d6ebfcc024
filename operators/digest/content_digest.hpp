#pragma once
// The digest that names content: every file a check reads (the report's provenance) and the GPU
// module cache's entries. XXH3-128 from libxxhash (runtime-dispatched to AVX2/AVX-512), written as
// `xxhsum -H2` writes it. It is fast enough to ride along a comparison bound by memory bandwidth,
// which SHA-256 is not; it detects any accidental change but is not a defence against files
// crafted to collide (docs/semantics.md, "Provenance"): that is sha256.hpp's job.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rubric::digest {

class ContentDigest {
 public:
  ContentDigest();
  ~ContentDigest();
  ContentDigest(const ContentDigest&) = delete;
  ContentDigest& operator=(const ContentDigest&) = delete;

  void update(const void* data, std::size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  // One part of a composite key, length-prefixed so ("ab", "c") and ("a", "bc") differ.
  ContentDigest& add_part(std::string_view part);
  // 32 lowercase hex digits, high 64 bits first (XXH128_canonical_t).
  std::string hex() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::string content_digest_hex(std::string_view bytes);
// The digest of a file, streamed; nullopt when it cannot be read.
std::optional<std::string> content_digest_file(const std::string& path, std::uint64_t* bytes = nullptr);

// The digest of mapped bytes; with `fd` (the file mapped) its holes are hashed as the zeros they
// read as, without faulting the mapping's pages in.
std::string content_digest_mapped(std::string_view bytes, int fd = -1);

// The digest of `size` bytes at `data`, computed on a thread of its own when the bytes are many
// (so it runs beside the comparison that reads them) and at once when they are few. `keep_alive`
// owns the bytes (a mapping) until the digest is done. When `whole` is given and says false after
// the hash (the mapped file shrank meanwhile, so zeros were hashed), the digest is "".
// `fd`, when the bytes map a file open there: its holes (SEEK_HOLE) are hashed as the zeros they
// read as, without faulting the mapping's pages in (the same digest; a 2 GiB sparse file costs
// what its data costs).
std::shared_future<std::string> digest_in_background(std::shared_ptr<const void> keep_alive, const std::byte* data,
                                                     std::size_t size, std::function<bool()> whole = {}, int fd = -1);

}  // namespace rubric::digest
