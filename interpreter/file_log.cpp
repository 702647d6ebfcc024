#include "interpreter/file_log.hpp"

namespace rubric {

bool FileLog::add(FileRecord record, std::shared_future<std::string> digest) {
  if (!keys_.insert(record.root + "/" + record.path).second) return false;
  entries_.emplace_back(std::move(record), std::move(digest));
  return true;
}

std::vector<FileRecord> FileLog::records() const {
  std::vector<FileRecord> out;
  out.reserve(entries_.size());
  for (const auto& [record, digest] : entries_) {
    out.push_back(record);
    if (digest.valid()) out.back().digest = digest.get();
  }
  return out;
}

}  // namespace rubric
