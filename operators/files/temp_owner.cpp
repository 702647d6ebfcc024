#include "operators/files/temp_owner.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "operators/files/remove_tree.hpp"

namespace rubric::files {

TempOwner::~TempOwner() {
  if (fd_ >= 0) ::close(fd_);
}

TempOwner::TempOwner(TempOwner&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

TempOwner& TempOwner::operator=(TempOwner&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

TempOwner TempOwner::claim(const std::string& dir, std::string* why) {
  const std::string staging = dir + "/.owner-claim";
  const std::string final_name = dir + "/" + kOwnerFile;
  int fd = ::open(staging.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (why) *why = fmt::format("cannot create {}: {}", staging, std::strerror(errno));
    return {};
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::rename(staging.c_str(), final_name.c_str()) != 0) {
    if (why) *why = fmt::format("cannot lock {}: {}", final_name, std::strerror(errno));
    ::unlink(staging.c_str());
    ::close(fd);
    return {};
  }
  return TempOwner(fd);
}

void TempOwner::disown(const std::string& dir) {
  ::unlink((dir + "/" + kOwnerFile).c_str());
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

void TempOwner::remove(const std::string& dir) {
  remove_tree(dir);
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

const std::vector<std::string>& owned_temp_prefixes() {
  static const std::vector<std::string> prefixes = {"rubric-run-", "rubric-gpu-", "rubric-compile-", "rubric-sandbox-"};
  return prefixes;
}

std::string temp_base() {
  const char* env = std::getenv("TMPDIR");
  return env && *env ? env : "/tmp";
}

std::vector<std::string> owned_temp_bases() {
  std::vector<std::string> bases{temp_base()};
  if (bases.front() != "/tmp") bases.emplace_back("/tmp");
  return bases;
}

namespace {

bool has_owned_prefix(const char* name) {
  for (const std::string& p : owned_temp_prefixes())
    if (std::strncmp(name, p.c_str(), p.size()) == 0) return true;
  return false;
}

// One candidate folder: kept, removed, or left unprovable. The lock taken here is held until the
// folder is gone, so a concurrent sweep sees it as live and leaves it alone.
void sweep_one(int base_fd, const std::string& base, const char* name, RemoveBudget& budget, SweepReport& report) {
  ++report.examined;
  // One stat first: most folders a sweep meets are live or carry no `.owner` (made before owners
  // existed); only a candidate is opened. Never followed: the opens below refuse links.
  struct stat pre;
  if (::fstatat(base_fd, (std::string(name) + "/" + kOwnerFile).c_str(), &pre, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISREG(pre.st_mode)) {
    ++report.unprovable;
    return;
  }
  int dir_fd = ::openat(base_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir_fd < 0) {
    ++report.unprovable;
    return;
  }
  struct stat st;
  const uid_t me = ::geteuid();
  if (::fstat(dir_fd, &st) != 0 || (me != 0 && st.st_uid != me)) {
    ::close(dir_fd);
    ++report.unprovable;
    return;
  }
  int owner_fd = ::openat(dir_fd, kOwnerFile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat ost;
  if (owner_fd < 0 || ::fstat(owner_fd, &ost) != 0 || !S_ISREG(ost.st_mode)) {
    if (owner_fd >= 0) ::close(owner_fd);
    ::close(dir_fd);
    ++report.unprovable;
    return;
  }
  if (::flock(owner_fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(owner_fd);
    ::close(dir_fd);
    ++report.kept_live;
    return;
  }
  std::string why;
  bool ok = empty_folder(dir_fd, budget, &why, kOwnerFile);
  if (ok && ::unlinkat(dir_fd, kOwnerFile, 0) != 0 && errno != ENOENT) ok = false, why = std::strerror(errno);
  ::close(dir_fd);
  if (ok && ::unlinkat(base_fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT) ok = false, why = std::strerror(errno);
  ::close(owner_fd);
  if (ok) {
    ++report.removed;
  } else {
    ++report.unfinished;
    report.errors.push_back(fmt::format("{}/{}: {}", base, name, why));
  }
}

}  // namespace

SweepReport sweep_stale_temp_dirs(const std::vector<std::string>& bases, const SweepLimits& limits) {
  SweepReport report;
  RemoveBudget budget{limits.max_entries};
  for (const std::string& base : bases) {
    int base_fd = ::open(base.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (base_fd < 0) continue;
    int list_fd = ::dup(base_fd);
    DIR* d = list_fd >= 0 ? ::fdopendir(list_fd) : nullptr;
    if (!d) {
      if (list_fd >= 0) ::close(list_fd);
      ::close(base_fd);
      continue;
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
      if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) continue;  // links and files are never ours to judge
      if (has_owned_prefix(e->d_name)) names.emplace_back(e->d_name);
    }
    ::closedir(d);
    for (const std::string& name : names) {
      if (budget.entries_left == 0) break;
      sweep_one(base_fd, base, name.c_str(), budget, report);
    }
    ::close(base_fd);
  }
  return report;
}

}  // namespace rubric::files
