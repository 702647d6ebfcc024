#pragma once
// Read-only file mappings that survive the file shrinking under them. Touching a mapped page past
// the new end of a file raises SIGBUS, which would kill the grader. A process-wide SIGBUS handler
// looks the faulting address up among the guarded mappings and, when it is one of them, puts
// zero-filled anonymous pages over the rest of the mapping and marks it damaged; the read then
// continues on zeros and the owner reports "shrank while it was read" instead of dying. A SIGBUS
// anywhere else keeps its previous disposition (the process dies as before, or a sanitizer reports).
#include <cstddef>
#include <cstdint>
#include <string>

#include "operators/files/safe_open.hpp"

namespace rubric::files {

class GuardedMapping {
 public:
  // Maps `size` bytes of `fd` read-only (nothing for size 0). Throws FileError naming `shown`.
  GuardedMapping(int fd, std::size_t size, const std::string& shown);
  ~GuardedMapping();
  GuardedMapping(const GuardedMapping&) = delete;
  GuardedMapping& operator=(const GuardedMapping&) = delete;

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  // True once a read hit a page past the file's end (the file shrank while mapped): the bytes
  // from there on read as zeros and must not be trusted.
  bool damaged() const;

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  int slot_ = -1;
};

// A file that shrank while it was mapped and read: what was read past its new end was zeros, so
// nothing computed from it may stand. `file` is the file as the message names it.
struct FileChanged : FileError {
  FileChanged(std::string shown, std::uint64_t mapped, std::uint64_t now, bool gone = false);
  std::string file;
};

// How many guarded mappings can be live at once; further ones are mapped unguarded and counted.
constexpr int kGuardSlots = 4096;

}  // namespace rubric::files
