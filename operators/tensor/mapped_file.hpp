#pragma once
// A read-only memory mapping of a whole file; tensors loaded from files point into it. The file
// is type-checked before it is opened (a FIFO or a device is an error, never a hang), and the
// mapping survives the file shrinking under it (see operators/files/bus_guard.hpp).
#include <cstddef>
#include <memory>
#include <string>

#include "operators/files/bus_guard.hpp"

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
  // The file shrank while mapped: bytes past its new end read as zeros.
  bool damaged() const { return map_->damaged(); }

 private:
  MappedFile(std::string path, std::unique_ptr<files::GuardedMapping> map) : path_(std::move(path)), map_(std::move(map)) {}
  std::string path_;
  std::unique_ptr<files::GuardedMapping> map_;
};

}  // namespace rubric::tensor
