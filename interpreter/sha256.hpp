#pragma once
// SHA-256 (FIPS 180-4), for the provenance of every file a check reads.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rubric {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::array<std::uint8_t, 32> digest();  // finishes; the object is then spent
  std::string hex_digest();

 private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view data);
// Hashes a file by streaming it; nullopt when it cannot be read.
std::optional<std::string> sha256_file(const std::string& path, std::uint64_t* bytes = nullptr);

}  // namespace rubric
