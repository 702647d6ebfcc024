#include "operators/files/safe_open.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rubric::files {

const char* file_kind(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFIFO: return "named pipe (FIFO)";
    case S_IFSOCK: return "socket";
    case S_IFCHR: return "character device";
    case S_IFBLK: return "block device";
    case S_IFDIR: return "directory";
    case S_IFLNK: return "symbolic link";
    case S_IFREG: return "regular file";
    default: return "special file";
  }
}

std::string size_text(std::uint64_t bytes) {
  static const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double v = double(bytes);
  int u = -1;
  while (v >= 1024 && u < 3) { v /= 1024; ++u; }
  if (v == double(std::uint64_t(v))) return fmt::format("{} {}", std::uint64_t(v), units[u]);
  return fmt::format("{:.1f} {}", v, units[u]);
}

OpenFile& OpenFile::operator=(OpenFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    size_ = o.size_;
    allocated_ = o.allocated_;
    o.fd_ = -1;
  }
  return *this;
}

OpenFile::~OpenFile() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

[[noreturn]] void not_regular(const std::string& shown, unsigned mode) {
  throw FileError(fmt::format("{}: is a {}, not a regular file", shown, file_kind(mode)));
}

}  // namespace

OpenFile open_regular(const std::string& path, const std::string& shown) {
  // stat first: opening a FIFO blocks (without O_NONBLOCK) and opening a device can act on it.
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0)
    throw FileError(fmt::format("{}: cannot be read: {}", shown, std::strerror(errno)));
  if (!S_ISREG(before.st_mode)) not_regular(shown, before.st_mode);
  // O_NONBLOCK: should the path have become a FIFO since the stat, the open still returns at once.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw FileError(fmt::format("{}: cannot be read: {}", shown, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw FileError(fmt::format("{}: cannot be read: {}", shown, std::strerror(err)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    not_regular(shown, st.st_mode);
  }
  // Reads of a regular file never block; clear the flag anyway so nothing downstream sees EAGAIN.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return OpenFile(fd, std::uint64_t(st.st_size), std::uint64_t(st.st_blocks) * 512);
}

void check_regular(const std::string& path, const std::string& shown) { (void)open_regular(path, shown); }

void check_cap(const OpenFile& f, const std::string& shown, std::uint64_t cap, const std::string& purpose) {
  if (f.size() > cap)
    throw FileError(fmt::format("{}: {} is more than the {} limit for {}", shown, size_text(f.size()), size_text(cap),
                                purpose));
}

// Spare bytes reserved past a text read whole (see read_capped).
constexpr std::size_t kReadSlack = 64;

std::string read_capped(const OpenFile& f, const std::string& shown, std::uint64_t cap, const std::string& purpose) {
  check_cap(f, shown, cap, purpose);
  // Spare capacity past the text lets a parser that reads a few bytes beyond the end (simdjson's
  // padding) read the text where it is instead of copying it.
  std::string out;
  out.reserve(std::size_t(f.size()) + kReadSlack);
  out.resize(std::size_t(f.size()));
  std::size_t got = 0;
  // Read to EOF: a file that grew since fstat is read up to the cap (and fails past it), one that
  // shrank is read as it now is.
  for (;;) {
    if (got == out.size()) {
      // A byte's probe tells the end of the file before the buffer grows: growing first held (and
      // zeroed) twice the file for every file read whole.
      char probe;
      ssize_t n = ::pread(f.fd(), &probe, 1, off_t(got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      if (out.size() >= cap)
        throw FileError(fmt::format("{}: grew past the {} limit for {} while being read", shown, size_text(cap), purpose));
      out.resize(std::size_t(std::min<std::uint64_t>(cap, std::max<std::uint64_t>(out.size() * 2, 4096))));
    }
    ssize_t n = ::pread(f.fd(), out.data() + got, out.size() - got, off_t(got));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw FileError(fmt::format("{}: cannot be read: {}", shown, std::strerror(errno)));
    }
    if (n == 0) break;
    got += std::size_t(n);
  }
  out.resize(got);
  return out;
}

std::string read_capped(const std::string& path, const std::string& shown, std::uint64_t cap, const std::string& purpose) {
  return read_capped(open_regular(path, shown), shown, cap, purpose);
}

std::string read_at(const OpenFile& f, std::uint64_t offset, std::size_t n, const std::string& shown) {
  std::string out(n, '\0');
  std::size_t got = 0;
  while (got < n) {
    ssize_t r = ::pread(f.fd(), out.data() + got, n - got, off_t(offset + got));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw FileError(fmt::format("{}: cannot be read: {}", shown, std::strerror(errno)));
    }
    if (r == 0) break;
    got += std::size_t(r);
  }
  out.resize(got);
  return out;
}

}  // namespace rubric::files
