#include "operators/digest/sha256.hpp"

// The plain SHA-256 functions rather than EVP: statically linked, EVP brings OpenSSL's provider
// tables (~300 KiB of pointers the dynamic loader relocates, page by page, at every start of a
// position-independent `rubric`); SHA256_* bring the hash alone (SHA-NI or AVX2 code all the same).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <cstdio>
#include <fmt/format.h>
#include <new>
#include <vector>

namespace rubric::digest {

struct Sha256::Context {
  SHA256_CTX sha;
};

Sha256::Sha256() : ctx_(std::make_unique<Context>()) {
  if (SHA256_Init(&ctx_->sha) != 1) throw std::bad_alloc();
}

Sha256::~Sha256() = default;

void Sha256::update(const void* data, std::size_t size) {
  if (size > 0) SHA256_Update(&ctx_->sha, data, size);
}

std::array<std::uint8_t, 32> Sha256::digest() {
  std::array<std::uint8_t, 32> out{};
  SHA256_Final(out.data(), &ctx_->sha);
  return out;
}

std::string Sha256::hex_digest() {
  std::string s;
  s.reserve(64);
  for (auto b : digest()) s += fmt::format("{:02x}", b);
  return s;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex_digest();
}

std::optional<std::string> sha256_file(const std::string& path, std::uint64_t* bytes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::nullopt;
  Sha256 h;
  std::vector<char> buf(1 << 18);
  std::uint64_t n = 0;
  for (;;) {
    std::size_t got = std::fread(buf.data(), 1, buf.size(), f);
    if (got > 0) {
      h.update(buf.data(), got);
      n += got;
    }
    if (got < buf.size()) break;
  }
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return std::nullopt;
  if (bytes) *bytes = n;
  return h.hex_digest();
}

}  // namespace rubric::digest
