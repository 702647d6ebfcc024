#pragma once
// Opening a file a submission provides. The type is checked before anything is opened or read:
// a FIFO would block an open() or read() forever, a device may have side effects on open, a
// directory reads as an error much later. The descriptor is then checked to be the same regular
// file (no swap between the check and the open), so every later read, map or hash uses it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "operators/error.hpp"

namespace rubric::files {

// A file that is not what a reader needs: not a regular file, too large, unreadable. The message
// names the file as the caller showed it; the language binding blames its root.
struct FileError : OperatorError {
  using OperatorError::OperatorError;
};

// "named pipe (FIFO)", "socket", "character device", "block device", "directory", "symbolic link",
// "regular file" for a st_mode.
const char* file_kind(unsigned mode);

// An open, regular, read-only file. Moves; closes on destruction.
class OpenFile {
 public:
  OpenFile() = default;
  OpenFile(int fd, std::uint64_t size, std::uint64_t allocated) : fd_(fd), size_(size), allocated_(allocated) {}
  OpenFile(OpenFile&& o) noexcept : fd_(o.fd_), size_(o.size_), allocated_(o.allocated_) { o.fd_ = -1; }
  OpenFile& operator=(OpenFile&& o) noexcept;
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile();

  int fd() const { return fd_; }
  std::uint64_t size() const { return size_; }            // st_size when opened
  std::uint64_t allocated() const { return allocated_; }  // bytes on disk (st_blocks * 512): less when sparse

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0, allocated_ = 0;
};

// Opens `path` for reading when it is a regular file (symlinks followed), else throws FileError
// "<shown>: is a named pipe (FIFO), not a regular file". `shown` is how messages name the file.
OpenFile open_regular(const std::string& path, const std::string& shown);

// Throws FileError like open_regular without keeping the file open (for callers that read it
// by path afterwards, e.g. with a library).
void check_regular(const std::string& path, const std::string& shown);

// The whole file as bytes, at most `cap` of them: a larger file throws FileError
// "<shown>: 20.0 MiB is more than the 16 MiB limit for <purpose>" before anything is read.
// Memory used: the file's size (never more than cap), once.
std::string read_capped(const std::string& path, const std::string& shown, std::uint64_t cap, const std::string& purpose);
// The same check without reading: throws FileError when `f` is larger than `cap`.
void check_cap(const OpenFile& f, const std::string& shown, std::uint64_t cap, const std::string& purpose);
std::string read_capped(const OpenFile& f, const std::string& shown, std::uint64_t cap, const std::string& purpose);

// Up to `n` bytes from `offset` (fewer at the end of the file): for reading a header without
// touching the rest.
std::string read_at(const OpenFile& f, std::uint64_t offset, std::size_t n, const std::string& shown);

// "16 MiB", "1.5 GiB", "812 bytes".
std::string size_text(std::uint64_t bytes);

}  // namespace rubric::files
