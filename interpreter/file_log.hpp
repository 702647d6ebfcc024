#pragma once
// The files one check run read, each once by root and path, in the order first read. Digests of
// large files are still being computed while the check goes on; `records()` waits for them.
#include <future>
#include <set>
#include <string>
#include <vector>

#include "interpreter/report_model.hpp"

namespace rubric {

class FileLog {
 public:
  // False (and nothing recorded) when root/path is there already.
  bool add(FileRecord record, std::shared_future<std::string> digest);
  bool contains(const std::string& root, const std::string& path) const { return keys_.count(root + "/" + path) > 0; }
  // Every record with its digest filled in.
  std::vector<FileRecord> records() const;

 private:
  std::vector<std::pair<FileRecord, std::shared_future<std::string>>> entries_;
  std::set<std::string> keys_;
};

}  // namespace rubric
