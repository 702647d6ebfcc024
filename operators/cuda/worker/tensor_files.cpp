#include "operators/cuda/worker/tensor_files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

MappedInput::MappedInput(const std::string& path, std::uint64_t offset, std::size_t bytes) {
  static const char kEmpty = 0;
  data_ = &kEmpty;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw RequestFailure(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  struct stat st {};
  ::fstat(fd, &st);
  if (static_cast<std::uint64_t>(st.st_size) < offset + bytes) {
    ::close(fd);
    throw RequestFailure(fmt::format("{} holds {} bytes; {} are needed from offset {}", path, st.st_size, bytes, offset));
  }
  if (bytes == 0) {
    ::close(fd);
    return;
  }
  long page = ::sysconf(_SC_PAGESIZE);
  std::uint64_t aligned = offset - offset % static_cast<std::uint64_t>(page);
  map_bytes_ = static_cast<std::size_t>(offset - aligned) + bytes;
  map_ = ::mmap(nullptr, map_bytes_, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(aligned));
  ::close(fd);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    throw RequestFailure(fmt::format("cannot map {}: {}", path, std::strerror(errno)));
  }
  data_ = static_cast<const char*>(map_) + (offset - aligned);
}

MappedInput::~MappedInput() {
  if (map_) ::munmap(map_, map_bytes_);
}

void write_output(const std::string& path, const void* data, std::size_t bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw RequestFailure(fmt::format("cannot create {}: {}", path, std::strerror(errno)));
  std::size_t done = bytes ? std::fwrite(data, 1, bytes, f) : 0;
  bool ok = std::fclose(f) == 0 && done == bytes;
  if (!ok) throw RequestFailure(fmt::format("cannot write {}", path));
}

}  // namespace rubric::cuda::worker
