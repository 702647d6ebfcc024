#pragma once
// A read-only memory mapping of a whole file; tensors loaded from files point into it. The file
// is type-checked before it is opened (a FIFO or a device is an error, never a hang), and the
// mapping survives the file shrinking under it (see operators/files/bus_guard.hpp). Whoever reads
// the mapping asks `require_intact` after the pass: a file that shrank meanwhile was read partly
// as zeros, and the pass's result must not stand.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "operators/files/bus_guard.hpp"
#include "operators/files/safe_open.hpp"

namespace rubric::tensor {

class MappedFile {
 public:
  // Throws OperatorError (files::FileError) naming the path when the file is not a regular file
  // or cannot be opened or mapped.
  static std::shared_ptr<const MappedFile> open(const std::string& path);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::byte* data() const { return map_->data(); }
  std::size_t size() const { return map_->size(); }
  const std::string& path() const { return path_; }
  int fd() const { return file_.fd(); }  // the file mapped (for SEEK_DATA / SEEK_HOLE)
  // The file shrank while mapped: a read hit a page past its new end (SIGBUS, now zeros), or it is
  // shorter than mapped now (bytes past the end inside its last page read as zeros without a fault).
  bool damaged() const;
  // Throws files::FileChanged "<shown> shrank while it was read (N bytes mapped, M now)" when damaged.
  void require_intact(const std::string& shown) const;
  // Runs a reader of the mapping; a file that shrank meanwhile is reported as such (FileChanged)
  // instead of whatever the reader made of the zeros (a bad magic, a malformed header).
  template <class Reader>
  auto checked(Reader&& read) const -> decltype(read()) {
    try {
      auto result = read();
      require_intact(path_);
      return result;
    } catch (const files::FileChanged&) {
      throw;
    } catch (...) {
      require_intact(path_);
      throw;
    }
  }

 private:
  MappedFile(std::string path, files::OpenFile file, std::unique_ptr<files::GuardedMapping> map)
      : path_(std::move(path)), file_(std::move(file)), map_(std::move(map)) {}
  std::string path_;
  files::OpenFile file_;  // kept open: fstat tells a shrink the mapping cannot see
  std::unique_ptr<files::GuardedMapping> map_;
};

}  // namespace rubric::tensor
