#include "grading/folder_hash.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "operators/digest/sha256.hpp"

namespace rubric::grading {
namespace {

namespace fs = std::filesystem;

// Entries are framed by their lengths so that no two different folders hash alike.
void add_field(digest::Sha256& h, const std::string& s) {
  const std::uint64_t n = s.size();
  h.update(&n, sizeof n);
  h.update(s);
}

void add_file(digest::Sha256& h, const fs::path& path) {
  // O_NOFOLLOW | O_NONBLOCK: the entry was a regular file when listed; never follow a link swapped
  // in since, never block on a FIFO.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot read '{}': {}", path.string(), std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    add_field(h, "special");
    return;
  }
  const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
  h.update(&size, sizeof size);
  // The mode is part of what a check sees (a run.sh at 0644 cannot be run): a chmod regrades.
  const std::uint32_t mode = static_cast<std::uint32_t>(st.st_mode & 07777);
  h.update(&mode, sizeof mode);
  std::vector<char> buffer(1 << 16);
  for (;;) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      ::close(fd);
      throw std::runtime_error(fmt::format("cannot read '{}': {}", path.string(), std::strerror(err)));
    }
    if (got == 0) break;
    h.update(buffer.data(), static_cast<std::size_t>(got));
  }
  ::close(fd);
}

void add_folder(digest::Sha256& h, const fs::path& root, const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(*it);
  if (ec) throw std::runtime_error(fmt::format("cannot list '{}': {}", dir.string(), ec.message()));
  std::sort(entries.begin(), entries.end(),
            [](const fs::directory_entry& a, const fs::directory_entry& b) { return a.path().filename() < b.path().filename(); });
  for (const fs::directory_entry& e : entries) {
    const fs::path rel = e.path().lexically_relative(root);
    const fs::file_status st = e.symlink_status(ec);
    add_field(h, rel.generic_string());
    if (fs::is_symlink(st)) {
      add_field(h, "link");
      add_field(h, fs::read_symlink(e.path(), ec).string());
    } else if (fs::is_directory(st)) {
      add_field(h, "dir");
      add_folder(h, root, e.path());
    } else if (fs::is_regular_file(st)) {
      add_field(h, "file");
      add_file(h, e.path());
    } else {
      add_field(h, "special");
    }
  }
}

}  // namespace

std::string hash_folder(const std::string& dir) {
  digest::Sha256 h;
  add_field(h, "rubric-folder-hash-1");
  add_folder(h, fs::path(dir), fs::path(dir));
  return h.hex_digest();
}

}  // namespace rubric::grading
