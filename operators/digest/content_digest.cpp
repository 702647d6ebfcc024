#include "operators/digest/content_digest.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <xxh_x86dispatch.h>  // XXH3_* resolve to the library's AVX2/AVX-512 dispatching entry points
#else
#include <xxhash.h>
#endif

namespace rubric::digest {

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

ContentDigest& ContentDigest::add_part(std::string_view part) {
  unsigned char n[8];
  for (int i = 0; i < 8; ++i) n[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(part.size()) >> (8 * i));
  update(n, sizeof n);
  update(part);
  return *this;
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

namespace {

// The digest of a mapped file's bytes, its holes fed from a buffer of zeros.
std::string digest_skipping_holes(std::string_view bytes, int fd) {
  static const std::vector<char> zeros(1 << 20, 0);
  ContentDigest d;
  const off_t size = static_cast<off_t>(bytes.size());
  for (off_t pos = 0; pos < size;) {
    off_t data = ::lseek(fd, pos, SEEK_DATA);
    if (data < 0 && errno != ENXIO) return content_digest_hex(bytes);  // no hole support: read it all
    if (data < 0 || data > size) data = size;
    for (off_t z = pos; z < data;) {
      const std::size_t n = static_cast<std::size_t>(std::min<off_t>(data - z, static_cast<off_t>(zeros.size())));
      d.update(zeros.data(), n);
      z += static_cast<off_t>(n);
    }
    if (data >= size) break;
    off_t hole = ::lseek(fd, data, SEEK_HOLE);
    if (hole < 0 || hole > size) hole = size;
    d.update(bytes.data() + data, static_cast<std::size_t>(hole - data));
    pos = hole;
  }
  return d.hex();
}

}  // namespace

std::string content_digest_mapped(std::string_view bytes, int fd) {
  return fd >= 0 ? digest_skipping_holes(bytes, fd) : content_digest_hex(bytes);
}

std::shared_future<std::string> digest_in_background(std::shared_ptr<const void> keep_alive, const std::byte* data,
                                                     std::size_t size, std::function<bool()> whole, int fd) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto digest = [bytes, whole = std::move(whole), fd] {
    std::string hex = fd >= 0 ? digest_skipping_holes(bytes, fd) : content_digest_hex(bytes);
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

}  // namespace rubric::digest
