// What the sandbox around candidate GPU code costs, each against the same work unsandboxed, in the
// same run (interleaved):
//   compile: a cold cuda_fn build of the stand-in source (host compiler), sandboxed vs not
//            (and of a .cu source with nvcc, with --nvcc)
//   worker:  start of rubric-gpu-worker to its first reply, spawn_sandboxed vs fork + exec
//   usage: bench_cuda_sandbox [repetitions, default 10] [--nvcc]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "operators/cuda/gpu_session.hpp"
#include "operators/cuda/module_compiler.hpp"
#include "operators/cuda/worker_client.hpp"

using namespace rubric::cuda;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// CPU seconds of this process and its reaped children: what the work costs, whatever the load.
double cpu_now() {
  double t = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    struct rusage u;
    ::getrusage(who, &u);
    t += double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  return t;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The worker as it was started before the sandbox: fork, exec, one ping, quit.
double direct_worker_start(const std::string& exe) {
  auto t0 = Clock::now();
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(devnull, 0);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    ::dup2(sv[1], 3);
    const char* args[] = {exe.c_str(), "--backend", "cpu", "--fd", "3", nullptr};
    ::execv(args[0], const_cast<char* const*>(args));
    ::_exit(127);
  }
  ::close(sv[1]);
  MessageReader reader(sv[0]);
  Message reply;
  write_message(sv[0], Message().set("op", "ping"));
  reader.read(reply, Clock::now() + std::chrono::seconds(10));
  double s = since(t0);
  write_message(sv[0], Message().set("op", "quit"));
  ::close(sv[0]);
  int st;
  ::waitpid(pid, &st, 0);
  return reply.get_or("status", "") == "ok" ? s : -1;
}

double sandboxed_worker_start(const std::string& exe, const std::string& dir, std::string& isolation) {
  auto t0 = Clock::now();
  WorkerSandbox box;
  box.exchange_parent = dir;
  WorkerClient w(exe, "cpu", dir + "/worker.log", box);
  WorkerReply r = w.request(Message().set("op", "ping"), 10);
  double s = since(t0);
  isolation = w.isolation();
  w.stop();
  return r.ok ? s : -1;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 10;
  bool with_nvcc = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--nvcc") == 0) with_nvcc = true;
    else reps = std::max(1, std::atoi(argv[i]));
  }
  const std::string base = (fs::temp_directory_path() / fmt::format("rubric-sandbox-bench-{}", ::getpid())).string();
  fs::create_directories(base);
  ::chmod(base.c_str(), 0711);
  const std::string data = std::string(RUBRIC_BENCH_CUDA_DIR) + "/../../tests/cuda/data/";

  auto compile_cost = [&](const char* file, const char* entry, const char* sig, ModuleKind kind, int n) {
    std::vector<double> boxed, plain, boxed_cpu, plain_cpu;
    std::string isolation;
    for (int k = 0; k < n; ++k) {
      for (bool sandboxed : {true, false}) {
        double c0 = cpu_now();
        CompilerSettings s = CompilerSettings::defaults();
        s.cache_dir = fmt::format("{}/cache-{}-{}-{}", base, file, k, sandboxed);  // always a cold build
        s.sandboxed = sandboxed;
        auto t0 = Clock::now();
        CompileOutcome c = compile_module(data + file, entry, parse_signature(sig), kind, s);
        double t = since(t0);
        if (!c.ok) {
          fmt::print("compile of {} failed: {}\n", file, c.message);
          return;
        }
        (sandboxed ? boxed : plain).push_back(t);
        (sandboxed ? boxed_cpu : plain_cpu).push_back(cpu_now() - c0);
        if (sandboxed) isolation = c.isolation;
      }
    }
    fmt::print("cold compile of {} ({} each, medians): CPU sandboxed {:.3f} s, direct {:.3f} s, added {:.1f} ms "
               "(ratio {:.3f}); wall sandboxed {:.3f} s, direct {:.3f} s, added {:.1f} ms\n  sandbox: {}\n",
               file, n, median(boxed_cpu), median(plain_cpu), (median(boxed_cpu) - median(plain_cpu)) * 1e3,
               median(boxed_cpu) / median(plain_cpu), median(boxed), median(plain), (median(boxed) - median(plain)) * 1e3,
               isolation);
  };
  compile_cost("add_good.cpp", "add", "void(const float*, const float*, float*, int, cudaStream_t)", ModuleKind::cpu_standin,
               reps);
  if (with_nvcc) {
    if (compiler_available(ModuleKind::cuda, CompilerSettings::defaults()))
      compile_cost("scale_good.cu", "scale", "void(const float*, float*, float, int, cudaStream_t)", ModuleKind::cuda,
                   std::max(1, reps / 5));
    else
      fmt::print("nvcc compile: skipped (nvcc not found)\n");
  }

  const std::string exe = find_worker_executable();
  std::vector<double> boxed, plain, boxed_cpu, plain_cpu;
  std::string isolation;
  for (int k = 0; k < 2 * reps; ++k) {
    double c0 = cpu_now();
    double a = sandboxed_worker_start(exe, base, isolation);
    double c1 = cpu_now();
    double b = direct_worker_start(exe);
    boxed_cpu.push_back(c1 - c0);
    plain_cpu.push_back(cpu_now() - c1);
    if (a < 0 || b < 0) {
      fmt::print("worker start failed (sandboxed {}, direct {})\n", a, b);
      return 1;
    }
    boxed.push_back(a);
    plain.push_back(b);
  }
  fmt::print("worker start to first reply and end ({} each, medians): CPU sandboxed {:.2f} ms, fork+exec {:.2f} ms, "
             "added {:.2f} ms; wall to first reply sandboxed {:.2f} ms, fork+exec {:.2f} ms, added {:.2f} ms\n  sandbox: {}\n",
             2 * reps, median(boxed_cpu) * 1e3, median(plain_cpu) * 1e3, (median(boxed_cpu) - median(plain_cpu)) * 1e3,
             median(boxed) * 1e3, median(plain) * 1e3, (median(boxed) - median(plain)) * 1e3, isolation);
  std::error_code ec;
  fs::remove_all(base, ec);
  return 0;
}
