#include "operators/digest/sha256.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <fmt/format.h>
#include <new>
#include <vector>

namespace rubric::digest {

struct Sha256::Context {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : ctx_(std::make_unique<Context>()) {
  if (!ctx_->md || EVP_DigestInit_ex(ctx_->md, EVP_sha256(), nullptr) != 1) throw std::bad_alloc();
}

Sha256::~Sha256() = default;

void Sha256::update(const void* data, std::size_t size) {
  if (size > 0) EVP_DigestUpdate(ctx_->md, data, size);
}

std::array<std::uint8_t, 32> Sha256::digest() {
  std::array<std::uint8_t, 32> out{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx_->md, out.data(), &len);
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
