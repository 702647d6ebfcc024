#include "operators/files/sparse_copy.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstring>
#include <memory>

namespace rubric::files {
namespace {

// Falls back to read/write where copy_file_range is refused (EXDEV on old kernels, some filesystems).
bool copy_range(int in, int out, off_t from, off_t to) {
  off_t in_off = from, out_off = from;
  while (in_off < to) {
    ssize_t n = ::copy_file_range(in, &in_off, out, &out_off, std::size_t(to - in_off), 0);
    if (n > 0) continue;
    if (n == 0) return true;  // the file shrank
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return false;
    char buf[1 << 16];
    while (in_off < to) {
      ssize_t r = ::pread(in, buf, std::size_t(std::min<off_t>(sizeof buf, to - in_off)), in_off);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return r == 0;
      for (ssize_t done = 0; done < r;) {
        ssize_t w = ::pwrite(out, buf + done, std::size_t(r - done), out_off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        done += w;
        out_off += w;
      }
      in_off += r;
    }
  }
  return true;
}

struct Dir {
  DIR* d;
  ~Dir() { if (d) ::closedir(d); }
};

class TreeCopier {
 public:
  TreeCopier(const CopyBudget& b, std::string label) : budget_(b), label_(std::move(label)) {}
  CopyReport report;
  std::string root_;  // the copy's root, for the length of the paths under it

  void copy_dir(int src_dir, const std::string& dest, const std::string& rel, mode_t mode, int depth) {
    if (::mkdir(dest.c_str(), 0700) != 0)
      throw OperatorError(fmt::format("cannot create {} in the scratch directory: {}", dest, std::strerror(errno)));
    int fd = ::dup(src_dir);
    Dir dir{::fdopendir(fd)};
    if (!dir.d) {
      ::close(fd);
      throw FileError(fmt::format("{}: cannot list {}: {}", label_, shown(rel), std::strerror(errno)));
    }
    while (struct dirent* e = ::readdir(dir.d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      const std::string child_rel = rel.empty() ? name : rel + "/" + name;
      if (++report.entries > budget_.entries)
        throw BudgetExceeded(fmt::format("{} has more than {} files and folders (the limit for a run's copy)", label_,
                                         budget_.entries));
      struct stat st {};
      if (::fstatat(src_dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // vanished
      const std::string child_dest = dest + "/" + name;
      check_copy_path(label_, root_, child_rel, S_ISDIR(st.st_mode) ? depth + 1 : depth);
      if (S_ISDIR(st.st_mode)) {
        int sub = ::openat(src_dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) throw FileError(fmt::format("{}: cannot open {}: {}", label_, child_rel, std::strerror(errno)));
        try {
          copy_dir(sub, child_dest, child_rel, st.st_mode, depth + 1);
        } catch (...) {
          ::close(sub);
          throw;
        }
        ::close(sub);
      } else if (S_ISLNK(st.st_mode)) {
        copy_link(src_dir, name, child_dest);
      } else if (S_ISREG(st.st_mode)) {
        copy_file(src_dir, name, child_dest, child_rel, st);
      } else {
        report.skipped.push_back(fmt::format("{} ({})", child_rel, file_kind(st.st_mode)));
      }
    }
    ::chmod(dest.c_str(), mode & 07777);
  }

 private:
  std::string shown(const std::string& rel) const { return rel.empty() ? "." : rel; }

  // Out of copy_dir so that its link buffer is not part of every level of the recursion.
  [[gnu::noinline]] static void copy_link(int src_dir, const std::string& name, const std::string& dest) {
    char target[4096];
    ssize_t n = ::readlinkat(src_dir, name.c_str(), target, sizeof target - 1);
    if (n < 0) return;
    target[n] = '\0';
    if (::symlink(target, dest.c_str()) != 0)
      throw OperatorError(fmt::format("cannot create {}: {}", dest, std::strerror(errno)));
  }

  void copy_file(int src_dir, const std::string& name, const std::string& dest, const std::string& rel,
                 const struct stat& st) {
    // O_NONBLOCK: the entry may have been replaced by a FIFO since fstatat.
    int in = ::openat(src_dir, name.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (in < 0) throw FileError(fmt::format("{}: cannot read {}: {}", label_, rel, std::strerror(errno)));
    struct stat now {};
    if (::fstat(in, &now) != 0 || !S_ISREG(now.st_mode)) {
      ::close(in);
      report.skipped.push_back(fmt::format("{} ({})", rel, file_kind(now.st_mode)));
      return;
    }
    int out = ::open(dest.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
      const int err = errno;
      ::close(in);
      throw OperatorError(fmt::format("cannot create {}: {}", dest, std::strerror(err)));
    }
    try {
      report.data_bytes +=
          copy_file_data(in, out, std::uint64_t(now.st_size), rel, budget_.data_bytes - report.data_bytes);
    } catch (const BudgetExceeded&) {
      ::close(in);
      ::close(out);
      throw BudgetExceeded(fmt::format("{} holds more than {} of file data (the limit for a run's copy; {} is where it "
                                       "ran out)",
                                       label_, size_text(budget_.data_bytes), rel));
    } catch (...) {
      ::close(in);
      ::close(out);
      throw;
    }
    ::fchmod(out, st.st_mode & 07777);
    const struct timespec times[2] = {st.st_atim, st.st_mtim};
    ::futimens(out, times);
    ::close(in);
    ::close(out);
  }

  CopyBudget budget_;
  std::string label_;
};

}  // namespace

void check_copy_path(const std::string& label, const std::string& dest_root, const std::string& rel, int depth) {
  // The message shows the start of the path: the whole of it may be thousands of characters.
  auto start = [&] { return rel.size() > 120 ? rel.substr(0, 120) + "..." : rel; };
  if (depth > kMaxCopyDepth)
    throw BudgetExceeded(fmt::format("{} nests folders more than {} deep (the limit for a copy; {} is where it ran out)",
                                     label, kMaxCopyDepth, start()));
  if (dest_root.size() + 1 + rel.size() >= PATH_MAX)
    throw BudgetExceeded(fmt::format("{} holds a path of {} characters, too long for a copy (at most {} with the copy's own folder): {}",
                                     label, rel.size(), PATH_MAX - 1, start()));
}

std::uint64_t copy_file_data(int in, int out, std::uint64_t size, const std::string& shown, std::uint64_t budget_left) {
  std::uint64_t copied = 0;
  off_t pos = 0;
  const off_t end = off_t(size);
  while (pos < end) {
    off_t data = ::lseek(in, pos, SEEK_DATA);
    if (data < 0) {
      if (errno == ENXIO) break;  // only a hole is left
      data = pos;                 // SEEK_DATA unsupported: treat the rest as data
    }
    if (data >= end) break;
    off_t hole = ::lseek(in, data, SEEK_HOLE);
    if (hole < 0 || hole > end) hole = end;
    const std::uint64_t n = std::uint64_t(hole - data);
    if (n > budget_left - copied) throw BudgetExceeded(fmt::format("{}: more data than the copy's budget", shown));
    if (!copy_range(in, out, data, hole))
      throw OperatorError(fmt::format("cannot copy {}: {}", shown, std::strerror(errno)));
    copied += n;
    pos = hole;
  }
  // The apparent size, holes at the end included.
  if (::ftruncate(out, end) != 0) throw OperatorError(fmt::format("cannot copy {}: {}", shown, std::strerror(errno)));
  return copied;
}

CopyReport copy_tree_sparse(const std::string& source, const std::string& dest, const CopyBudget& budget,
                            const std::string& label) {
  int src = ::open(source.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (src < 0) throw FileError(fmt::format("{} cannot be opened: {}", label, std::strerror(errno)));
  struct stat st {};
  ::fstat(src, &st);
  TreeCopier copier(budget, label);
  copier.root_ = dest;
  try {
    copier.copy_dir(src, dest, "", st.st_mode, 0);
  } catch (...) {
    ::close(src);
    throw;
  }
  ::close(src);
  return copier.report;
}

}  // namespace rubric::files
