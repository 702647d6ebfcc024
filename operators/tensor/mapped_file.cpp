#include "operators/tensor/mapped_file.hpp"

#include "operators/files/safe_open.hpp"

namespace rubric::tensor {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
  files::OpenFile f = files::open_regular(path, path);
  // The mapping stays valid after the descriptor closes.
  auto map = std::make_unique<files::GuardedMapping>(f.fd(), static_cast<std::size_t>(f.size()), path);
  return std::shared_ptr<const MappedFile>(new MappedFile(path, std::move(map)));
}

}  // namespace rubric::tensor
