// Benchmark: rubric's fused comparison (every statistic) of two f32 .npy files against
// numpy.allclose on the same files and against a plain read of both (the bandwidth bound).
// Usage: compare_bench [MiB per tensor = 1024] [directory = /tmp]. Files are deleted afterwards.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_axis.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/parallel.hpp"
#include "operators/tensor/random.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using rubric::tensor::Tensor;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Sums both files as 64-bit words on every core: what reading the bytes once costs.
std::uint64_t read_both(const Tensor& a, const Tensor& b) {
  std::uint64_t total = 0;
  for (const Tensor* t : {&a, &b}) {
    const std::int64_t words = t->size() * 4 / 8;
    const unsigned workers = rubric::tensor::worker_count(words);
    std::vector<std::uint64_t> parts(workers, 0);
    rubric::tensor::parallel_chunks(words, workers, [&](unsigned w, std::int64_t begin, std::int64_t end) {
      std::uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const std::byte* p = t->data();
      std::int64_t i = begin;
      for (; i + 4 <= end; i += 4) {
        std::uint64_t v[4];
        std::memcpy(v, p + i * 8, 32);
        s0 += v[0];
        s1 += v[1];
        s2 += v[2];
        s3 += v[3];
      }
      for (; i < end; ++i) {
        std::uint64_t v;
        std::memcpy(&v, p + i * 8, 8);
        s0 += v;
      }
      parts[w] = s0 + s1 + s2 + s3;
    });
    for (auto p : parts) total += p;
  }
  return total;
}

template <typename Fn>
double best_of(int reps, Fn&& fn) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    fn();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t mib = argc > 1 ? std::atoll(argv[1]) : 1024;
  const std::filesystem::path dir = argc > 2 ? argv[2] : "/tmp";
  const std::int64_t n = mib * 1024 * 1024 / 4;
  const std::string pa = (dir / "rubric_bench_a.npy").string(), pb = (dir / "rubric_bench_b.npy").string();
  fmt::print("compare_bench: two f32 tensors of {} MiB ({} elements) in {}, {} threads\n", mib, n, dir.string(),
             rubric::tensor::worker_count(n));
  {
    // b = a with one element in 10^4 pushed off by 1e-3: a realistic near-miss.
    const Tensor a = rubric::tensor::random_tensor({n}, rubric::tensor::DType::f32, 1);
    std::vector<std::byte> bytes(static_cast<std::size_t>(n) * 4);
    std::memcpy(bytes.data(), a.data(), bytes.size());
    for (std::int64_t i = 0; i < n; i += 10007) {
      float v;
      std::memcpy(&v, bytes.data() + 4 * i, 4);
      v += 1e-3f;
      std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
    rubric::tensor::save_npy(pa, a);
    rubric::tensor::save_npy(pb, Tensor::from_bytes(rubric::tensor::DType::f32, {n}, std::move(bytes), "b"));
  }
  const Tensor a = rubric::tensor::load_npy(pa), b = rubric::tensor::load_npy(pb);
  const double gib = 2.0 * static_cast<double>(n) * 4 / (1024.0 * 1024 * 1024);
  volatile std::uint64_t sink = read_both(a, b);  // warm the page cache
  const double t_read = best_of(3, [&] { sink = read_both(a, b); });
  const auto tol = rubric::numerics::default_tolerance(rubric::tensor::DType::f32);
  rubric::numerics::CompareStats stats;
  const double t_rubric = best_of(3, [&] { stats = rubric::numerics::compare(a, b, tol); });
  // The same data as a (rows, 4096) matrix: the per-row and per-column passes of compare_along.
  const std::int64_t cols = 4096, rows = n / cols;
  auto as_matrix = [&](const Tensor& t) {
    return t.view({rows, cols}, t.data(), rubric::tensor::c_order_strides({rows, cols}, 4), t.source());
  };
  const Tensor ma = as_matrix(a), mb = as_matrix(b);
  const double t_rows = best_of(3, [&] { (void)rubric::numerics::compare_along(ma, mb, {1}, tol); });
  const double t_cols = best_of(3, [&] { (void)rubric::numerics::compare_along(ma, mb, {0}, tol); });
  (void)sink;

  const std::string cmd = fmt::format("/usr/bin/python3 {}/allclose_bench.py {} {} 3", RUBRIC_BENCH_NUMERICS_DIR, pa, pb);
  double t_numpy = -1;
  int numpy_result = -1;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    if (std::fscanf(p, "%lf %d", &t_numpy, &numpy_result) != 2) t_numpy = -1;
    pclose(p);
  }
  std::filesystem::remove(pa);
  std::filesystem::remove(pb);

  fmt::print("  mismatches {} / {}, max_abs {:.3g} at {}, rel_l2 {:.3g}, cosine {:.9f}, max_ulp {}\n", stats.mismatches,
             stats.count, stats.max_abs, stats.max_abs_index, rubric::numerics::rel_l2(stats),
             rubric::numerics::cosine(stats), stats.max_ulp);
  fmt::print("  {:<34} {:>9} {:>11}\n", "", "seconds", "GiB/s");
  fmt::print("  {:<34} {:>9.3f} {:>11.2f}\n", "plain read of both files", t_read, gib / t_read);
  fmt::print("  {:<34} {:>9.3f} {:>11.2f}\n", "rubric compare (all statistics)", t_rubric, gib / t_rubric);
  fmt::print("  {:<34} {:>9.3f} {:>11.2f}  ({:.2f}x compare)\n", fmt::format("per row, axis = 1 ({} rows)", rows), t_rows,
             gib / t_rows, t_rows / t_rubric);
  fmt::print("  {:<34} {:>9.3f} {:>11.2f}  ({:.2f}x compare)\n", "per column, axis = 0 (4096 cols)", t_cols, gib / t_cols,
             t_cols / t_rubric);
  if (t_numpy > 0) {
    fmt::print("  {:<34} {:>9.3f} {:>11.2f}\n", "numpy.allclose (in memory)", t_numpy, gib / t_numpy);
    fmt::print("  speedup over numpy.allclose: {:.1f}x (target >= 5x); numpy says allclose={}, rubric {}\n",
               t_numpy / t_rubric, numpy_result, rubric::numerics::all_close(stats) ? 1 : 0);
  } else {
    fmt::print("  numpy.allclose: could not run {}\n", cmd);
  }
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    double load = 0;
    if (std::fscanf(f, "%lf", &load) == 1) fmt::print("  load average during the run: {:.2f} (other processes share the cores)\n", load);
    std::fclose(f);
  }
  fmt::print("  fraction of the read bound: {:.0f}% (target >= 60%)\n", 100 * t_read / t_rubric);
  return 0;
}
