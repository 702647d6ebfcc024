#pragma once
// Copying a submission's folder for a run. Holes stay holes (SEEK_DATA/SEEK_HOLE and
// copy_file_range, which reflinks where the filesystem can), so a 100 GB sparse file costs its
// data, not 100 GB of disk. The copy has a budget of data bytes and of entries; special files
// (FIFOs, sockets, devices) are skipped and listed, symbolic links are copied as links.
#include <cstdint>
#include <string>
#include <vector>

#include "operators/files/safe_open.hpp"

namespace rubric::files {

struct CopyBudget {
  std::uint64_t data_bytes = 4ull << 30;  // bytes of file data (holes excluded) per copy
  std::uint64_t entries = 100000;         // files, folders and links per copy
};

struct CopyReport {
  std::uint64_t data_bytes = 0;  // bytes of data copied (holes excluded)
  std::uint64_t entries = 0;
  std::vector<std::string> skipped;  // relative paths of special files left out, "name (named pipe (FIFO))"
};

// Over the budget: the submission's fault. The message uses paths relative to the source.
struct BudgetExceeded : FileError {
  using FileError::FileError;
};

// Folders nested deeper than this are past a copy's budget: the copy descends one call per
// folder, and 3,000 nested folders overflowed the grader's stack (it died of SIGSEGV).
constexpr int kMaxCopyDepth = 256;

// Throws BudgetExceeded when `rel` (relative to the source) is past the copy's limits: `depth`
// folders deep beyond kMaxCopyDepth, or a path under `dest_root` too long for the system
// (PATH_MAX), which made creating it the machine's error instead of the submission's FAIL.
void check_copy_path(const std::string& label, const std::string& dest_root, const std::string& rel, int depth);

// Copies the data of `in` (size bytes) to `out`, keeping holes. Returns the data bytes copied.
// Throws FileError naming `shown` when more than `budget_left` bytes of data would be written.
std::uint64_t copy_file_data(int in, int out, std::uint64_t size, const std::string& shown, std::uint64_t budget_left);

// Copies the tree at `source` to `dest` (which must not exist). `label` names the source in
// messages ("the run folder"). Throws BudgetExceeded past the budget (or check_copy_path's limits), FileError when the source
// cannot be read, OperatorError when the destination cannot be written (the machine's fault).
CopyReport copy_tree_sparse(const std::string& source, const std::string& dest, const CopyBudget& budget,
                            const std::string& label);

}  // namespace rubric::files
