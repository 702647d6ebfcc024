#include "interpreter/paths.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace rubric {

namespace {

std::optional<std::string> real_path(const std::string& p) {
  char buf[PATH_MAX];
  if (!::realpath(p.c_str(), buf)) return std::nullopt;
  return std::string(buf);
}

}  // namespace

std::optional<PathValue> join_path(const PathValue& base, const std::string& piece, std::string* error) {
  if (!piece.empty() && piece.front() == '/') {
    if (error) *error = fmt::format("cannot join the absolute path '{}' to {}", piece, base.display());
    return std::nullopt;
  }
  std::vector<std::string> parts;
  auto split_into = [&](const std::string& s) -> bool {
    std::size_t pos = 0;
    while (pos <= s.size()) {
      std::size_t next = s.find('/', pos);
      std::string seg = s.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      if (seg == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else if (!seg.empty() && seg != ".") {
        parts.push_back(seg);
      }
      if (next == std::string::npos) break;
      pos = next + 1;
    }
    return true;
  };
  split_into(base.relative);
  if (!split_into(piece)) {
    if (error) *error = fmt::format("path {}/{} escapes its root '{}'", base.display(), piece, base.root);
    return std::nullopt;
  }
  PathValue out = base;
  out.relative.clear();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out.relative += '/';
    out.relative += parts[i];
  }
  return out;
}

ResolvedPath resolve_confined(const PathValue& p) {
  ResolvedPath r;
  auto root_real = real_path(p.root_dir);
  if (!root_real) {
    r.status = PathStatus::missing;
    r.message = fmt::format("{}: the {} directory '{}' does not exist", p.display(), p.root, p.root_dir);
    return r;
  }
  auto full_real = real_path(p.full());
  if (!full_real) {
    int err = errno;
    // A dangling link or a missing file: say so, but first make sure no existing prefix escapes.
    r.status = (err == ENOENT || err == ENOTDIR) ? PathStatus::missing : PathStatus::unreadable;
    r.message = r.status == PathStatus::missing ? fmt::format("{}: no such file", p.display())
                                                : fmt::format("{}: cannot resolve ({})", p.display(), std::strerror(err));
    if (err == ELOOP) {
      // Links pointing at each other (or too deep a chain): a loop, whatever each link's target is.
      r.status = PathStatus::missing;
      r.message = fmt::format("{}: a symbolic link loop (the links never reach a file)", p.display());
      return r;
    }
    struct stat st;
    if (::lstat(p.full().c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
      char target[PATH_MAX];
      ssize_t n = ::readlink(p.full().c_str(), target, sizeof target - 1);
      if (n > 0) {
        target[n] = 0;
        r.message = fmt::format("{}: a symbolic link to '{}', which does not exist", p.display(), target);
      }
    }
    return r;
  }
  const std::string& root = *root_real;
  bool inside = *full_real == root || (full_real->size() > root.size() && full_real->compare(0, root.size(), root) == 0 &&
                                       ((*full_real)[root.size()] == '/' || root == "/"));
  if (!inside) {
    r.status = PathStatus::escapes;
    r.message = fmt::format("{} resolves outside its root '{}' (symbolic links may not leave the root)", p.display(),
                            p.root);
    return r;
  }
  r.real = *full_real;
  return r;
}

PathValue make_root(const std::string& name, const std::string& dir) {
  PathValue p;
  p.root = name;
  std::string d = dir.empty() ? "." : dir;
  if (d.front() != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd)) d = std::string(cwd) + "/" + d;
  }
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  p.root_dir = d;
  return p;
}

}  // namespace rubric
