#pragma once
// Raw tensor bytes on disk, as the client hands them over: a file, a byte offset, an element
// count. Inputs are mapped (not copied) before upload; outputs are written whole.
#include <cstddef>
#include <cstdint>
#include <string>

namespace rubric::cuda::worker {

class MappedInput {
 public:
  // Throws RequestFailure when the file is missing or shorter than offset + bytes.
  MappedInput(const std::string& path, std::uint64_t offset, std::size_t bytes);
  ~MappedInput();
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;
  const void* data() const { return data_; }

 private:
  void* map_ = nullptr;
  std::size_t map_bytes_ = 0;
  const void* data_ = nullptr;
};

void write_output(const std::string& path, const void* data, std::size_t bytes);

}  // namespace rubric::cuda::worker
