#include "operators/process/sandbox.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <thread>

#include "operators/error.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/files/temp_owner.hpp"
#include "operators/process/confinement.hpp"
#include "operators/process/launch.hpp"
#include "operators/process/whitelist.hpp"

namespace rubric::process {

// Everything the supervisor may read until it has exec'd rubric-run-init (or, without it, until
// it exits): owned here until the sandbox is reaped.
struct SandboxedProcess::State {
  std::unique_ptr<detail::CStrings> argv, envp;
  std::string exe, cwd, new_root_parent, new_root;
  files::TempOwner owner;  // of new_root_parent, so a killed grader's is swept
  std::optional<Whitelist> whitelist;
  std::optional<MemoryCgroup> cgroup;
  std::optional<PidsCgroup> pids;  // after cgroup: in v2 it is the memory cgroup's directory
  detail::SupervisorPlan plan;
  void* stack = nullptr;
  pid_t supervisor = 0;
  int report_fd = -1;
  Isolation iso;
  std::uint64_t memory_bytes = 0;

  ~State() {
    if (supervisor > 0) {
      ::kill(supervisor, SIGKILL);
      int st;
      while (::waitpid(supervisor, &st, 0) < 0 && errno == EINTR) {}
    }
    if (report_fd >= 0) ::close(report_fd);
    if (stack) ::munmap(stack, detail::kSupervisorStack);
    if (!new_root_parent.empty()) {
      ::rmdir(new_root.c_str());
      owner.remove(new_root_parent);
    }
  }
};

SandboxedProcess::~SandboxedProcess() = default;
SandboxedProcess::SandboxedProcess(SandboxedProcess&&) noexcept = default;
SandboxedProcess& SandboxedProcess::operator=(SandboxedProcess&&) noexcept = default;

bool SandboxedProcess::running() const { return state_ && state_->supervisor > 0; }
pid_t SandboxedProcess::pid() const { return state_ ? state_->supervisor : 0; }
const Isolation& SandboxedProcess::isolation() const {
  static const Isolation none;
  return state_ ? state_->iso : none;
}

void SandboxedProcess::kill() {
  if (running()) ::kill(state_->supervisor, SIGKILL);
}

std::string SandboxedProcess::reap(double timeout_s) {
  if (!running()) return "not running";
  State& s = *state_;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  pid_t r;
  while ((r = ::waitpid(s.supervisor, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (r == 0) {
    ::kill(s.supervisor, SIGKILL);
    ::waitpid(s.supervisor, &status, 0);
  }
  s.supervisor = 0;
  // The records: setup, a launch error, the program's end.
  std::string bytes;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(s.report_fd, buf, sizeof buf)) > 0) bytes.append(buf, std::size_t(n));
  std::string how;
  for (std::size_t off = 0; off + sizeof(detail::ReportRecord) <= bytes.size(); off += sizeof(detail::ReportRecord)) {
    detail::ReportRecord rec;
    std::memcpy(&rec, bytes.data() + off, sizeof rec);
    if (rec.kind == 'E') {
      how = detail::Stage(rec.stage) == detail::Stage::Exec
                ? fmt::format("cannot execute '{}': {}", s.exe, std::strerror(rec.err))
                : fmt::format("could not {}: {}", detail::stage_description(detail::Stage(rec.stage)), std::strerror(rec.err));
    } else if (rec.kind == 'X') {
      if (WIFEXITED(rec.wait_status)) how = fmt::format("exited with code {}", WEXITSTATUS(rec.wait_status));
      else if (WIFSIGNALED(rec.wait_status)) how = fmt::format("killed by {}", signal_name(WTERMSIG(rec.wait_status)));
    }
  }
  if (how.empty()) how = WIFSIGNALED(status) ? fmt::format("killed by {}", signal_name(WTERMSIG(status))) : "ended";
  if (s.cgroup && s.cgroup->ok() && s.cgroup->oom_killed())
    how = fmt::format("exceeded {} of memory ({})", files::size_text(s.memory_bytes), how);
  return how;
}

SandboxedProcess spawn_sandboxed(const SandboxSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty() || spec.argv[0][0] != '/')
    throw OperatorError("sandbox: the program must be given by its absolute path");
  auto state = std::make_unique<SandboxedProcess::State>();
  SandboxedProcess::State& s = *state;
  const IsolationRequest& req = spec.isolation;
  s.exe = spec.argv[0];
  s.cwd = spec.cwd.empty() ? "/" : spec.cwd;
  s.argv = std::make_unique<detail::CStrings>(spec.argv);
  std::vector<std::string> env;
  for (const auto& kv : spec.env) env.push_back(kv.first + "=" + kv.second);
  s.envp = std::make_unique<detail::CStrings>(env);
  const bool root = ::geteuid() == 0;

  if (req.whitelist) {
    // The mount point of the new root: an empty directory of its own under /tmp.
    char templ[] = "/tmp/rubric-sandbox-XXXXXX";
    if (!::mkdtemp(templ)) throw OperatorError(fmt::format("cannot create a sandbox root: {}", std::strerror(errno)));
    s.new_root_parent = templ;
    s.owner = files::TempOwner::claim(templ);
    s.new_root = s.new_root_parent + "/root";
    ::mkdir(s.new_root.c_str(), 0755);
    WhitelistSpec ws;
    ws.new_root = s.new_root;
    ws.read_only = req.read_only_paths;
    ws.read_only.push_back(s.exe);
    ws.read_write = req.read_write_paths;
    ws.devices = req.devices;
    ws.tmp_bytes = req.tmp_bytes;
    ws.proc = req.pid_namespace;
    s.whitelist.emplace(ws);
  }
  if (spec.limits.memory_bytes) {
    s.memory_bytes = spec.limits.memory_bytes;
    s.cgroup.emplace(spec.limits.memory_bytes);
    s.iso.memory_limit = s.cgroup->ok()
                             ? fmt::format("memory {} ({})", files::size_text(s.memory_bytes), s.cgroup->version())
                             : fmt::format("memory {} (RLIMIT_DATA)", files::size_text(s.memory_bytes));
  }
  if (spec.limits.processes) {
    s.pids.emplace(spec.limits.processes, s.cgroup && s.cgroup->ok() ? &*s.cgroup : nullptr);
    s.iso.process_limit = s.pids->ok() ? fmt::format("processes {} ({})", spec.limits.processes, s.pids->version())
                                       : fmt::format("processes {} (RLIMIT_NPROC)", spec.limits.processes);
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw OperatorError(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  s.report_fd = fds[0];
  const int report_write = fds[1];
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  int init_fd = -1;
  if (auto init = run_init_executable()) init_fd = ::open(init->c_str(), O_PATH | O_CLOEXEC);

  detail::SupervisorPlan& plan = s.plan;
  plan.exe = s.exe.c_str();
  plan.argv = s.argv->ptrs.data();
  plan.envp = s.envp->ptrs.data();
  plan.cwd = s.cwd.c_str();
  plan.stdout_fd = spec.stdout_fd >= 0 ? spec.stdout_fd : null_fd;
  plan.stderr_fd = spec.stderr_fd >= 0 ? spec.stderr_fd : null_fd;
  plan.report_fd = report_write;
  plan.parent_fds[0] = s.report_fd;
  plan.parent_pid = ::getpid();
  plan.cpu = detail::make_limit(spec.limits.cpu_seconds);
  plan.address_space = detail::make_limit(double(spec.limits.address_space_bytes));
  plan.file_size = detail::make_limit(double(spec.limits.file_size_bytes));
  plan.processes = detail::make_limit(double(spec.limits.processes));
  plan.drop_privileges = root && req.drop_privileges;
  plan.uid = req.uid;
  plan.gid = req.gid;
  plan.outer_uid = ::geteuid();
  plan.outer_gid = ::getegid();
  if (s.whitelist) {
    plan.mounts = s.whitelist->steps();
    plan.mount_count = s.whitelist->count();
    plan.new_root = s.new_root.c_str();
  }
  std::string why;
  plan.seccomp_program = req.seccomp ? seccomp_program(&why) : nullptr;
  plan.init_fd = init_fd;
  if (s.cgroup && s.cgroup->ok()) plan.cgroup_procs_fd = s.cgroup->open_procs();
  else if (spec.limits.memory_bytes) plan.data = detail::make_limit(double(spec.limits.memory_bytes));
  if (s.pids && s.pids->ok()) {
    plan.pids_cgroup = true;
    plan.pids_procs_fd = s.pids->open_procs();
  }
  plan.pass_fd = spec.pass_fd;
  plan.pass_as = spec.pass_fd >= 0 ? spec.pass_as : -1;

  s.stack = ::mmap(nullptr, detail::kSupervisorStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (s.stack == MAP_FAILED) {
    s.stack = nullptr;
    throw OperatorError(fmt::format("cannot map a stack: {}", std::strerror(errno)));
  }
  try {
    s.supervisor = detail::start_supervisor(plan, req, true, s.iso, static_cast<char*>(s.stack) + detail::kSupervisorStack);
  } catch (...) {
    ::close(report_write);
    if (null_fd >= 0) ::close(null_fd);
    if (init_fd >= 0) ::close(init_fd);
    if (plan.cgroup_procs_fd >= 0) ::close(plan.cgroup_procs_fd);
    if (plan.pids_procs_fd >= 0) ::close(plan.pids_procs_fd);
    throw;
  }
  ::close(report_write);
  if (null_fd >= 0) ::close(null_fd);
  if (init_fd >= 0) ::close(init_fd);
  if (plan.cgroup_procs_fd >= 0) ::close(plan.cgroup_procs_fd);
  if (plan.pids_procs_fd >= 0) ::close(plan.pids_procs_fd);

  // Wait for the setup record: what the sandbox got (or why the whitelist failed) is known
  // before the caller starts talking to the program.
  std::string bytes;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (bytes.size() < sizeof(detail::ReportRecord) && std::chrono::steady_clock::now() < deadline) {
    struct pollfd p = {s.report_fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buf[sizeof(detail::ReportRecord)];
    ssize_t n = ::read(s.report_fd, buf, sizeof buf - bytes.size());
    if (n <= 0) break;
    bytes.append(buf, std::size_t(n));
  }
  s.iso.process_group = s.iso.rlimits = true;
  s.iso.unprivileged = !root || plan.drop_privileges || plan.user_namespace;
  if (bytes.size() == sizeof(detail::ReportRecord)) {
    detail::ReportRecord rec;
    std::memcpy(&rec, bytes.data(), sizeof rec);
    if (rec.kind == 'S') {
      s.iso.whitelist = rec.flags & detail::kWhitelist;
      s.iso.private_tmp = rec.flags & detail::kPrivateTmp;
      s.iso.own_init = rec.flags & detail::kInitExec;
      if (s.pids && s.pids->ok() && !(rec.flags & detail::kPidsCgroup))
        s.iso.process_limit = fmt::format("processes {} (RLIMIT_NPROC; could not join the pids cgroup)", spec.limits.processes);
      s.iso.seccomp = plan.seccomp_program != nullptr;
      s.iso.no_capabilities = true;
    } else if (rec.kind == 'W' && detail::Stage(rec.stage) == detail::Stage::Whitelist) {
      // The machine refused a step: start it again without the whitelist, and say why.
      const std::string note = fmt::format("whitelist filesystem (could not {}: {})", s.whitelist->describe(rec.step),
                                           std::strerror(rec.err));
      SandboxSpec again = spec;
      again.isolation.whitelist = false;
      SandboxedProcess retry = spawn_sandboxed(again);
      retry.state_->iso.notes.push_back(note);
      return retry;
    }
  }
  SandboxedProcess out;
  out.state_ = std::move(state);
  return out;
}

}  // namespace rubric::process
