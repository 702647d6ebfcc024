#include "grading/results_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "operators/json/json_reader.hpp"

namespace rubric::grading {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(fmt::format("cannot {} '{}': {}", what, path, std::strerror(errno)));
}

void write_all(int fd, const char* data, std::size_t size, const std::string& path) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write", path);
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void sync_folder_of(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

const std::string& string_field(const json::Value& v, const char* key) {
  const json::Value* f = v.find(key);
  if (!f || !f->is_string()) throw std::runtime_error(fmt::format("no string field '{}'", key));
  return f->as_string();
}

}  // namespace

// The fields of a parsed line that every consumer needs, its run's part taken from `runs` (one
// value per distinct run key); throws std::runtime_error when a field is absent.
StoredResult stored_result_of(const json::Value& line, std::map<std::string, std::shared_ptr<const RunKey>>& runs) {
  StoredResult r;
  r.verdict = string_field(line, "verdict");
  RunKey run;
  if (const json::Value* key = line.find("key"); key && key->is_object()) {
    auto get = [&](const char* name) {
      const json::Value* f = key->find(name);
      return f && f->is_string() ? f->as_string() : std::string();
    };
    run.rubric_sha256 = get("rubric_sha256");
    r.submission_sha256 = get("submission_sha256");
    run.params_sha256 = get("params_sha256");
    run.tool_version = get("tool_version");
  }
  if (const json::Value* refs = line.find("reference_files"); refs && refs->is_array())
    for (const json::Value& f : refs->as_array())
      if (f.is_object()) run.reference_files.emplace_back(string_field(f, "path"), string_field(f, "xxh3_128"));
  // Lengths first, so that no two distinct keys spell the same text.
  std::string id = fmt::format("{}:{}{}:{}{}:{}", run.rubric_sha256.size(), run.rubric_sha256, run.params_sha256.size(),
                               run.params_sha256, run.tool_version.size(), run.tool_version);
  for (const auto& [path, hash] : run.reference_files) id += fmt::format("{}:{}{}:{}", path.size(), path, hash.size(), hash);
  auto [it, inserted] = runs.emplace(std::move(id), nullptr);
  if (inserted) it->second = std::make_shared<const RunKey>(std::move(run));
  r.run = it->second;
  return r;
}

LoadedResults load_results(const std::string& path) {
  LoadedResults loaded;
  std::map<std::string, std::shared_ptr<const RunKey>> runs;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    if (errno == ENOENT) return loaded;
    fail("read", path);
  }
  char* buffer = nullptr;
  std::size_t capacity = 0;
  std::uint64_t offset = 0;
  std::size_t number = 0;
  ssize_t got;
  while ((got = ::getline(&buffer, &capacity, f)) > 0) {
    const bool complete = buffer[got - 1] == '\n';
    const std::string_view line(buffer, static_cast<std::size_t>(got) - (complete ? 1 : 0));
    ++number;
    const std::uint64_t start = offset;
    offset += static_cast<std::uint64_t>(got);
    if (line.empty()) continue;
    try {
      if (!complete) throw std::runtime_error("torn line");
      const json::Value parsed = json::parse(line, fmt::format("{}:{}", path, number));
      std::string submission = string_field(parsed, "submission");
      StoredResult r = stored_result_of(parsed, runs);
      r.offset = start;
      r.length = line.size();
      loaded.latest[std::move(submission)] = std::move(r);
      loaded.valid_bytes = offset;
    } catch (const std::exception&) {
      ++loaded.dropped_lines;
    }
  }
  std::free(buffer);
  std::fclose(f);
  return loaded;
}

ResultsAppender::ResultsAppender(std::string path, std::uint64_t valid_bytes) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("open", path_);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("stat", path_);
  if (static_cast<std::uint64_t>(st.st_size) != valid_bytes) {
    if (::ftruncate(fd_, static_cast<off_t>(valid_bytes)) != 0) fail("truncate", path_);
    ::fsync(fd_);
  }
  size_ = durable_ = valid_bytes;
  if (::lseek(fd_, static_cast<off_t>(size_), SEEK_SET) < 0) fail("seek in", path_);
  sync_folder_of(path_);  // a newly created file survives power loss
  syncer_ = std::thread([this] { sync_loop(); });
}

ResultsAppender::~ResultsAppender() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  syncer_.join();
  ::fdatasync(fd_);
  ::close(fd_);
}

void ResultsAppender::sync_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || durable_ < size_; });
    if (durable_ >= size_ && stopping_) return;
    // The lines that finish within a few milliseconds share one fdatasync (a group commit): a
    // sync per line cost the batch a disk flush per submission. sync() and the end cut it short.
    changed_.wait_for(lock, kGroupCommit, [&] { return stopping_ || waiting_ > 0; });
    const std::uint64_t target = size_;
    lock.unlock();
    const bool ok = ::fdatasync(fd_) == 0;
    const int err = errno;
    lock.lock();
    if (!ok && sync_error_.empty()) sync_error_ = fmt::format("cannot sync '{}': {}", path_, std::strerror(err));
    durable_ = std::max(durable_, target);
    changed_.notify_all();
  }
}

std::uint64_t ResultsAppender::append(const std::string& line) {
  std::string whole = line;
  whole.push_back('\n');
  std::uint64_t start;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!sync_error_.empty()) throw std::runtime_error(sync_error_);
    start = size_;
  }
  write_all(fd_, whole.data(), whole.size(), path_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    size_ += whole.size();
  }
  changed_.notify_all();
  return start;
}

void ResultsAppender::sync() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_;
  changed_.notify_all();
  changed_.wait(lock, [&] { return durable_ >= size_; });
  --waiting_;
  if (!sync_error_.empty()) throw std::runtime_error(sync_error_);
}

void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  for (fs::directory_iterator it(target.parent_path().empty() ? "." : target.parent_path(), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
        name.find_first_not_of("0123456789", prefix.size()) == std::string::npos && it->is_regular_file(ec))
      fs::remove(it->path(), ec);
  }
}

void write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFileWriter file(path);
  file.write(content);
  file.commit();
}

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  temp_ = fmt::format("{}.tmp.{}", path_, ::getpid());
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("write", temp_);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
  }
}

void AtomicFileWriter::write(std::string_view piece) { write_all(fd_, piece.data(), piece.size(), temp_); }

void AtomicFileWriter::commit() {
  if (::fsync(fd_) != 0) fail("sync", temp_);
  ::close(fd_);
  fd_ = -1;
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp_.c_str());
    errno = err;
    fail("replace", path_);
  }
  sync_folder_of(path_);
}

void rewrite_lines(const std::vector<std::string>& sources, const std::vector<LineSpan>& spans, const std::string& path,
                   const std::function<void(std::string_view)>& each_line) {
  std::vector<int> in(sources.size(), -1);
  auto close_inputs = [&] {
    for (int fd : in)
      if (fd >= 0) ::close(fd);
  };
  for (std::size_t i = 0; i < sources.size(); ++i) {
    in[i] = ::open(sources[i].c_str(), O_RDONLY | O_CLOEXEC);
    if (in[i] < 0 && errno != ENOENT) {
      close_inputs();
      fail("read", sources[i]);
    }
  }
  const std::string temp = fmt::format("{}.tmp.{}", path, ::getpid());
  const int out = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    close_inputs();
    fail("write", temp);
  }
  try {
    std::string line;
    for (const LineSpan& span : spans) {
      const int fd = in.at(span.source);
      line.resize(span.length);
      std::size_t got = 0;
      while (got < span.length) {
        const ssize_t n = ::pread(fd, line.data() + got, span.length - got, static_cast<off_t>(span.offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("read", sources[span.source]);
        got += static_cast<std::size_t>(n);
      }
      if (each_line) each_line(line);
      line.push_back('\n');
      write_all(out, line.data(), line.size(), temp);
    }
    if (::fsync(out) != 0) fail("sync", temp);
  } catch (...) {
    close_inputs();
    ::close(out);
    ::unlink(temp.c_str());
    throw;
  }
  close_inputs();
  ::close(out);
  if (std::rename(temp.c_str(), path.c_str()) != 0) fail("replace", path);
  sync_folder_of(path);
}

}  // namespace rubric::grading
