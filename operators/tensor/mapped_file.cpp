#include "operators/tensor/mapped_file.hpp"

#include <sys/stat.h>

namespace rubric::tensor {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
  files::OpenFile f = files::open_regular(path, path);
  auto map = std::make_unique<files::GuardedMapping>(f.fd(), static_cast<std::size_t>(f.size()), path);
  return std::shared_ptr<const MappedFile>(new MappedFile(path, std::move(f), std::move(map)));
}

bool MappedFile::damaged() const {
  if (map_->damaged()) return true;
  struct stat st {};
  return ::fstat(file_.fd(), &st) != 0 || static_cast<std::uint64_t>(st.st_size) < map_->size();
}

void MappedFile::require_intact(const std::string& shown) const {
  if (!damaged()) return;
  struct stat st {};
  const bool known = ::fstat(file_.fd(), &st) == 0;
  throw files::FileChanged(shown, map_->size(), known ? static_cast<std::uint64_t>(st.st_size) : 0, !known);
}

}  // namespace rubric::tensor
