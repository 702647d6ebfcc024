#include "operators/files/remove_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace rubric::files {

namespace {

// Deeper trees than this are left (a candidate can nest folders without end; each level holds a
// descriptor while it is emptied).
constexpr int kMaxDepth = 256;

void note(std::string* why, const std::string& text) {
  if (why && why->empty()) *why = text;
}

// Opens the folder `name` in `parent_fd` for emptying without following a link, first giving it
// u+rwx when it is ours and lacks them (a candidate's chmod 0500): the mode is changed through an
// O_PATH descriptor of the folder itself, so a link swapped in meanwhile is never what changes.
int open_folder_for_removal(int parent_fd, const char* name) {
  int path_fd = ::openat(parent_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (path_fd < 0) return -1;
  struct stat st;
  if (::fstat(path_fd, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0700) != 0700 &&
      (st.st_uid == ::geteuid() || ::geteuid() == 0)) {
    const std::string self = fmt::format("/proc/self/fd/{}", path_fd);
    ::chmod(self.c_str(), (st.st_mode & 07777) | 0700);
  }
  int fd = ::openat(path_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ::close(path_fd);
  return fd;
}

bool empty_at(int dir_fd, RemoveBudget& budget, std::string* why, const char* keep_last, int depth) {
  struct stat top;
  if (::fstat(dir_fd, &top) != 0) {
    note(why, fmt::format("cannot stat a folder: {}", std::strerror(errno)));
    return false;
  }
  int list_fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* d = list_fd >= 0 ? ::fdopendir(list_fd) : nullptr;
  if (!d) {
    if (list_fd >= 0) ::close(list_fd);
    note(why, fmt::format("cannot list a folder: {}", std::strerror(errno)));
    return false;
  }
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    if (keep_last && std::strcmp(e->d_name, keep_last) == 0) continue;
    names.emplace_back(e->d_name);
  }
  ::closedir(d);
  bool ok = true;
  for (const std::string& name : names) {
    if (budget.entries_left == 0) {
      note(why, "removal budget spent");
      return false;
    }
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno != ENOENT) ok = false, note(why, fmt::format("{}: {}", name, std::strerror(errno)));
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      if (st.st_dev != top.st_dev) {  // a mount point: another filesystem is never entered
        ok = false;
        note(why, fmt::format("{} is a mount point", name));
        continue;
      }
      if (depth >= kMaxDepth) {
        ok = false;
        note(why, fmt::format("folders nested deeper than {}", kMaxDepth));
        continue;
      }
      int child = open_folder_for_removal(dir_fd, name.c_str());
      if (child < 0) {
        ok = false;
        note(why, fmt::format("cannot open {}: {}", name, std::strerror(errno)));
        continue;
      }
      bool emptied = empty_at(child, budget, why, nullptr, depth + 1);
      ::close(child);
      if (!emptied) {
        ok = false;
        continue;
      }
      if (budget.entries_left == 0) {
        note(why, "removal budget spent");
        return false;
      }
      if (::unlinkat(dir_fd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
        ok = false;
        note(why, fmt::format("cannot remove {}: {}", name, std::strerror(errno)));
      }
      --budget.entries_left;
    } else {
      if (::unlinkat(dir_fd, name.c_str(), 0) != 0 && errno != ENOENT) {
        ok = false;
        note(why, fmt::format("cannot remove {}: {}", name, std::strerror(errno)));
      }
      --budget.entries_left;
    }
  }
  return ok;
}

}  // namespace

bool empty_folder(int dir_fd, RemoveBudget& budget, std::string* why, const char* keep_last) {
  return empty_at(dir_fd, budget, why, keep_last, 0);
}

bool remove_tree(const std::string& path, std::string* why) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const std::string parent = p.has_parent_path() ? p.parent_path().string() : ".";
  const std::string name = p.filename().string();
  int parent_fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (parent_fd < 0) {
    if (errno == ENOENT) return true;
    note(why, fmt::format("cannot open {}: {}", parent, std::strerror(errno)));
    return false;
  }
  bool ok = true;
  struct stat st;
  if (::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    ok = errno == ENOENT;
    if (!ok) note(why, fmt::format("cannot stat {}: {}", path, std::strerror(errno)));
  } else if (!S_ISDIR(st.st_mode)) {
    ok = ::unlinkat(parent_fd, name.c_str(), 0) == 0 || errno == ENOENT;
  } else {
    int fd = open_folder_for_removal(parent_fd, name.c_str());
    RemoveBudget budget;
    if (fd < 0) {
      ok = false;
      note(why, fmt::format("cannot open {}: {}", path, std::strerror(errno)));
    } else {
      // `.owner` last: a removal cut short still says whose folder this was.
      ok = empty_folder(fd, budget, why, ".owner");
      if (ok) ::unlinkat(fd, ".owner", 0);
      ::close(fd);
      if (ok && ::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
        ok = false;
        note(why, fmt::format("cannot remove {}: {}", path, std::strerror(errno)));
      }
    }
  }
  ::close(parent_fd);
  return ok;
}

}  // namespace rubric::files
