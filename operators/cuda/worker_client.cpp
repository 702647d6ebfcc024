#include "operators/cuda/worker_client.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include <fmt/format.h>

#include "operators/error.hpp"
#include "operators/files/sparse_copy.hpp"
#include "operators/process/confinement.hpp"

#ifndef RUBRIC_GPU_WORKER_PATH
#define RUBRIC_GPU_WORKER_PATH ""
#endif

extern char** environ;

namespace fs = std::filesystem;

namespace rubric::cuda {

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGXCPU: return "SIGXCPU";
    case SIGPIPE: return "SIGPIPE";
    case SIGSYS: return "SIGSYS";
    default: return fmt::format("signal {}", sig);
  }
}

std::string find_worker_executable() {
  if (const char* env = std::getenv("RUBRIC_GPU_WORKER"); env && *env) return fs::absolute(env).lexically_normal().string();
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto beside = self.parent_path() / "rubric-gpu-worker";
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return RUBRIC_GPU_WORKER_PATH;
}

std::vector<std::string> gpu_device_nodes() {
  std::vector<std::string> nodes;
  auto scan = [&](const std::string& dir, const std::string& prefix) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name.rfind(prefix, 0) != 0) continue;
      std::string path = dir + "/" + name;
      struct stat st;
      if (::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) nodes.push_back(path);
    }
    ::closedir(d);
  };
  scan("/dev", "nvidia");
  scan("/dev/nvidia-caps", "nvidia-cap");
  return nodes;
}

namespace {

constexpr unsigned kWorkerUid = 65534;  // IsolationRequest's default: the worker runs as nobody when rubric is root

// What the worker's environment keeps of ours: how the grader chose devices and drivers, and the
// memcheck switches. Nothing else (the grader's secrets, paths, --set values) crosses.
bool passed_through(const std::string& name) {
  return name.rfind("CUDA_", 0) == 0 || name.rfind("NVIDIA_", 0) == 0 || name == "LD_LIBRARY_PATH" ||
         name == "RUBRIC_GPU_MEMCHECK" || name == "RUBRIC_COMPUTE_SANITIZER";
}

// Whether a memory cgroup can be made here (asked once): the CUDA worker is bounded only by one,
// since RLIMIT_DATA counts the address space the driver reserves and would break context creation.
bool memory_cgroup_available() {
  static std::once_flag once;
  static bool available = false;
  std::call_once(once, [] { available = process::MemoryCgroup(1ull << 30).ok(); });
  return available;
}

// 128 random bits, in hex: what a reply must start with to answer this request.
std::string fresh_nonce() {
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw EnvironmentError(fmt::format("cannot draw a nonce: {}", std::strerror(errno)));
    got += static_cast<std::size_t>(n);
  }
  std::string hex;
  for (unsigned char b : bytes) hex += fmt::format("{:02x}", b);
  return hex;
}

}  // namespace

WorkerClient::WorkerClient(std::string executable, std::string backend, std::string log_path, WorkerSandbox sandbox)
    : executable_(std::move(executable)), backend_(std::move(backend)), log_path_(std::move(log_path)),
      sandbox_(std::move(sandbox)) {}

WorkerClient::~WorkerClient() { stop(); }

std::string WorkerClient::isolation() const {
  std::string text = process_ ? process_->isolation().describe() : std::string("not started");
  if (backend_ == "cuda" && sandbox_.memory_bytes && !memory_cgroup_available())
    text += "; host memory not bounded (no memory cgroup; RLIMIT_DATA would break the CUDA driver)";
  return text;
}

void WorkerClient::ensure_running() {
  if (!running()) start();
}

void WorkerClient::start() {
  if (executable_.empty() || executable_[0] != '/' || ::access(executable_.c_str(), X_OK) != 0)
    throw EnvironmentError(fmt::format("the GPU worker '{}' is missing or not executable (set RUBRIC_GPU_WORKER)",
                                    executable_));
  // A fresh exchange folder per start: nothing a previous worker left (a cached result, a planted
  // link) reaches the next one.
  const bool root = ::geteuid() == 0;
  std::error_code ec;
  if (!exchange_.empty()) fs::remove_all(exchange_, ec);
  exchange_.clear();
  std::string parent = sandbox_.exchange_parent.empty() ? fs::path(log_path_).parent_path().string() : sandbox_.exchange_parent;
  std::string io = fmt::format("{}/io-XXXXXX", parent);
  if (!::mkdtemp(io.data()))
    throw EnvironmentError(fmt::format("cannot create the GPU worker's exchange folder in {}: {}", parent, std::strerror(errno)));
  if (root && ::chown(io.c_str(), kWorkerUid, kWorkerUid) != 0)
    throw EnvironmentError(fmt::format("cannot hand {} to the worker's uid: {}", io, std::strerror(errno)));
  exchange_ = io;

  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw EnvironmentError(fmt::format("cannot create the worker channel: {}", std::strerror(errno)));
  try {
    log_ = std::make_unique<WorkerLog>(log_path_);
  } catch (...) {
    ::close(sv[0]);
    ::close(sv[1]);
    throw;
  }
  int log = log_->write_end();

  process::SandboxSpec spec;
  spec.argv = {executable_, "--backend", backend_, "--fd", "3"};
  spec.env = {{"PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
              {"HOME", "/tmp"},
              {"TMPDIR", "/tmp"},
              {"LANG", "C.UTF-8"}};
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq == std::string::npos || !passed_through(kv.substr(0, eq))) continue;
    spec.env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  spec.cwd = io;
  spec.isolation.read_write_paths = {io};
  spec.isolation.read_only_paths = sandbox_.read_only;
  if (const char* tool = std::getenv("RUBRIC_COMPUTE_SANITIZER"); tool && *tool && tool[0] == '/')
    spec.isolation.read_only_paths.push_back(tool);
  if (const char* ld = std::getenv("LD_LIBRARY_PATH"); ld && *ld) {
    std::string dirs = ld;
    for (std::size_t start = 0; start <= dirs.size();) {
      std::size_t colon = dirs.find(':', start);
      std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!dir.empty() && dir[0] == '/') spec.isolation.read_only_paths.push_back(dir);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  if (sandbox_.gpu_devices) {
    spec.isolation.devices = gpu_device_nodes();
    // The driver reads the PCI topology and NUMA facts of its devices there (hardware facts only).
    spec.isolation.read_only_paths.push_back("/sys");
  }
  // Time is bounded per request (the client's deadlines); a CPU-seconds limit would end a worker
  // that served many requests. Host memory: the cgroup where the machine allows one.
  spec.limits.cpu_seconds = 0;
  spec.limits.file_size_bytes = 64ull << 30;
  spec.limits.memory_bytes = sandbox_.memory_bytes;
  if (backend_ == "cuda" && !memory_cgroup_available()) spec.limits.memory_bytes = 0;
  spec.stdout_fd = log;
  spec.stderr_fd = log;
  spec.pass_fd = sv[1];
  spec.pass_as = 3;
  try {
    process_.reset();
    process_.emplace(process::spawn_sandboxed(spec));
  } catch (...) {
    ::close(sv[0]);
    ::close(sv[1]);
    log_.reset();
    throw;
  }
  ::close(sv[1]);
  log_->close_write_end();
  fd_ = sv[0];
  reader_ = std::make_unique<MessageReader>(fd_);
}

std::string WorkerClient::reap(bool kill_first) {
  if (!running()) return "worker not running";
  if (kill_first) process_->kill();
  // A worker that closed its end is exiting; give it a moment before forcing it.
  std::string how = process_->reap(2.0);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  reader_.reset();
  if (log_) log_->finish();
  log_.reset();
  return "worker " + how;
}

void WorkerClient::stop() {
  if (running()) {
    write_message(fd_, Message().set("op", "quit"));
    reap(false);
  }
  std::error_code ec;
  if (!exchange_.empty()) fs::remove_all(exchange_, ec);
  exchange_.clear();
}

WorkerReply WorkerClient::request(const Message& m, double timeout_s, const ProgressHandler& on_progress) {
  if (!running()) start();
  using Clock = std::chrono::steady_clock;
  auto after = [](double s) {
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  const std::string nonce = fresh_nonce();
  Message sent;
  sent.set("nonce", nonce);
  for (const auto& [k, v] : m.fields())
    if (k != "nonce") sent.set(k, v);
  const auto sent_at = Clock::now();
  auto since_sent = [&] { return std::chrono::duration<double>(Clock::now() - sent_at).count(); };
  auto deadline = after(timeout_s);
  double budget = timeout_s;
  bool progressed = false;
  std::string forged;
  Message answer;
  ReadStatus st = write_message(fd_, sent) ? reader_->read(answer, deadline) : ReadStatus::closed;
  while (st == ReadStatus::ok) {
    const auto& f = answer.fields();
    if (f.empty() || f.front().first != "nonce" || f.front().second != nonce) {
      forged = "a message on the worker's channel did not carry this request's nonce (written by something other "
               "than the worker's reply code)";
      break;
    }
    if (answer.get_or("status", "") != "progress") break;
    if (progressed) {
      forged = "the worker reported progress twice in one request";
      break;
    }
    progressed = true;
    if (on_progress) {
      budget = on_progress(answer, since_sent());
      deadline = after(budget);
    }
    answer = Message();
    st = reader_->read(answer, deadline);
  }
  WorkerReply reply;
  reply.seconds = since_sent();
  if (!forged.empty()) {
    reap(true);
    reply.failure = "forged reply: " + forged;
    reply.forged = true;
    reply.worker_lost = true;
    return reply;
  }
  switch (st) {
    case ReadStatus::ok:
      reply.message = answer;
      reply.ok = answer.get_or("status", "") == "ok";
      reply.grader_environment = answer.get_or("blame", "") == "environment";
      if (!reply.ok) reply.failure = answer.get_or("reason", "the worker reported a failure without a reason");
      if (answer.get_or("fatal", "0") == "1") {
        reap(false);
        reply.worker_lost = true;
      }
      return reply;
    case ReadStatus::timed_out:
      reap(true);
      reply.failure = fmt::format("timed out after {:g} s", budget);
      reply.worker_lost = true;
      return reply;
    case ReadStatus::malformed:
      reap(true);
      reply.failure = "the worker sent a malformed reply";
      reply.worker_lost = true;
      return reply;
    case ReadStatus::closed:
      reply.failure = reap(false);
      reply.worker_lost = true;
      return reply;
  }
  return reply;
}

}  // namespace rubric::cuda
