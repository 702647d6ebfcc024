#include "grading/row_spool.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "operators/files/temp_owner.hpp"

namespace rubric::grading {
namespace {

constexpr std::size_t kChunk = 1 << 16;

void put_u32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

void put_text(std::string& out, const std::string& s) {
  put_u32(out, static_cast<std::uint32_t>(s.size()));
  out += s;
}

// Sequential reads of the spool through a buffer of kChunk bytes (or more for a longer row).
class Reader {
 public:
  Reader(int fd, std::uint64_t size) : fd_(fd), size_(size) {}
  bool done() const { return at_ == buffer_.size() && offset_ == size_; }
  void take(void* to, std::size_t n) {
    ensure(n);
    std::memcpy(to, buffer_.data() + at_, n);
    at_ += n;
  }
  std::string text() {
    std::uint32_t n = 0;
    take(&n, sizeof n);
    ensure(n);
    std::string s(buffer_.data() + at_, n);
    at_ += n;
    return s;
  }

 private:
  void ensure(std::size_t n) {
    if (buffer_.size() - at_ >= n) return;
    buffer_.erase(0, at_);
    at_ = 0;
    const std::size_t want = std::max(n - buffer_.size(), std::min<std::uint64_t>(kChunk, size_ - offset_));
    if (want > size_ - offset_) throw std::runtime_error("the summary's row file ends early");
    const std::size_t had = buffer_.size();
    buffer_.resize(had + want);
    std::size_t got = 0;
    while (got < want) {
      const ssize_t r = ::pread(fd_, buffer_.data() + had + got, want - got, static_cast<off_t>(offset_ + got));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) throw std::runtime_error(fmt::format("cannot read the summary's row file: {}", r < 0 ? std::strerror(errno) : "it ends early"));
      got += static_cast<std::size_t>(r);
    }
    offset_ += want;
  }

  int fd_;
  std::uint64_t size_;
  std::uint64_t offset_ = 0;
  std::string buffer_;
  std::size_t at_ = 0;
};

}  // namespace

RowSpool::RowSpool() {
  std::string path = files::temp_base() + "/rubric-summary-rows.XXXXXX";
  fd_ = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd_ >= 0) ::unlink(path.c_str());
}

RowSpool::~RowSpool() {
  if (fd_ >= 0) ::close(fd_);
}

void RowSpool::append(const SubmissionRow& row) {
  ++count_;
  if (fd_ < 0) {
    in_memory_.push_back(row);
    return;
  }
  put_text(pending_, row.submission);
  put_text(pending_, row.verdict);
  const char has_score = row.score ? 1 : 0;
  pending_.push_back(has_score);
  if (row.score) pending_.append(reinterpret_cast<const char*>(&*row.score), sizeof(double));
  put_text(pending_, row.reason);
  if (pending_.size() >= kChunk) flush();
}

void RowSpool::flush() const {
  std::size_t done = 0;
  while (done < pending_.size()) {
    const ssize_t n = ::pwrite(fd_, pending_.data() + done, pending_.size() - done, static_cast<off_t>(written_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(fmt::format("cannot write the summary's row file: {}", std::strerror(errno)));
    done += static_cast<std::size_t>(n);
  }
  written_ += pending_.size();
  pending_.clear();
}

void RowSpool::for_each(const std::function<bool(const SubmissionRow&)>& visit) const {
  if (fd_ < 0) {
    for (const SubmissionRow& row : in_memory_)
      if (!visit(row)) return;
    return;
  }
  flush();
  Reader in(fd_, written_);
  SubmissionRow row;
  while (!in.done()) {
    row.submission = in.text();
    row.verdict = in.text();
    char has_score = 0;
    in.take(&has_score, 1);
    row.score.reset();
    if (has_score) {
      double score = 0;
      in.take(&score, sizeof score);
      row.score = score;
    }
    row.reason = in.text();
    if (!visit(row)) return;
  }
}

}  // namespace rubric::grading
