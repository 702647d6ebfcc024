#include "interpreter/content_digest.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <xxh_x86dispatch.h>  // XXH3_* resolve to the library's AVX2/AVX-512 dispatching entry points
#else
#include <xxhash.h>
#endif

namespace rubric {

struct ContentDigest::State {
  XXH3_state_t* xxh = XXH3_createState();
  ~State() { XXH3_freeState(xxh); }
};

ContentDigest::ContentDigest() : state_(std::make_unique<State>()) {
  if (!state_->xxh) throw std::bad_alloc();
  XXH3_128bits_reset(state_->xxh);
}

ContentDigest::~ContentDigest() = default;

void ContentDigest::update(const void* data, std::size_t size) {
  if (size > 0) XXH3_128bits_update(state_->xxh, data, size);
}

namespace {
std::string hex_of(XXH128_hash_t h) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, h);
  std::string s;
  s.reserve(32);
  for (unsigned char b : c.digest) s += fmt::format("{:02x}", b);
  return s;
}
}  // namespace

std::string ContentDigest::hex() const { return hex_of(XXH3_128bits_digest(state_->xxh)); }

std::string content_digest_hex(std::string_view bytes) { return hex_of(XXH3_128bits(bytes.data(), bytes.size())); }

std::optional<std::string> content_digest_file(const std::string& path, std::uint64_t* bytes) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return std::nullopt;
  ContentDigest d;
  std::vector<char> buf(1 << 18);
  std::uint64_t n = 0;
  for (std::size_t got; (got = std::fread(buf.data(), 1, buf.size(), f.get())) > 0;) {
    d.update(buf.data(), got);
    n += got;
  }
  if (std::ferror(f.get())) return std::nullopt;
  if (bytes) *bytes = n;
  return d.hex();
}

std::shared_future<std::string> digest_in_background(std::shared_ptr<const void> keep_alive, const std::byte* data,
                                                     std::size_t size, std::function<bool()> whole) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto digest = [bytes, whole = std::move(whole)] {
    std::string hex = content_digest_hex(bytes);
    return !whole || whole() ? hex : std::string();
  };
  // Below a few MiB a thread costs more than the hash (about 0.05 ms per MiB).
  constexpr std::size_t kThreadFrom = 4u << 20;
  if (size < kThreadFrom) {
    std::promise<std::string> done;
    done.set_value(digest());
    return done.get_future().share();
  }
  return std::async(std::launch::async, [keep_alive = std::move(keep_alive), digest = std::move(digest)] {
           return digest();
         }).share();
}

}  // namespace rubric
