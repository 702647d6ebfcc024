// Candidate GPU code is sandboxed like `run`'s programs: a module loaded with cuda_fn (on the CPU
// stand-in, the same worker and sandbox as a CUDA one) cannot read the reference, write outside
// its exchange folder, reach a listener on the grader's loopback, or leave a process behind; the
// compiler of a candidate source cannot #include or .incbin the reference. Needs the whitelist
// sandbox (root, or unprivileged user namespaces); elsewhere each case says it is skipped.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "operators/cuda/gpu_session.hpp"
#include "operators/process/run_isolated.hpp"
#include "temp_dir.hpp"

using namespace rubric::cuda;
using rubric::tensor::DType;
namespace fs = std::filesystem;

namespace {

const char* kProbeSig = "void(const float*, float*, int, cudaStream_t)";
const char* kSecret = "RUBRIC-SECRET-REFERENCE-ANSWER-7f3a";

bool sandbox_granted() {
  static const bool granted = [] {
    rubric::process::Isolation iso = rubric::process::probe_isolation();
    return iso.whitelist && iso.pid_namespace && iso.no_network;
  }();
  if (!granted) MESSAGE("skipped: this machine grants no whitelist sandbox (no mount/PID/network namespaces)");
  return granted;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Every file under `dir` (the module cache, the session's scratch) holding `needle`.
std::vector<std::string> files_holding(const std::string& dir, const std::string& needle) {
  std::vector<std::string> hits;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) && slurp(it->path().string()).find(needle) != std::string::npos)
      hits.push_back(it->path().string());
  return hits;
}

// Processes of this machine whose command line holds `marker`.
int processes_with(const std::string& marker) {
  int n = 0;
  DIR* d = ::opendir("/proc");
  while (dirent* e = d ? ::readdir(d) : nullptr) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::string cmd = slurp(fmt::format("/proc/{}/cmdline", e->d_name));
    if (cmd.find(marker) != std::string::npos) ++n;
  }
  if (d) ::closedir(d);
  return n;
}

// A grading layout: the reference with its secret, the original submission, a session.
struct Layout {
  TempDir base;
  std::string ref = base / "ref", sub = base / "sub";
  std::unique_ptr<GpuSession> session;
  explicit Layout(SessionOptions o = {}) {
    fs::create_directories(ref);
    fs::create_directories(sub);
    spit(ref + "/secret.txt", std::string(kSecret) + "\n");
    spit(sub + "/answer.md", "the original answer\n");
    o.compiler.cache_dir = base / "cache";
    o.call_timeout_s = 10;
    session = std::make_unique<GpuSession>(o);
  }
  CompileSandbox box() const { return CompileSandbox{sub, {ref, sub}}; }
  CompileOutcome build(const std::string& name, const std::string& body) {
    spit(sub + "/" + name, body);
    return session->cuda_fn(sub + "/" + name, "probe", kProbeSig, "submission/" + name, box());
  }
  // Calls the probe with an 8-element output; the outputs, or the failure in `why`.
  std::vector<float> call(const CompiledModule& m, std::string* why = nullptr) {
    std::vector<float> x(8, 0.f);
    CallOutcome r = session->call(m, {TensorArg{DType::f32, {8}, x.data(), "", 0}, OutputArg{DType::f32, {8}}, std::int64_t{8}});
    if (why) *why = r.failure;
    if (!r.ok) return {};
    std::vector<float> out(8);
    std::memcpy(out.data(), r.outputs[0].bytes.data(), 32);
    return out;
  }
  // Builds the probe `name` and calls it once: its eight outputs. The test stops where either step
  // fails, with the compiler's or the worker's message; `module` receives the module for more calls.
  std::vector<float> build_and_call(const std::string& name, const std::string& body, CompiledModule* module = nullptr) {
    CompileOutcome c = build(name, body);
    INFO(c.message);
    REQUIRE(c.ok);
    if (module) *module = c.module;
    std::string why;
    std::vector<float> out = call(c.module, &why);
    INFO(why);
    REQUIRE(out.size() == 8);
    return out;
  }
  std::string logs() const {
    std::string all;
    for (const auto& e : fs::directory_iterator(session->scratch_dir()))
      if (e.path().extension() == ".log") all += slurp(e.path().string());
    return all;
  }
};

const char* kHeader = R"(#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
)";

}  // namespace

TEST_CASE("a candidate module cannot read the reference by its absolute path") {
  if (!sandbox_granted()) return;
  Layout l;
  std::string src = std::string(kHeader) + fmt::format(R"(
void probe(const float*, float* out, int n, cudaStream_t) {{
  for (int i = 0; i < n; ++i) out[i] = 0;
  int fd = open("{0}/secret.txt", O_RDONLY);
  out[0] = fd >= 0 ? 1.f : -(float)errno;
  char buf[64] = {{0}};
  if (fd >= 0) {{
    int k = (int)read(fd, buf, sizeof buf - 1);
    for (int i = 0; i < k && i + 1 < n; ++i) out[i + 1] = buf[i];
    fprintf(stderr, "read: %s\n", buf);
  }}
  // The original submission is not there either, nor the grader's /proc.
  out[6] = access("{1}/answer.md", F_OK) == 0 ? 1.f : 0.f;
  out[7] = access("/proc/1/root{0}/secret.txt", F_OK) == 0 ? 1.f : 0.f;
}}
)", l.ref, l.sub);
  std::vector<float> out = l.build_and_call("read_ref.cpp", src);
  CHECK(out[0] == -float(ENOENT));
  CHECK(out[1] == 0.f);
  CHECK(out[6] == 0.f);
  CHECK(out[7] == 0.f);
  CHECK(l.logs().find(kSecret) == std::string::npos);
  CHECK(files_holding(l.session->scratch_dir(), kSecret).empty());
}

TEST_CASE("a candidate module cannot write outside its exchange folder") {
  if (!sandbox_granted()) return;
  Layout l;
  const std::string marker = fmt::format("/tmp/rubric-probe-{}-written", ::getpid());
  ::unlink(marker.c_str());
  const std::string scratch_parent = fs::path(l.session->scratch_dir()).string();
  std::string src = std::string(kHeader) + fmt::format(R"(
static float try_write(const char* path) {{
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return -(float)errno;
  int ok = write(fd, "PWNED\n", 6) == 6;
  close(fd);
  return ok ? 1.f : 0.f;
}}
void probe(const float*, float* out, int n, cudaStream_t) {{
  for (int i = 0; i < n; ++i) out[i] = 0;
  out[0] = try_write("{0}/answer.md");
  out[1] = try_write("{1}");
  out[2] = try_write("{2}/planted.txt");
  out[3] = try_write("{3}/secret.txt");
  out[4] = try_write("planted-in-exchange.txt");  // its own folder: allowed, and gone with it
}}
)", l.sub, marker, scratch_parent, l.ref);
  std::vector<float> out = l.build_and_call("write_out.cpp", src);
  CHECK(out[0] < 0);                  // the original submission: not there
  CHECK(slurp(l.sub + "/answer.md") == "the original answer\n");
  CHECK_FALSE(fs::exists(marker));    // the grader's /tmp: the module wrote its own private /tmp
  // The session's folder (logs) is not there: the path inside is the sandbox's own /tmp (writable
  // only where the module runs as root of a user namespace), never the grader's folder.
  CHECK_FALSE(fs::exists(scratch_parent + "/planted.txt"));
  CHECK(out[3] < 0);
  CHECK(slurp(l.ref + "/secret.txt") == std::string(kSecret) + "\n");
  CHECK(out[4] == 1.f);
  l.session.reset();  // the exchange folder goes with the session
  ::unlink(marker.c_str());
}

TEST_CASE("a candidate module cannot reach a listener on the grader's loopback") {
  if (!sandbox_granted()) return;
  Layout l;
  int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  REQUIRE(listener >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  REQUIRE(::listen(listener, 8) == 0);
  const int port = ntohs(addr.sin_port);
  std::string src = std::string(kHeader) + fmt::format(R"(
void probe(const float*, float* out, int n, cudaStream_t) {{
  for (int i = 0; i < n; ++i) out[i] = 0;
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons({0});
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  out[0] = s < 0 ? -1000.f : connect(s, (struct sockaddr*)&a, sizeof a) == 0 ? 1.f : -(float)errno;
  if (out[0] == 1.f) write(s, "hello\n", 6);
  if (s >= 0) close(s);
}}
)", port);
  std::vector<float> out = l.build_and_call("connect.cpp", src);
  CHECK(out[0] < 0);  // ECONNREFUSED: its loopback is its own
  pollfd p{listener, POLLIN, 0};
  CHECK(::poll(&p, 1, 300) == 0);  // the listener saw no connection
  CHECK(::accept(listener, nullptr, nullptr) < 0);
  ::close(listener);
}

TEST_CASE("a daemon a candidate module forks does not outlive the call") {
  if (!sandbox_granted()) return;
  Layout l;
  const std::string marker = fmt::format("rubric-probe-daemon-{}", ::getpid());
  std::string src = std::string(kHeader) + fmt::format(R"(
void probe(const float*, float* out, int n, cudaStream_t) {{
  for (int i = 0; i < n; ++i) out[i] = 0;
  pid_t child = fork();
  if (child == 0) {{
    setsid();
    if (fork() == 0) {{
      execl("/bin/sh", "sh", "-c", "sleep 1000; : {0}", (char*)0);
      _exit(1);
    }}
    _exit(0);
  }}
  out[0] = child > 0 ? 1.f : -(float)errno;
  usleep(200000);  // the daemon is running when the call returns
}}
)", marker);
  CompiledModule module;
  std::vector<float> out = l.build_and_call("daemon.cpp", src, &module);
  CHECK(out[0] == 1.f);  // it did fork
  int left = processes_with(marker);
  for (int i = 0; i < 100 && left > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    left = processes_with(marker);
  }
  CHECK(left == 0);  // ended with the call, the worker still serving
  CHECK(l.session->worker(module).running());
  CHECK(l.call(module).size() == 8);
  l.session.reset();
  CHECK(processes_with(marker) == 0);
}

TEST_CASE("compiling a candidate source: #include and .incbin of the reference do not leak it") {
  if (!sandbox_granted()) return;
  Layout l;
  const std::string secret = l.ref + "/secret.txt";
  struct Probe {
    std::string name, body;
  };
  std::vector<Probe> probes = {
      {"include_ref.cpp", fmt::format("#include \"{}\"\nvoid probe(const float*, float*, int, cudaStream_t) {{}}\n", secret)},
      {"incbin_ref.cpp", fmt::format("asm(\".section .rodata\\n.globl leaked\\nleaked:\\n.incbin \\\"{}\\\"\\n.previous\");\n"
                                     "void probe(const float*, float*, int, cudaStream_t) {{}}\n", secret)},
      // By a path relative to the source, and through a link the submission carries.
      {"include_relative.cpp", fmt::format("#include \"../ref/secret.txt\"\nvoid probe(const float*, float*, int, cudaStream_t) {{}}\n")},
      {"include_link.cpp", "#include \"ref_link.txt\"\nvoid probe(const float*, float*, int, cudaStream_t) {}\n"},
  };
  fs::create_symlink(secret, l.sub + "/ref_link.txt");
  std::vector<std::string> kinds = {".cpp"};
  CompilerSettings s = CompilerSettings::defaults();
  if (compiler_available(ModuleKind::cuda, s)) {
    probes.push_back({"include_ref.cu", fmt::format("#include \"{}\"\nvoid probe(const float*, float*, int, cudaStream_t) {{}}\n", secret)});
    probes.push_back({"incbin_ref.cu", fmt::format("asm(\".section .rodata\\n.globl leaked\\nleaked:\\n.incbin \\\"{}\\\"\\n.previous\");\n"
                                                   "void probe(const float*, float*, int, cudaStream_t) {{}}\n", secret)});
  } else {
    MESSAGE("nvcc not found: the .cu probes are skipped");
  }
  for (const Probe& p : probes) {
    CAPTURE(p.name);
    CompileOutcome c = l.build(p.name, p.body);
    INFO(c.message);
    CHECK_FALSE(c.ok);                  // the file is not there to include
    CHECK_FALSE(c.grader_environment);  // the submission's FAIL
    CHECK(c.message.find(kSecret) == std::string::npos);
    CHECK_FALSE(c.message.empty());
    CHECK(c.isolation.find("whitelist") != std::string::npos);
  }
  // Nothing holding the secret was left in the module cache or the session's folders.
  CHECK(files_holding(l.base / "cache", kSecret).empty());
  CHECK(files_holding(l.session->scratch_dir(), kSecret).empty());
}

TEST_CASE("a compile error's text is escaped: control characters and stray bytes as \\xNN") {
  CHECK(escape_compiler_text("a\x01" "b\n\xff\xfe ok \xc3\xa9") == "a\\x01b\n\\xff\\xfe ok \xc3\xa9");
  std::string longline(1000, 'x');
  std::string shown = escape_compiler_text(longline, 100, 4000);
  CHECK(shown.size() < 120);
  CHECK(shown.find("[...]") != std::string::npos);
}

TEST_CASE("a candidate's headers come from its own folder's copy; large files are left out of it") {
  if (!sandbox_granted()) return;
  Layout l;
  fs::create_directories(l.sub + "/include");
  spit(l.sub + "/include/helper.h", "static inline float twice(float v) { return 2 * v; }\n");
  fs::create_directories(l.sub + "/kernels");
  spit(l.sub + "/kernels/probe.cpp",
       "#include \"../include/helper.h\"\n"
       "void probe(const float* x, float* out, int n, cudaStream_t) { for (int i = 0; i < n; ++i) out[i] = twice(x[i]) + 1; }\n");
  {
    std::ofstream big(l.sub + "/big.bin", std::ios::binary);
    big.seekp((8 << 20) - 1);
    big.put('\0');
  }
  CompileOutcome c = l.session->cuda_fn(l.sub + "/kernels/probe.cpp", "probe", kProbeSig, "submission/kernels/probe.cpp", l.box());
  INFO(c.message);
  REQUIRE(c.ok);
  std::vector<float> out = l.call(c.module);
  REQUIRE(out.size() == 8);
  CHECK(out[0] == 1.f);
  // An error in the header is shown under the submission's name for it, not the copy's path.
  spit(l.sub + "/include/helper.h", "static inline float twice(float v) { return 2 * undeclared; }\n");
  {
    std::ofstream touch(l.sub + "/kernels/probe.cpp", std::ios::app);  // headers are not part of the cache key
    touch << "// edited\n";
  }
  CompileOutcome bad = l.session->cuda_fn(l.sub + "/kernels/probe.cpp", "probe", kProbeSig, "submission/kernels/probe.cpp", l.box());
  INFO(bad.message);
  REQUIRE_FALSE(bad.ok);
  CHECK(bad.message.find("submission/kernels/../include/helper.h:1:") == 0);
  CHECK(bad.message.find("rubric-compile-") == std::string::npos);
}

TEST_CASE("the GPU memory limit: tensors past it are refused before the call, candidate allocations past it fail") {
  if (!sandbox_granted()) return;
  SessionOptions o;
  o.gpu_memory_bytes = 1 << 20;
  Layout l(o);
  CompileOutcome c = l.build("alloc.cpp", std::string(kHeader) + R"(
#include <dlfcn.h>
#include <stddef.h>
typedef int (*malloc_fn)(void**, size_t);
void probe(const float*, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n; ++i) out[i] = 0;
  // The runtime's allocation call as the worker exports it (a .cu module binds to it directly).
  malloc_fn f = (malloc_fn)dlsym(RTLD_DEFAULT, "cudaMalloc");
  if (!f) { out[0] = -1; return; }
  void* p = 0;
  out[0] = (float)f(&p, 2u << 20);
}
)");
  INFO(c.message);
  REQUIRE(c.ok);
  std::string why;
  std::vector<float> out = l.call(c.module, &why);
  if (out.size() == 8 && out[0] == -1.f) {
    MESSAGE("skipped the allocation half: this worker was built without CUDA (no cudaMalloc to interpose)");
  } else {
    CHECK(out.empty());
    CHECK(why == "exceeded GPU memory limit 1 MiB: cudaMalloc of 2 MiB refused with 0 bytes already held");
  }
  std::vector<float> big(1 << 19, 0.f);  // 2 MiB
  CHECK_THROWS_WITH_AS(l.session->call(c.module, {TensorArg{DType::f32, {1 << 19}, big.data(), "", 0},
                                                  OutputArg{DType::f32, {1 << 19}}, std::int64_t{8}}),
                       doctest::Contains("more than the GPU memory limit 1 MiB"), rubric::OperatorError);
}

TEST_CASE("the worker's host memory is bounded; past it the call fails saying so") {
  if (!sandbox_granted()) return;
  SessionOptions o;
  o.worker_memory_bytes = 256ull << 20;
  Layout l(o);
  CompileOutcome c = l.build("hog.cpp", std::string(kHeader) + R"(
void probe(const float*, float* out, int n, cudaStream_t) {
  for (int i = 0; i < n; ++i) out[i] = 0;
  for (int k = 0; k < 64; ++k) {
    char* p = (char*)malloc(64u << 20);
    if (!p) { out[0] = -1; return; }
    memset(p, 1, 64u << 20);
  }
}
)");
  INFO(c.message);
  REQUIRE(c.ok);
  std::string why;
  std::vector<float> out = l.call(c.module, &why);
  INFO(why);
  const std::string iso = l.session->worker(c.module).isolation();
  INFO(iso);
  if (iso.find("cgroup") != std::string::npos) {
    CHECK(out.empty());
    CHECK(why.find("exceeded 256 MiB of memory") != std::string::npos);
  } else {
    // RLIMIT_DATA: the allocation fails inside the module instead.
    CHECK((out.empty() || out[0] == -1.f));
  }
}
