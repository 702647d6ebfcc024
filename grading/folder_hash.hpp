#pragma once
// The content hash of a submission folder, one part of a result's cache key.
#include <string>

namespace rubric::grading {

// SHA-256 over every entry under `dir` in path order: its relative path, its kind, and its bytes
// (a regular file's content, a symlink's target text). Links are never followed and special files
// (FIFOs, sockets, devices) are never opened, so a hostile folder cannot block or redirect the hash.
// Throws std::runtime_error naming the entry that cannot be read.
std::string hash_folder(const std::string& dir);

}  // namespace rubric::grading
