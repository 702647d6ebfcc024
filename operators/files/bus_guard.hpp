#pragma once
// Read-only file mappings that survive the file shrinking under them. Touching a mapped page past
// the new end of a file raises SIGBUS, which would kill the grader. A process-wide SIGBUS handler
// looks the faulting address up among the guarded mappings and, when it is one of them, puts
// zero-filled anonymous pages over the rest of the mapping and marks it damaged; the read then
// continues on zeros and the owner reports "changed while being read" instead of dying. A SIGBUS
// anywhere else keeps its previous disposition (the process dies as before, or a sanitizer reports).
#include <cstddef>
#include <cstdint>
#include <string>

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

// How many guarded mappings can be live at once; further ones are mapped unguarded and counted.
constexpr int kGuardSlots = 4096;

}  // namespace rubric::files
