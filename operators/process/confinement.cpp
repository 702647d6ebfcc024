#include "operators/process/confinement.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <seccomp.h>
#include <linux/filter.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#ifndef RUBRIC_RUN_INIT_PATH
#define RUBRIC_RUN_INIT_PATH ""
#endif

namespace rubric::process {
namespace {

const char* const kRefused[] = {"keyctl", "add_key", "request_key", "ptrace", "process_vm_readv",
                                "process_vm_writev", "mount", "umount2", "pivot_root", "unshare", "setns",
                                "bpf", "perf_event_open", "init_module", "finit_module", "delete_module",
                                "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "settimeofday",
                                "clock_settime", "clock_adjtime", "adjtimex", "acct", "quotactl",
                                "open_by_handle_at", "name_to_handle_at", "syslog", "userfaultfd",
                                "fsopen", "fsmount", "move_mount", "open_tree", "mount_setattr",
                                // io_uring's operations run past this filter (Docker's default profile
                                // refuses it too); programs that try it fall back to plain calls.
                                "io_uring_setup", "io_uring_enter", "io_uring_register", nullptr};

struct Program {
  std::vector<sock_filter> filter;
  sock_fprog prog{};
  std::string why;
};

Program build_program() {
  Program out;
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) {
    out.why = "seccomp_init failed";
    return out;
  }
  for (const char* const* name = kRefused; *name; ++name) {
    int nr = seccomp_syscall_resolve_name(*name);
    if (nr == __NR_SCMP_ERROR) continue;  // not on this architecture
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) != 0) {
      out.why = fmt::format("cannot add a rule for {}", *name);
      seccomp_release(ctx);
      return out;
    }
  }
  // The filter goes through a memory file: libseccomp 2.5 exports BPF only to a descriptor.
  int fd = ::memfd_create("rubric-seccomp", MFD_CLOEXEC);
  int rc = fd >= 0 ? seccomp_export_bpf(ctx, fd) : -errno;
  seccomp_release(ctx);
  if (rc != 0) {
    if (fd >= 0) ::close(fd);
    out.why = fmt::format("cannot export the filter: {}", std::strerror(-rc));
    return out;
  }
  off_t size = ::lseek(fd, 0, SEEK_END);
  out.filter.resize(std::size_t(size) / sizeof(sock_filter));
  if (::pread(fd, out.filter.data(), out.filter.size() * sizeof(sock_filter), 0) != ssize_t(out.filter.size() * sizeof(sock_filter)))
    out.why = "cannot read the exported filter";
  ::close(fd);
  out.prog.len = static_cast<unsigned short>(out.filter.size());
  out.prog.filter = out.filter.data();
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool write_text(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  ::close(fd);
  return ok;
}

// This process's cgroup path in the v2 hierarchy, or in the v1 hierarchy of `controller`
// (whose line may name several: "cpu,cpuacct").
std::string own_cgroup(bool v2, const std::string& controller = "memory") {
  std::istringstream in(read_text("/proc/self/cgroup"));
  std::string line;
  while (std::getline(in, line)) {
    auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
    if (v2 ? line.compare(0, a, "0") == 0 && controllers == ",," : controllers.find("," + controller + ",") != std::string::npos)
      return line.substr(b + 1);
  }
  return "";
}

bool has_word(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  std::string w;
  while (in >> w)
    if (w == word) return true;
  return false;
}

std::atomic<unsigned> g_counter{0};

}  // namespace

const char* const* refused_syscalls() { return kRefused; }

const void* seccomp_program(std::string* why) {
  static Program program = build_program();
  if (!program.why.empty() || program.filter.empty()) {
    if (why) *why = program.why.empty() ? "empty filter" : program.why;
    return nullptr;
  }
  return &program.prog;
}

std::optional<std::string> run_init_executable() {
  static const std::optional<std::string> found = []() -> std::optional<std::string> {
    if (const char* env = std::getenv("RUBRIC_RUN_INIT"); env && *env && ::access(env, X_OK) == 0) return env;
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      auto beside = self.parent_path() / "rubric-run-init";
      if (::access(beside.c_str(), X_OK) == 0) return beside.string();
    }
    if (*RUBRIC_RUN_INIT_PATH && ::access(RUBRIC_RUN_INIT_PATH, X_OK) == 0) return std::string(RUBRIC_RUN_INIT_PATH);
    return std::nullopt;
  }();
  return found;
}

MemoryCgroup::MemoryCgroup(std::uint64_t limit_bytes) {
  struct stat st;
  const bool v2 = ::stat("/sys/fs/cgroup/cgroup.controllers", &st) == 0;
  std::string base;
  if (v2) {
    base = "/sys/fs/cgroup" + own_cgroup(true);
    if (!has_word(read_text(base + "/cgroup.subtree_control"), "memory")) {
      why_ = "cgroup v2 without the memory controller delegated here";
      return;
    }
  } else {
    if (::stat("/sys/fs/cgroup/memory", &st) != 0) {
      why_ = "no memory cgroup controller mounted";
      return;
    }
    base = "/sys/fs/cgroup/memory" + own_cgroup(false);
  }
  std::string dir = fmt::format("{}/rubric-run-{}-{}", base, ::getpid(), g_counter++);
  if (::mkdir(dir.c_str(), 0755) != 0) {
    why_ = fmt::format("cannot create a cgroup: {}", std::strerror(errno));
    return;
  }
  const std::string limit = std::to_string(limit_bytes);
  bool ok = v2 ? write_text(dir + "/memory.max", limit) && (write_text(dir + "/memory.swap.max", "0") || true)
               : write_text(dir + "/memory.limit_in_bytes", limit) &&
                     (write_text(dir + "/memory.memsw.limit_in_bytes", limit) || true);
  if (!ok) {
    why_ = fmt::format("cannot set the cgroup's memory limit: {}", std::strerror(errno));
    ::rmdir(dir.c_str());
    return;
  }
  dir_ = dir;
  v2_ = v2;
}

MemoryCgroup::~MemoryCgroup() {
  if (dir_.empty()) return;
  // The run's processes are gone (the supervisor was reaped); a zombie may still count for a moment.
  for (int i = 0; i < 200 && ::rmdir(dir_.c_str()) != 0 && errno == EBUSY; ++i) ::usleep(1000);
}

int MemoryCgroup::open_procs() const {
  if (dir_.empty()) return -1;
  return ::open((dir_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
}

bool MemoryCgroup::oom_killed() const {
  if (dir_.empty()) return false;
  const std::string text = read_text(dir_ + (v2_ ? "/memory.events" : "/memory.oom_control"));
  auto at = text.find("oom_kill ");
  if (at == std::string::npos) return false;
  return std::strtoull(text.c_str() + at + 9, nullptr, 10) > 0;
}

std::uint64_t MemoryCgroup::peak() const {
  if (dir_.empty()) return 0;
  return std::strtoull(read_text(dir_ + (v2_ ? "/memory.peak" : "/memory.max_usage_in_bytes")).c_str(), nullptr, 10);
}

PidsCgroup::PidsCgroup(std::uint64_t max_processes, const MemoryCgroup* memory) {
  const std::string limit = std::to_string(max_processes);
  struct stat st;
  if (::stat("/sys/fs/cgroup/cgroup.controllers", &st) == 0) {
    if (!memory || !memory->ok() || !memory->v2()) {
      why_ = "cgroup v2 without a cgroup of the run's own";
      return;
    }
    const std::string parent = std::filesystem::path(memory->dir()).parent_path().string();
    if (!has_word(read_text(parent + "/cgroup.subtree_control"), "pids")) {
      why_ = "cgroup v2 without the pids controller delegated here";
      return;
    }
    if (!write_text(memory->dir() + "/pids.max", limit)) {
      why_ = fmt::format("cannot set the cgroup's process limit: {}", std::strerror(errno));
      return;
    }
    dir_ = memory->dir();
    return;
  }
  if (::stat("/sys/fs/cgroup/pids", &st) != 0) {
    why_ = "no pids cgroup controller mounted";
    return;
  }
  std::string dir = fmt::format("/sys/fs/cgroup/pids{}/rubric-run-{}-{}", own_cgroup(false, "pids"), ::getpid(), g_counter++);
  if (::mkdir(dir.c_str(), 0755) != 0) {
    why_ = fmt::format("cannot create a pids cgroup: {}", std::strerror(errno));
    return;
  }
  if (!write_text(dir + "/pids.max", limit)) {
    why_ = fmt::format("cannot set the cgroup's process limit: {}", std::strerror(errno));
    ::rmdir(dir.c_str());
    return;
  }
  dir_ = dir;
  own_ = true;
}

PidsCgroup::~PidsCgroup() {
  if (!own_) return;
  for (int i = 0; i < 200 && ::rmdir(dir_.c_str()) != 0 && errno == EBUSY; ++i) ::usleep(1000);
}

int PidsCgroup::open_procs() const {
  if (!own_) return -1;
  return ::open((dir_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
}

bool PidsCgroup::limit_hit() const {
  if (dir_.empty()) return false;
  const std::string text = read_text(dir_ + "/pids.events");
  auto at = text.find("max ");
  return at != std::string::npos && std::strtoull(text.c_str() + at + 4, nullptr, 10) > 0;
}

}  // namespace rubric::process
