#pragma once
// Removing a folder a candidate has written into: no link is ever followed (everything is opened
// relative to its parent with O_NOFOLLOW), no other filesystem is entered, and read-only folders a
// candidate left are made writable (through the opened folder itself, never a path) to empty them.
#include <cstddef>
#include <string>

namespace rubric::files {

struct RemoveBudget {
  std::size_t entries_left = static_cast<std::size_t>(-1);  // unlinks allowed; removal stops at 0
};

// Empties the folder open as `dir_fd`, leaving the entry named `keep_last` (if any) for the caller.
// Returns false with `why` set when something stayed (budget spent, a mount point, an error).
bool empty_folder(int dir_fd, RemoveBudget& budget, std::string* why, const char* keep_last = nullptr);

// Removes `path` and everything under it the same way; `path` itself may not be a link (a link
// is unlinked, its target untouched). `.owner` (temp_owner.hpp) is removed last. Missing: true.
bool remove_tree(const std::string& path, std::string* why = nullptr);

}  // namespace rubric::files
