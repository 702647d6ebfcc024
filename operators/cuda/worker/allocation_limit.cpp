#include "operators/cuda/worker/allocation_limit.hpp"

#include <atomic>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "operators/files/safe_open.hpp"

namespace rubric::cuda::worker {

namespace {

std::atomic<std::uint64_t> g_limit{0};
std::mutex g_mutex;
std::uint64_t g_held = 0;
std::string g_refusal;

// Never destroyed: candidate threads may free memory while the worker exits.
std::unordered_map<void*, std::size_t>& sizes() {
  static auto* m = new std::unordered_map<void*, std::size_t>();
  return *m;
}

}  // namespace

void set_device_memory_limit(std::uint64_t bytes) { g_limit = bytes; }
std::uint64_t device_memory_limit() { return g_limit; }

bool admit_allocation(std::size_t bytes, const char* call) {
  const std::uint64_t limit = g_limit;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (limit == 0 || g_held + bytes <= limit) return true;
  if (g_refusal.empty())
    g_refusal = fmt::format("{} of {} refused with {} already held", call, files::size_text(bytes), files::size_text(g_held));
  return false;
}

void record_allocation(void* p, std::size_t bytes) {
  if (!p) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  sizes()[p] = bytes;
  g_held += bytes;
}

void record_release(void* p) {
  if (!p) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = sizes().find(p);
  if (it == sizes().end()) return;
  g_held -= it->second;
  sizes().erase(it);
}

std::uint64_t allocated_bytes() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_held;
}

std::string take_refusal() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string r;
  r.swap(g_refusal);
  return r;
}

}  // namespace rubric::cuda::worker
