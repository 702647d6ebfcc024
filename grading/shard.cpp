#include "grading/shard.hpp"

#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "operators/digest/sha256.hpp"

namespace rubric::grading {
namespace {

std::uint32_t parse_count(const std::string& text, const std::string& whole) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(fmt::format("--shard '{}' must be I/N with whole numbers, as in 2/8", whole));
  return static_cast<std::uint32_t>(std::stoul(text));
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw std::invalid_argument(fmt::format("--shard '{}' must be I/N, as in 2/8", text));
  Shard s;
  s.index = parse_count(text.substr(0, slash), text);
  s.count = parse_count(text.substr(slash + 1), text);
  if (s.count == 0) throw std::invalid_argument(fmt::format("--shard '{}': the number of shards must be at least 1", text));
  if (s.index < 1 || s.index > s.count)
    throw std::invalid_argument(fmt::format("--shard '{}': shards are numbered 1..{}", text, s.count));
  return s;
}

std::string normalized_submission_path(const std::string& path) {
  std::string s = std::filesystem::path(path).lexically_normal().generic_string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s.empty() ? "." : s;
}

std::uint32_t shard_of(const std::string& submission, std::uint32_t count) {
  const std::string hex = digest::sha256_hex(normalized_submission_path(submission));
  // The first 60 bits of the digest, reduced: uniform enough for any shard count in practice.
  const std::uint64_t v = std::stoull(hex.substr(0, 15), nullptr, 16);
  return static_cast<std::uint32_t>(v % count) + 1;
}

}  // namespace rubric::grading
