#pragma once
// Lists the device images embedded in a host ELF file (its .nv_fatbin section): cubins with their
// sm_ architecture ("sm_90", "sm_90a") and PTX ("compute_100"), so tests can check what a build
// really holds without cuobjdump. Layout: fatbin containers (magic 0xBA55ED50, header size, body
// size), each a run of entries (kind 1 = PTX, 2 = cubin; header size; payload size; the
// architecture at byte 28; flags at 40, 0x100000 marking an architecture-specific `a` target).
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace fatbin {

template <typename T>
T read_at(const std::vector<unsigned char>& d, std::size_t off) {
  T v{};
  if (off + sizeof(T) <= d.size()) std::memcpy(&v, d.data() + off, sizeof(T));
  return v;
}

inline std::set<std::string> images(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> d((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::set<std::string> out;
  if (d.size() < 64 || std::memcmp(d.data(), "\x7f" "ELF", 4) != 0) return out;
  auto shoff = read_at<std::uint64_t>(d, 0x28);
  auto shentsize = read_at<std::uint16_t>(d, 0x3A), shnum = read_at<std::uint16_t>(d, 0x3C);
  auto shstrndx = read_at<std::uint16_t>(d, 0x3E);
  auto section = [&](std::size_t i) { return shoff + i * shentsize; };
  auto strtab = read_at<std::uint64_t>(d, section(shstrndx) + 0x18);
  for (std::size_t i = 0; i < shnum; ++i) {
    auto name_off = read_at<std::uint32_t>(d, section(i));
    const char* name = reinterpret_cast<const char*>(d.data() + strtab + name_off);
    if (std::strcmp(name, ".nv_fatbin") != 0) continue;
    std::size_t pos = read_at<std::uint64_t>(d, section(i) + 0x18);
    std::size_t end = pos + read_at<std::uint64_t>(d, section(i) + 0x20);
    while (pos + 16 <= end) {
      if (read_at<std::uint32_t>(d, pos) != 0xBA55ED50u) {
        pos += 8;
        continue;
      }
      std::size_t header = read_at<std::uint16_t>(d, pos + 6), body = read_at<std::uint64_t>(d, pos + 8);
      for (std::size_t e = pos + header; e + 48 <= pos + header + body;) {
        auto kind = read_at<std::uint16_t>(d, e);
        auto entry_header = read_at<std::uint32_t>(d, e + 4);
        auto size = read_at<std::uint64_t>(d, e + 8);
        auto arch = read_at<std::uint32_t>(d, e + 28);
        auto flags = read_at<std::uint64_t>(d, e + 40);
        if (kind == 1) out.insert("compute_" + std::to_string(arch));
        if (kind == 2) out.insert("sm_" + std::to_string(arch) + ((flags & 0x100000u) ? "a" : ""));
        if (entry_header == 0) break;
        e += entry_header + size;
      }
      pos += header + body;
    }
  }
  return out;
}

inline std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& x : s) out += (out.empty() ? "" : " ") + x;
  return out;
}

}  // namespace fatbin
