#include "operators/cuda/source_snapshot.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "operators/digest/content_digest.hpp"
#include "operators/error.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/files/sparse_copy.hpp"

namespace rubric::cuda {

namespace {

// Out of copy_dir so that its link buffer is not part of every level of the recursion.
[[gnu::noinline]] void copy_link(int dir_fd, const std::string& name, const std::string& dest) {
  char target[4096];
  ssize_t n = ::readlinkat(dir_fd, name.c_str(), target, sizeof target - 1);
  if (n > 0 && ::symlink(std::string(target, std::size_t(n)).c_str(), dest.c_str()) != 0)
    throw EnvironmentError(fmt::format("cannot create {}: {}", dest, std::strerror(errno)));
}

// Reads a whole small file for the digest (its size was checked against the per-file limit).
std::string read_small(int fd, std::uint64_t size, const std::string& rel) {
  std::string data(size, '\0');
  std::uint64_t got = 0;
  while (got < size) {
    ssize_t n = ::pread(fd, data.data() + got, size - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw OperatorError(fmt::format("cannot read {}: {}", rel, std::strerror(errno)));
    if (n == 0) break;
    got += static_cast<std::uint64_t>(n);
  }
  data.resize(got);
  return data;
}

struct Walk {
  const SnapshotLimits& limits;
  const std::string& label;
  SnapshotReport report;
  digest::ContentDigest* digest = nullptr;  // set: the walk only hashes what a copy would hold, and copies nothing

  void count(const std::string& rel) {
    if (++report.entries > limits.entries)
      throw files::BudgetExceeded(fmt::format("{} holds more than {} entries (the limit for a compile's copy; {} is where "
                                              "it ran out)", label, limits.entries, rel));
  }

  std::string root;  // the copy's root, for the length of the paths under it

  files::BudgetExceeded over_total(const std::string& rel) const {
    return files::BudgetExceeded(fmt::format("{} holds more than {} of files under {} each (the limit for a compile's "
                                             "copy; {} is where it ran out)", label, files::size_text(limits.total_bytes),
                                             files::size_text(limits.file_bytes), rel));
  }

  // `dir_fd` is open on the source folder; `to` exists.
  void copy_dir(int dir_fd, const std::string& to, const std::string& rel_prefix, int depth) {
    DIR* d = ::fdopendir(dir_fd);
    if (!d) {
      ::close(dir_fd);
      return;
    }
    std::unique_ptr<DIR, int (*)(DIR*)> guard(d, ::closedir);
    // In name order, so that the same tree always hashes the same.
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      const std::string rel = rel_prefix.empty() ? name : rel_prefix + "/" + name;
      const std::string dest = to + "/" + name;
      struct stat st;
      if (::fstatat(::dirfd(d), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      files::check_copy_path(label, root, rel, S_ISDIR(st.st_mode) ? depth + 1 : depth);
      if (S_ISDIR(st.st_mode)) {
        count(rel);
        int sub = ::openat(::dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) continue;
        if (digest) {
          digest->add_part("dir").add_part(rel);
          copy_dir(sub, dest, rel, depth + 1);
          continue;
        }
        if (::mkdir(dest.c_str(), 0755) != 0) {
          ::close(sub);
          throw EnvironmentError(fmt::format("cannot create {}: {}", dest, std::strerror(errno)));
        }
        ::chmod(dest.c_str(), 0755);  // the compiler's uid reads the copy whatever the grader's umask
        copy_dir(sub, dest, rel, depth + 1);
      } else if (S_ISLNK(st.st_mode)) {
        count(rel);
        if (digest) {
          char target[4096];
          ssize_t n = ::readlinkat(::dirfd(d), name.c_str(), target, sizeof target - 1);
          digest->add_part("link").add_part(rel).add_part(std::string_view(target, n > 0 ? std::size_t(n) : 0));
          continue;
        }
        copy_link(::dirfd(d), name, dest);
      } else if (S_ISREG(st.st_mode)) {
        if (std::uint64_t(st.st_size) > limits.file_bytes) {
          report.left_out.push_back(fmt::format("{} ({})", rel, files::size_text(std::uint64_t(st.st_size))));
          continue;
        }
        count(rel);
        int in = ::openat(::dirfd(d), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (in < 0) continue;
        struct stat now;
        if (::fstat(in, &now) != 0 || !S_ISREG(now.st_mode) || std::uint64_t(now.st_size) > limits.file_bytes) {
          ::close(in);
          continue;
        }
        if (digest) {
          std::unique_ptr<int, void (*)(int*)> closer(&in, [](int* f) { ::close(*f); });
          if (report.bytes + std::uint64_t(now.st_size) > limits.total_bytes) throw over_total(rel);
          std::string data = read_small(in, std::uint64_t(now.st_size), rel);
          report.bytes += data.size();
          digest->add_part("file").add_part(rel).add_part(fmt::format("{:o}", now.st_mode & 07777)).add_part(data);
          continue;
        }
        int out = ::open(dest.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (out < 0) {
          ::close(in);
          throw EnvironmentError(fmt::format("cannot create {}: {}", dest, std::strerror(errno)));
        }
        ::fchmod(out, 0644);
        try {
          if (report.bytes + std::uint64_t(now.st_size) > limits.total_bytes) throw over_total(rel);
          report.bytes += files::copy_file_data(in, out, std::uint64_t(now.st_size), rel, limits.total_bytes - report.bytes);
        } catch (...) {
          ::close(in);
          ::close(out);
          throw;
        }
        ::close(in);
        ::close(out);
      } else {
        report.left_out.push_back(fmt::format("{} ({})", rel, files::file_kind(st.st_mode)));
      }
    }
  }
};

}  // namespace

SnapshotReport snapshot_sources(const std::string& from, const std::string& to, const SnapshotLimits& limits,
                                const std::string& label) {
  int fd = ::open(from.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw OperatorError(fmt::format("cannot open {}: {}", from, std::strerror(errno)));
  if (::mkdir(to.c_str(), 0755) != 0 && errno != EEXIST) {
    ::close(fd);
    throw EnvironmentError(fmt::format("cannot create {}: {}", to, std::strerror(errno)));
  }
  ::chmod(to.c_str(), 0755);
  Walk w{limits, label, {}, nullptr, to};
  w.copy_dir(fd, to, "", 0);
  return w.report;
}

std::string source_digest(const std::string& from, const SnapshotLimits& limits, const std::string& label) {
  int fd = ::open(from.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw OperatorError(fmt::format("cannot open {}: {}", from, std::strerror(errno)));
  digest::ContentDigest digest;
  Walk w{limits, label, {}, &digest, from};
  w.copy_dir(fd, "", "", 0);
  return digest.hex();
}

}  // namespace rubric::cuda
