#pragma once
// SHA-256 (OpenSSL's libcrypto, which uses the CPU's SHA extensions), for keys a submission must
// not be able to forge by collision: `rubric grade`'s result cache and shards. The report's file
// provenance uses the faster, non-cryptographic content_digest.hpp instead.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rubric::digest {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(const void* data, std::size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::array<std::uint8_t, 32> digest();  // finishes; the object is then spent
  std::string hex_digest();

 private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

std::string sha256_hex(std::string_view data);
// Hashes a file by streaming it; nullopt when it cannot be read.
std::optional<std::string> sha256_file(const std::string& path, std::uint64_t* bytes = nullptr);

}  // namespace rubric::digest
