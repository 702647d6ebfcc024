#include "operators/files/bus_guard.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "operators/files/safe_open.hpp"

namespace rubric::files {
namespace {

// Slots are claimed with a compare-and-swap on `begin`; the handler reads them lock-free.
struct Slot {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> damaged{false};
};
Slot g_slots[kGuardSlots];
struct sigaction g_previous;
std::once_flag g_installed;

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Slot& s : g_slots) {
    const std::uintptr_t b = s.begin.load(std::memory_order_acquire);
    if (b == 0 || addr < b || addr >= s.end.load(std::memory_order_acquire)) continue;
    const std::uintptr_t page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const std::uintptr_t from = addr & ~(page - 1);
    const std::uintptr_t to = s.end.load(std::memory_order_acquire);
    // Zero pages over the faulting page and everything after it: past the new end of the file.
    void* p = mmap(reinterpret_cast<void*>(from), to - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p != MAP_FAILED) {
      s.damaged.store(true, std::memory_order_release);
      return;  // the faulting read is retried and now reads zeros
    }
    break;
  }
  // Not ours (or the remap failed): behave as if this handler were not there.
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) {
      g_previous.sa_sigaction(sig, info, context);
      return;
    }
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
    return;
  }
  signal(SIGBUS, SIG_DFL);  // returning re-executes the access, which now kills the process
}

void install() {
  struct sigaction sa {};
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGBUS, &sa, &g_previous);
}

}  // namespace

GuardedMapping::GuardedMapping(int fd, std::size_t size, const std::string& shown) : size_(size) {
  if (size == 0) return;
  std::call_once(g_installed, install);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) throw FileError(fmt::format("{}: cannot map: {}", shown, std::strerror(errno)));
  data_ = static_cast<const std::byte*>(p);
  const auto b = reinterpret_cast<std::uintptr_t>(p);
  for (int i = 0; i < kGuardSlots; ++i) {
    std::uintptr_t expected = 0;
    // Reserve the slot with a marker so the handler ignores it until `end` is written.
    if (g_slots[i].begin.compare_exchange_strong(expected, ~std::uintptr_t(0))) {
      g_slots[i].damaged.store(false);
      g_slots[i].end.store(b + size, std::memory_order_release);
      g_slots[i].begin.store(b, std::memory_order_release);
      slot_ = i;
      break;
    }
  }
}

GuardedMapping::~GuardedMapping() {
  if (slot_ >= 0) {
    g_slots[slot_].end.store(0, std::memory_order_release);
    g_slots[slot_].begin.store(0, std::memory_order_release);
  }
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
}

namespace {
std::string shrank_message(const std::string& shown, std::uint64_t mapped, std::uint64_t now, bool gone) {
  if (gone) return fmt::format("{} shrank while it was read ({} bytes mapped; it can no longer be examined)", shown, mapped);
  return fmt::format("{} shrank while it was read ({} bytes mapped, {} now)", shown, mapped, now);
}
}  // namespace

FileChanged::FileChanged(std::string shown, std::uint64_t mapped, std::uint64_t now, bool gone)
    : FileError(shrank_message(shown, mapped, now, gone)), file(std::move(shown)) {}

bool GuardedMapping::damaged() const { return slot_ >= 0 && g_slots[slot_].damaged.load(std::memory_order_acquire); }

}  // namespace rubric::files
