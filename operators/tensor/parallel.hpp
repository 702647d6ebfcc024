#pragma once
// Splits [0, n) into contiguous chunks, one per worker thread (all cores), and runs
// fn(chunk_index, begin, end) on each. Small ranges run inline on the calling thread.
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace rubric::tensor {

inline unsigned worker_count(std::int64_t n, std::int64_t min_per_worker = 1 << 16) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t by_size = std::max<std::int64_t>(1, n / min_per_worker);
  return static_cast<unsigned>(std::min<std::int64_t>(hw, by_size));
}

template <typename Fn>
void parallel_chunks(std::int64_t n, unsigned workers, Fn&& fn) {
  if (workers <= 1) {
    fn(0u, std::int64_t{0}, n);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  const std::int64_t per = (n + workers - 1) / workers;
  for (unsigned w = 1; w < workers; ++w) {
    const std::int64_t begin = std::min<std::int64_t>(n, per * w), end = std::min<std::int64_t>(n, per * (w + 1));
    threads.emplace_back([&fn, w, begin, end] { fn(w, begin, end); });
  }
  fn(0u, std::int64_t{0}, std::min<std::int64_t>(n, per));
  for (auto& t : threads) t.join();
}

}  // namespace rubric::tensor
