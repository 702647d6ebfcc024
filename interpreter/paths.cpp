#include "interpreter/paths.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "grammar/suggest.hpp"

namespace rubric {

namespace {

std::optional<std::string> real_path(const std::string& p) {
  char buf[PATH_MAX];
  if (!::realpath(p.c_str(), buf)) return std::nullopt;
  return std::string(buf);
}

bool inside_root(const std::string& path, const std::string& root) {
  return path == root || root == "/" ||
         (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

// The same relative path in a folder just below the root (a `reference/` beside the rubric when
// --reference was forgotten): "; its subfolder reference/ holds softmax.npy: give that folder as --reference".
std::string found_below(const PathValue& p) {
  constexpr int kFoldersLooked = 100;
  DIR* dir = ::opendir(p.root_dir.c_str());
  if (!dir) return "";
  std::string found;  // the subfolder's name
  int looked = 0;
  while (found.empty() && looked++ < kFoldersLooked) {
    const dirent* e = ::readdir(dir);
    if (!e) break;
    if (e->d_name[0] == '.') continue;
    struct stat st;
    if (::stat((p.root_dir + "/" + e->d_name + "/" + p.relative).c_str(), &st) == 0 && S_ISREG(st.st_mode)) found = e->d_name;
  }
  ::closedir(dir);
  return found.empty() ? "" : fmt::format("; its subfolder {}/ holds {}: give that folder as --reference", found, p.relative);
}

// After "no such file": what the folder holds that the rubric may have meant. Near misses by name
// (`ANSWER.txt` for `answer.md`); for the submission's own folder, when there are none, what it
// holds when that is short, or that it is empty. Only a folder inside the root is read, and at
// most kMaxListed entries of it (a hostile folder of a million files costs nothing more).
std::string folder_hint(const PathValue& p, const std::string& root_real) {
  constexpr std::size_t kMaxListed = 10000, kShown = 8;
  const std::size_t slash = p.relative.rfind('/');
  const std::string name = slash == std::string::npos ? p.relative : p.relative.substr(slash + 1);
  const std::string folder_rel = slash == std::string::npos ? "" : p.relative.substr(0, slash);
  const std::string folder_shown = (folder_rel.empty() ? p.root : p.root + "/" + folder_rel) + "/";
  // Where a root like `reference` points and how it was chosen: a forgotten --reference shows here.
  const std::string origin =
      p.root_origin ? fmt::format("; {}{}", *p.root_origin, found_below(p)) : "";
  auto folder_real = real_path(folder_rel.empty() ? p.root_dir : p.root_dir + "/" + folder_rel);
  if (name.empty() || !folder_real || !inside_root(*folder_real, root_real)) return origin;
  DIR* dir = ::opendir(folder_real->c_str());
  if (!dir) return origin;
  std::vector<std::string> entries;
  while (entries.size() < kMaxListed) {
    const dirent* e = ::readdir(dir);
    if (!e) break;
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) entries.emplace_back(e->d_name);
  }
  ::closedir(dir);
  std::sort(entries.begin(), entries.end());
  auto listed = [&](const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > kShown) out += fmt::format(", ... ({} in all)", names.size());
    return out;
  };
  if (auto near = near_miss_files(name, entries); !near.empty())
    return fmt::format("; near misses in {}: {}{}", folder_shown, listed(near), origin);
  if (p.root != "submission") return origin;
  if (entries.empty()) return fmt::format("; {} is empty", folder_shown);
  if (entries.size() <= kShown) return fmt::format("; {} holds: {}", folder_shown, listed(entries));
  return "";
}

// The symbolic link through which `relative` leaves the root, followed as the kernel would but
// taking missing parts lexically (a link to a file that does not exist outside the root still
// escapes): the first link in the written path and its target, or nullopt when the path stays inside.
struct Escape {
  std::string link;    // relative to the root, as written
  std::string target;  // what the link says
};

std::optional<Escape> escaping_link(const std::string& root_real, const std::string& relative) {
  std::vector<std::string> todo;  // components still to walk, the next one last
  auto push_front = [&](const std::string& path) {
    std::vector<std::string> parts;
    std::size_t pos = 0;
    while (pos <= path.size()) {
      std::size_t next = path.find('/', pos);
      parts.push_back(path.substr(pos, next == std::string::npos ? std::string::npos : next - pos));
      if (next == std::string::npos) break;
      pos = next + 1;
    }
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) todo.push_back(*it);
  };
  push_front(relative);
  std::string cur = root_real, written;
  std::optional<Escape> first;
  int hops = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.back());
    todo.pop_back();
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      std::size_t slash = cur.rfind('/');
      cur = slash == 0 || slash == std::string::npos ? "/" : cur.substr(0, slash);
      continue;
    }
    std::string next = cur == "/" ? "/" + c : cur + "/" + c;
    if (!first) written += (written.empty() ? "" : "/") + c;
    struct stat st;
    if (::lstat(next.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      cur = next;
      continue;
    }
    if (++hops > 40) return std::nullopt;  // a loop: reported as such by the caller
    char target[PATH_MAX];
    ssize_t n = ::readlink(next.c_str(), target, sizeof target - 1);
    if (n <= 0) return std::nullopt;
    target[n] = 0;
    if (!first) first = Escape{written, target};
    if (target[0] == '/') cur = "/";
    push_front(target);
  }
  if (first && !inside_root(cur, root_real)) return first;
  return std::nullopt;
}

std::string escape_message(const PathValue& p, const Escape& e) {
  const std::string link = p.root + "/" + e.link;
  if (link == p.display())
    return fmt::format("{} escapes the {} folder: it is a symbolic link to '{}' (refused; links may not leave the folder)",
                       p.display(), p.root, e.target);
  return fmt::format("{} escapes the {} folder through the symbolic link {} (to '{}'; refused, links may not leave the folder)",
                     p.display(), p.root, link, e.target);
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
    r.message = r.status == PathStatus::missing ? fmt::format("{}: no such file{}", p.display(), folder_hint(p, *root_real))
                                                : fmt::format("{}: cannot resolve ({})", p.display(), std::strerror(err));
    if (err == ELOOP) {
      // Links pointing at each other (or too deep a chain): a loop, whatever each link's target is.
      r.status = PathStatus::missing;
      r.message = fmt::format("{}: a symbolic link loop (the links never reach a file)", p.display());
      return r;
    }
    if (auto e = escaping_link(*root_real, p.relative)) {
      r.status = PathStatus::escapes;
      r.message = escape_message(p, *e);
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
    auto e = escaping_link(root, p.relative);
    r.message = e ? escape_message(p, *e)
                  : fmt::format("{} escapes the {} folder (refused; symbolic links may not leave the folder)", p.display(), p.root);
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
