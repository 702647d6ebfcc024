#include "operators/process/folder_layout.hpp"

#include <filesystem>
#include <system_error>

namespace rubric::process {

namespace {

std::string resolved(const std::string& p) {
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(p, ec);
  if (ec) abs = p;
  auto c = std::filesystem::weakly_canonical(abs, ec);
  std::string s = (ec ? abs.lexically_normal() : c).string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool inside(const std::string& a, const std::string& b) {
  return a.size() > b.size() && a.compare(0, b.size(), b) == 0 && (b == "/" || a[b.size()] == '/');
}

}  // namespace

FolderRelation relate_folders(const std::string& first, const std::string& second) {
  FolderRelation r;
  r.first = resolved(first);
  r.second = resolved(second);
  if (r.first == r.second) r.nesting = Nesting::same;
  else if (inside(r.first, r.second)) r.nesting = Nesting::first_inside_second;
  else if (inside(r.second, r.first)) r.nesting = Nesting::second_inside_first;
  return r;
}

}  // namespace rubric::process
