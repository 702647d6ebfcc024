#include "operators/tensor/stripe_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <atomic>
#include <mutex>
#include <new>

#include <time.h>

#include <unistd.h>

#include "operators/tensor/mapped_file.hpp"

namespace rubric::tensor {

namespace {
constexpr std::align_val_t kLine{64};  // whole cache lines: the comparison's vector loads never split one

double seconds_now() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::atomic<FileReading> g_reading{FileReading::timed};  // set_file_reading's choice
std::atomic<int> g_timed{-1};  // what timing found: -1 not timed yet, 1 copying is cheaper, 0 mapping
std::mutex g_timing;

// Whether this machine copies a file's pages out of the page cache (pread) faster than it maps
// them in (the first touch of each page of a fresh mapping). Either way the pass then streams the
// bytes from memory once; what differs is the copy against the page faults, and that differs by
// machine: on one virtual machine whose page tables the host shadows, first touch cost 2.4-6x
// the copy; on another, half of it. Timed once a process, on the first file of 128 MiB or more a
// pass reads: two disjoint regions each way, alternating, the faster of each kept. The pages
// either way are the pass's own to read anyway.
bool copying_is_cheaper(int fd, const std::byte* mapped, std::size_t offset, std::size_t bytes) {
  if (const FileReading set = g_reading.load(); set != FileReading::timed) return set == FileReading::copy;
  // Regions of 16 MiB: the page cache holds large folios, and a mapping may take a 2 MiB folio in
  // one fault, so smaller regions time the odd fault, not the rate.
  constexpr std::size_t kRegion = 16u << 20, kChunk = 128u << 10;
  if (const int found = g_timed.load(); found >= 0) return found == 1;
  if (bytes < 8 * kRegion) return true;  // too small to time, and to matter: copied
  std::lock_guard<std::mutex> lock(g_timing);  // a second reader waits: both read the chosen way
  if (const int found = g_timed.load(); found >= 0) return found == 1;
  std::byte* chunk = static_cast<std::byte*>(::operator new(kChunk, kLine));
  std::memset(chunk, 0, kChunk);
  double copy = 1e9, map = 1e9;
  volatile std::uint64_t sink = 0;
  for (int round = 0; round < 2; ++round) {
    const std::size_t at_copy = offset + (2 * round) * kRegion, at_map = offset + (2 * round + 1) * kRegion;
    const double t0 = seconds_now();
    for (std::size_t done = 0; done < kRegion; done += kChunk)
      if (::pread(fd, chunk, kChunk, static_cast<off_t>(at_copy + done)) <= 0) break;
    const double t1 = seconds_now();
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < kRegion; i += 4096) sum += static_cast<std::uint64_t>(mapped[at_map + i]);
    const double t2 = seconds_now();
    sink = sink + sum;
    copy = std::min(copy, t1 - t0);
    map = std::min(map, t2 - t1);
  }
  ::operator delete(chunk, kLine);
  g_timed.store(copy <= map ? 1 : 0);
  return copy <= map;
}
}  // namespace

void set_file_reading(FileReading how) { g_reading.store(how); }

StripeReader::StripeReader(const Tensor& t, std::int64_t max_elements, int slots) : t_(t), item_(t.itemsize()) {
  const auto& file = t.mapped_file();
  if (!file || file->fd() < 0) return;
  // Only elements that are the file's bytes (a view elsewhere keeps the file for its name only).
  const auto data = reinterpret_cast<std::uintptr_t>(t.data()), mapped = reinterpret_cast<std::uintptr_t>(file->data());
  if (data < mapped || data - mapped + static_cast<std::size_t>(t.size()) * item_ > file->size()) return;
  offset_ = data - mapped;
  if (!copying_is_cheaper(file->fd(), file->data(), offset_, static_cast<std::size_t>(t.size()) * item_)) return;
  fd_ = file->fd();
  const std::size_t longest = static_cast<std::size_t>(std::max<std::int64_t>(1, std::min(max_elements, t.size())));
  slot_bytes_ = (longest * item_ + 63) / 64 * 64;
  buffer_ = static_cast<std::byte*>(::operator new(slot_bytes_ * static_cast<std::size_t>(std::max(1, slots)), kLine));
}

StripeReader::~StripeReader() {
  if (buffer_) ::operator delete(buffer_, kLine);
}

const std::byte* StripeReader::read(std::int64_t begin, std::int64_t end, int slot) {
  const std::byte* mapped = t_.data() + static_cast<std::size_t>(begin) * item_;
  if (!buffer_) return mapped;
  std::byte* into = buffer_ + static_cast<std::size_t>(slot) * slot_bytes_;
  const std::size_t want = static_cast<std::size_t>(end - begin) * item_;
  const auto at = static_cast<off_t>(offset_ + static_cast<std::size_t>(begin) * item_);
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::pread(fd_, into + got, want - got, at + static_cast<off_t>(got));
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // the end of the file (it shrank) or an error: the rest through the mapping
    }
  }
  if (got < want) std::memcpy(into + got, mapped + got, want - got);
  return into;
}

}  // namespace rubric::tensor
