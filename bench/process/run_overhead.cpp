// Overhead of an isolated run over running the same trivial program directly (posix_spawn +
// waitpid), interleaved so both see the same machine load. Target: under 5 ms per run.
#include <fmt/format.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "operators/process/run_isolated.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double run_direct() {
  auto t0 = Clock::now();
  pid_t pid;
  char* argv[] = {const_cast<char*>("/bin/true"), nullptr};
  if (posix_spawn(&pid, "/bin/true", nullptr, nullptr, argv, environ) != 0) std::abort();
  int status;
  waitpid(pid, &status, 0);
  return ms_since(t0);
}

// CPU time of this process and its reaped children, in ms: unlike wall time, it does not grow
// with the machine's load.
double cpu_ms() {
  struct rusage self, kids;
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &kids);
  auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec * 1e-3; };
  return ms(self.ru_utime) + ms(self.ru_stime) + ms(kids.ru_utime) + ms(kids.ru_stime);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100;
  // A grader holds memory of its own (decoded data, buffers): every page of it the run's start
  // copies or write-protects shows here. Optional second argument: MiB of heap to hold, touched.
  const std::size_t heap_mib = argc > 2 ? std::size_t(std::atol(argv[2])) : 0;
  std::vector<char> heap(heap_mib << 20);
  for (std::size_t i = 0; i < heap.size(); i += 4096) heap[i] = char(i);
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  const char* tmpdir = std::getenv("TMPDIR");
  fmt::print("load average {:.2f} {:.2f} {:.2f}; {} cores; TMPDIR {}; grader heap {} MiB\n", load[0], load[1], load[2],
             sysconf(_SC_NPROCESSORS_ONLN), tmpdir && *tmpdir ? tmpdir : "/tmp", heap_mib);
  char dir_template[] = "/tmp/rubric-bench-run-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  chmod(dir.c_str(), 0755);  // the unprivileged candidate runs in it when there is no scratch copy
  std::system(fmt::format("echo 'int main(void){{return 0;}}' > {}/main.c; head -c 65536 /dev/urandom > {}/data.bin", dir, dir).c_str());

  struct Mode {
    const char* name;
    bool namespaces, scratch;
  };
  const Mode modes[] = {{"full isolation (pid+net+mount ns, scratch copy of a 2-file dir, unprivileged)", true, true},
                        {"namespaces, no scratch copy", true, false},
                        {"no namespaces (subreaper), no scratch copy", false, false}};
  fmt::print("run overhead: /bin/true, {} runs per mode, medians\n", n);
  for (const Mode& m : modes) {
    rubric::process::RunSpec spec;
    spec.argv = {"/bin/true"};
    spec.cwd = dir;
    spec.isolation.pid_namespace = m.namespaces;
    spec.isolation.no_network = m.namespaces;
    spec.isolation.scratch_copy = m.scratch;
    std::vector<double> direct, isolated;
    double cpu_direct = 0, cpu_isolated = 0;
    for (int i = 0; i < n; ++i) {
      double c0 = cpu_ms();
      direct.push_back(run_direct());
      double c1 = cpu_ms();
      cpu_direct += c1 - c0;
      auto t0 = Clock::now();
      auto r = rubric::process::run_isolated(spec);
      isolated.push_back(ms_since(t0));
      cpu_isolated += cpu_ms() - c1;
      if (!r.succeeded()) {
        fmt::print("run failed: {}\n", r.status_text());
        std::system(fmt::format("rm -rf {}", dir).c_str());
        return 1;
      }
    }
    const double d = median(direct), s = median(isolated);
    fmt::print("  {}\n    wall: direct {:6.2f} ms  isolated {:6.2f} ms  overhead {:6.2f} ms  [{}]\n", m.name, d, s, s - d,
               s - d < 5.0 ? "under 5 ms" : "OVER 5 ms");
    fmt::print("    cpu:  direct {:6.2f} ms  isolated {:6.2f} ms  overhead {:6.2f} ms (mean per run)\n", cpu_direct / n,
               cpu_isolated / n, (cpu_isolated - cpu_direct) / n);
  }
  std::system(fmt::format("rm -rf {}", dir).c_str());
  return 0;
}
