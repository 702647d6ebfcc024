#pragma once
// `--shard I/N`: which of N deterministic parts of a corpus a submission belongs to.
#include <cstdint>
#include <string>

namespace rubric::grading {

struct Shard {
  std::uint32_t index = 1;  // 1-based: shards 1/N ... N/N
  std::uint32_t count = 1;
};

// "2/4" → {2, 4}; throws std::invalid_argument saying what is wrong ("shards are numbered 1..N").
Shard parse_shard(const std::string& text);

// The submission's path as given, spelled one way: "./a/b/", "a//b" and "a/b" are the same.
std::string normalized_submission_path(const std::string& path);

// The shard a submission falls in: a hash of its normalized path, so it depends on nothing else
// (not the order of the inputs, not the other submissions).
std::uint32_t shard_of(const std::string& submission, std::uint32_t count);

}  // namespace rubric::grading
