#pragma once
// What a compile of candidate code sees of its source's folder: a private copy of the folder's
// small files (sources and headers; large files such as tensors are left out), taken before the
// compiler starts and bound read-only into its sandbox. The compiler never reads the original.
#include <cstdint>
#include <string>
#include <vector>

namespace rubric::cuda {

struct SnapshotLimits {
  std::uint64_t file_bytes = 4ull << 20;     // larger files are not copied (listed in `left_out`)
  std::uint64_t total_bytes = 256ull << 20;  // data copied in all
  std::uint64_t entries = 20000;             // files, folders and links in all
};

struct SnapshotReport {
  std::uint64_t bytes = 0, entries = 0;
  std::vector<std::string> left_out;  // relative paths: "data/x.npy (512 MiB)", "pipe (named pipe (FIFO))"
};

// Copies the tree at `from` into `to` (created). Symbolic links are copied as links (inside the
// sandbox they point into the copy or nowhere). Throws files::BudgetExceeded past the total or
// the entries, naming where it ran out relative to `label`; OperatorError when `to` cannot be written.
SnapshotReport snapshot_sources(const std::string& from, const std::string& to, const SnapshotLimits& limits,
                                const std::string& label);

// A digest of everything snapshot_sources would copy from `from` (names, modes, bytes, link
// targets), under the same limits and errors: what a compile of a source in that folder can read
// of it, so the module cache is keyed by its headers too.
std::string source_digest(const std::string& from, const SnapshotLimits& limits, const std::string& label);

}  // namespace rubric::cuda
