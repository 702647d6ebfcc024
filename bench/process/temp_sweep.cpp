// The start-up sweep of killed graders' folders (operators/files/temp_owner.hpp): its cost per
// `rubric check` on an empty base, on one with 1,000 unrelated entries, and on one that also holds
// 100 live graders' folders and 100 legacy rubric-run-* folders without `.owner`. Interleaved.
// A second argument adds that folder as a base, as it is (e.g. the machine's /tmp).
//   bench_process_temp_sweep [ROUNDS = 200] [BASE]
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "operators/files/temp_owner.hpp"

namespace fs = std::filesystem;
using rubric::files::sweep_stale_temp_dirs;

namespace {

double cpu_seconds() {
  rusage u;
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

std::string fresh(const std::string& parent, const std::string& name) {
  std::string dir = parent + "/" + name;
  fs::create_directories(dir);
  return dir;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  std::string t = (fs::temp_directory_path() / "rubric-sweep-bench-XXXXXX").string();
  if (!::mkdtemp(t.data())) return 1;
  const std::string empty = fresh(t, "empty");
  const std::string crowded = fresh(t, "crowded");
  const std::string mixed = fresh(t, "mixed");
  for (const std::string& base : {crowded, mixed})
    for (int i = 0; i < 500; ++i) {
      fresh(base, fmt::format("unrelated-dir-{}", i));
      std::ofstream(fmt::format("{}/unrelated-file-{}", base, i)).put('x');
    }
  std::vector<rubric::files::TempOwner> live;
  for (int i = 0; i < 100; ++i) {
    live.push_back(rubric::files::TempOwner::claim(fresh(mixed, fmt::format("rubric-run-live{:03}", i))));
    fresh(mixed, fmt::format("rubric-run-legacy{:03}", i));
  }
  struct Case {
    const char* name;
    std::string base;
    std::vector<double> wall, cpu;
  };
  std::vector<Case> cases = {{"empty base", empty, {}, {}},
                             {"1,000 unrelated entries", crowded, {}, {}},
                             {"1,000 + 100 live + 100 legacy rubric-run-*", mixed, {}, {}}};
  if (argc > 2) cases.push_back({argv[2], argv[2], {}, {}});
  for (int r = 0; r < rounds; ++r)
    for (Case& c : cases) {
      const double c0 = cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      sweep_stale_temp_dirs({c.base});
      c.wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      c.cpu.push_back(cpu_seconds() - c0);
    }
  double load[3] = {};
  ::getloadavg(load, 3);
  fmt::print("sweep of one base, {} rounds interleaved, load average {:.1f}\n", rounds, load[0]);
  for (Case& c : cases) {
    std::sort(c.wall.begin(), c.wall.end());
    double cpu = 0;
    for (double x : c.cpu) cpu += x;
    fmt::print("  {:<44} median {:7.1f} us  best {:7.1f} us  mean cpu {:7.1f} us\n", c.name, c.wall[c.wall.size() / 2] * 1e6,
               c.wall.front() * 1e6, cpu / rounds * 1e6);
  }
  live.clear();
  std::error_code ec;
  fs::remove_all(t, ec);
}
