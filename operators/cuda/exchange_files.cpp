#include "operators/cuda/exchange_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "operators/files/safe_open.hpp"

namespace rubric::cuda {

namespace {

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

int create_exclusive(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST)
    throw ExchangeError(fmt::format("{} already exists in the worker's exchange folder (planted by the candidate?)", path));
  if (fd < 0) throw EnvironmentError(fmt::format("cannot create {}: {}", path, std::strerror(errno)));
  ::fchmod(fd, 0644);  // readable by the worker's uid whatever the grader's umask (077 hid every input)
  return fd;
}

void write_all(int fd, const char* p, std::size_t n, const std::string& path) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw EnvironmentError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
    p += w;
    n -= std::size_t(w);
  }
}

}  // namespace

std::string exchange_name(const std::string& dir, std::string_view stem) {
  static thread_local std::mt19937_64 gen{(std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}()};
  return fmt::format("{}/{}-{:016x}.bin", dir, stem, gen());
}

void write_exchange_file(const std::string& path, const void* data, std::size_t bytes) {
  Fd f{create_exclusive(path)};
  write_all(f.fd, static_cast<const char*>(data), bytes, path);
}

void copy_into_exchange(const std::string& path, const std::string& source, std::uint64_t offset, std::size_t bytes) {
  files::OpenFile in = files::open_regular(source, source);
  if (in.size() < offset + bytes)
    throw ExchangeError(fmt::format("{} holds {} bytes; {} are needed from offset {}", source, in.size(), bytes, offset));
  Fd out{create_exclusive(path)};
  loff_t from = loff_t(offset);
  std::size_t left = bytes;
  while (left > 0) {
    ssize_t n = ::copy_file_range(in.fd(), &from, out.fd, nullptr, left, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // not supported across these filesystems: copy by hand below
    left -= std::size_t(n);
  }
  std::vector<char> buf(left ? std::min<std::size_t>(left, 1 << 20) : 0);
  while (left > 0) {
    ssize_t n = ::pread(in.fd(), buf.data(), std::min(left, buf.size()), off_t(from));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw OperatorError(fmt::format("cannot read {}: {}", source, n < 0 ? std::strerror(errno) : "it shrank"));
    write_all(out.fd, buf.data(), std::size_t(n), path);
    from += n;
    left -= std::size_t(n);
  }
}

std::vector<unsigned char> read_exchange_file(const std::string& path, std::size_t expected, std::string_view shown) {
  Fd f{::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0)
    throw ExchangeError(fmt::format("{}: the worker left no readable file ({})", shown,
                                    errno == ELOOP ? "a symbolic link" : std::strerror(errno)));
  struct stat st;
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw ExchangeError(fmt::format("{}: the worker left a {}, not a regular file", shown, files::file_kind(st.st_mode)));
  if (std::uint64_t(st.st_size) != expected)
    throw ExchangeError(fmt::format("{}: the worker's file holds {} bytes, expected {}", shown, st.st_size, expected));
  std::vector<unsigned char> out(expected);
  std::size_t got = 0;
  while (got < expected) {
    ssize_t n = ::pread(f.fd, out.data() + got, expected - got, off_t(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ExchangeError(fmt::format("{}: the worker's file shrank while it was read", shown));
    got += std::size_t(n);
  }
  return out;
}

}  // namespace rubric::cuda
