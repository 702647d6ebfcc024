#pragma once
// A read-only memory mapping of a whole file; tensors loaded from files point into it.
#include <cstddef>
#include <memory>
#include <string>

namespace rubric::tensor {

class MappedFile {
 public:
  // Throws OperatorError naming the path when the file cannot be opened or mapped.
  static std::shared_ptr<const MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, const std::byte* data, std::size_t size);
  std::string path_;
  const std::byte* data_;
  std::size_t size_;
};

}  // namespace rubric::tensor
