#include "operators/process/run_isolated.hpp"

#include <fcntl.h>
#include <algorithm>
#include <fmt/format.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "operators/error.hpp"
#include "operators/process/scratch_dir.hpp"
#include "operators/process/supervisor.hpp"

namespace rubric::process {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
constexpr std::size_t kSupervisorStack = 256 * 1024;
#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer keeps per-thread state the supervisor would share and corrupt: copy instead.
constexpr int kShareMemory = 0;
#else
constexpr int kShareMemory = CLONE_VM;
#endif
// After the kill, how long output may take to reach EOF before the supervisor itself is killed.
constexpr auto kKillGrace = std::chrono::seconds(5);

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw OperatorError(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() { close_read(); close_write(); }
  void close_read() { if (read >= 0) ::close(read); read = -1; }
  void close_write() { if (write >= 0) ::close(write); write = -1; }
};

// NULL-terminated char* arrays over owned strings, built before the clone.
struct CStrings {
  std::vector<std::string> owned;
  std::vector<char*> ptrs;
  explicit CStrings(std::vector<std::string> s) : owned(std::move(s)) {
    for (auto& x : owned) ptrs.push_back(x.data());
    ptrs.push_back(nullptr);
  }
};

std::string lookup_env(const std::vector<std::pair<std::string, std::string>>& env, const std::string& name,
                       const std::string& fallback) {
  for (auto it = env.rbegin(); it != env.rend(); ++it)
    if (it->first == name) return it->second;
  return fallback;
}

// The executable execve gets: argv[0] as given when it has a '/', else the first match in PATH.
std::optional<std::string> resolve_executable(const std::string& name, const std::string& path_var) {
  if (name.find('/') != std::string::npos) return name;
  std::size_t start = 0;
  while (start <= path_var.size()) {
    std::size_t colon = path_var.find(':', start);
    std::string dir = path_var.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return std::nullopt;
}

struct rlimit make_limit(double value) {
  struct rlimit r{};
  if (value > 0) r.rlim_cur = r.rlim_max = static_cast<rlim_t>(std::ceil(value));
  return r;
}

// Reads what is available on fd into out (up to cap), dropping the rest; false at EOF.
bool drain(int fd, std::string& out, std::size_t cap, bool& truncated) {
  char buf[65536];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0) return true;  // EINTR (errno itself may be the supervisor's, see start_supervisor)
  if (n == 0) return false;
  std::size_t room = out.size() < cap ? cap - out.size() : 0;
  out.append(buf, std::min<std::size_t>(room, std::size_t(n)));
  if (std::size_t(n) > room) truncated = true;
  return true;
}

// Clones the supervisor with as many namespaces as the machine grants; records what it got.
pid_t start_supervisor(detail::SupervisorPlan& plan, const IsolationRequest& req, bool need_mounts, Isolation& iso,
                       void* stack_top) {
  const bool root = ::geteuid() == 0;
  int wanted = 0;
  if (req.pid_namespace) wanted |= CLONE_NEWPID;
  if (req.no_network) wanted |= CLONE_NEWNET;
  if (need_mounts) wanted |= CLONE_NEWNS;
  std::vector<int> attempts;
  if (wanted) {
    attempts.push_back(root ? wanted : wanted | CLONE_NEWUSER);
    if (root) attempts.push_back(wanted | CLONE_NEWUSER);
  }
  attempts.push_back(0);
  int first_error = 0;
  for (int flags : attempts) {
    plan.pid_namespace = flags & CLONE_NEWPID;
    plan.net_namespace = flags & CLONE_NEWNET;
    plan.mount_namespace = flags & CLONE_NEWNS;
    plan.user_namespace = flags & CLONE_NEWUSER;
    // With a user namespace the candidate is already unprivileged outside it.
    if (plan.user_namespace) plan.drop_privileges = false;
    // CLONE_VM: the supervisor shares the host's memory instead of copying its page tables, which
    // halves the cost of a run. It only reads the plan (alive until we reap it) and writes its own
    // stack; the one shared thing it writes is this thread's errno, so the loop below never
    // relies on errno while it runs.
    // The supervisor starts with every signal blocked (restored below for this thread): it
    // inherits this process's handlers, which must never run in it.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = ::clone(detail::supervisor_main, stack_top, flags | kShareMemory | SIGCHLD, &plan);
    const int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = clone_errno;
    if (pid > 0) {
      iso.pid_namespace = plan.pid_namespace;
      iso.no_network = plan.net_namespace;
      if (wanted && flags == 0)
        iso.notes.push_back(fmt::format("namespaces (clone: {})", std::strerror(first_error)));
      return pid;
    }
    if (!first_error) first_error = errno;
  }
  throw OperatorError(fmt::format("cannot start a process: {}", std::strerror(errno)));
}

}  // namespace

RunResult run_isolated(const RunSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty()) throw OperatorError("run: the command is empty");
  if (!(spec.timeout_seconds > 0)) throw OperatorError(fmt::format("run: timeout {} s is not positive", spec.timeout_seconds));
  const IsolationRequest& req = spec.isolation;
  const std::string source_dir = spec.cwd.empty() ? std::filesystem::current_path().string() : spec.cwd;
  {
    struct stat st;
    if (::stat(source_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      throw OperatorError(fmt::format("run: directory {} does not exist or is not a directory", source_dir));
  }

  RunResult result;
  result.timeout_seconds = spec.timeout_seconds;
  Isolation& iso = result.isolation;
  ScratchDir scratch;
  if (spec.keep_scratch) {
    scratch.keep();
    result.scratch_dir = scratch.root();
  }
  std::string run_dir = source_dir;
  if (req.scratch_copy) {
    run_dir = scratch.copy_tree(source_dir);
    iso.scratch_copy = true;
  }
  const bool root = ::geteuid() == 0;
  const bool drop = root && req.drop_privileges;
  if (drop) scratch.give_to(req.uid, req.gid);
  if (root && !req.drop_privileges) iso.notes.push_back("process count limit (root is exempt from RLIMIT_NPROC)");

  // Scrubbed environment: fixed names first, the caller's after (a later duplicate wins in lookup_env,
  // and we drop earlier duplicates so the child sees one value).
  std::vector<std::pair<std::string, std::string>> env = {
      {"PATH", kDefaultPath}, {"HOME", scratch.tmp()}, {"LANG", "C.UTF-8"}, {"TMPDIR", scratch.tmp()}};
  for (const auto& kv : spec.env) {
    bool replaced = false;
    for (auto& e : env)
      if (e.first == kv.first) { e.second = kv.second; replaced = true; }
    if (!replaced) env.push_back(kv);
  }
  std::vector<std::string> env_lines;
  for (const auto& kv : env) env_lines.push_back(kv.first + "=" + kv.second);

  const auto exe = resolve_executable(spec.argv[0], lookup_env(env, "PATH", kDefaultPath));
  if (!exe) {
    result.launch_failed = true;
    result.launch_error = fmt::format("cannot execute '{}': not found in PATH", spec.argv[0]);
    return result;
  }

  std::vector<std::string> hidden;
  std::unique_ptr<bool[]> hidden_is_dir(new bool[req.hidden_paths.size() + 1]);
  for (const std::string& h : req.hidden_paths) {
    std::error_code ec;
    auto canonical = std::filesystem::canonical(h, ec);
    if (ec) continue;  // nothing there to hide
    hidden_is_dir[hidden.size()] = std::filesystem::is_directory(canonical, ec);
    hidden.push_back(canonical.string());
  }
  std::vector<const char*> hidden_ptrs;
  for (auto& h : hidden) hidden_ptrs.push_back(h.c_str());

  CStrings argv(spec.argv), envp(env_lines);
  Pipe out, err, report;
  detail::SupervisorPlan plan;
  plan.exe = exe->c_str();
  plan.argv = argv.ptrs.data();
  plan.envp = envp.ptrs.data();
  plan.cwd = run_dir.c_str();
  plan.stdout_fd = out.write;
  plan.stderr_fd = err.write;
  plan.report_fd = report.write;
  plan.parent_fds[0] = out.read;
  plan.parent_fds[1] = err.read;
  plan.parent_fds[2] = report.read;
  plan.parent_pid = ::getpid();
  plan.cpu = make_limit(spec.limits.cpu_seconds);
  plan.address_space = make_limit(double(spec.limits.address_space_bytes));
  plan.file_size = make_limit(double(spec.limits.file_size_bytes));
  plan.processes = make_limit(double(spec.limits.processes));
  plan.drop_privileges = drop;
  plan.uid = req.uid;
  plan.gid = req.gid;
  plan.outer_uid = ::geteuid();
  plan.outer_gid = ::getegid();
  plan.hidden = hidden_ptrs.data();
  plan.hidden_is_dir = hidden_is_dir.get();
  plan.hidden_count = int(hidden.size());
  plan.private_tmp = req.private_tmp;
  // Directories the run needs that may live under a temp dir the private /tmp would cover.
  std::vector<std::string> keep_dirs = {scratch.root(), run_dir};
  if (exe->front() == '/') keep_dirs.push_back(std::filesystem::path(*exe).parent_path().string());
  std::vector<const char*> keep_ptrs;
  for (const auto& k : keep_dirs) keep_ptrs.push_back(k.c_str());
  plan.keep_dirs = keep_ptrs.data();
  plan.keep_count = int(keep_ptrs.size());

  void* stack = ::mmap(nullptr, kSupervisorStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) throw OperatorError(fmt::format("cannot map a stack: {}", std::strerror(errno)));
  struct StackGuard { void* p; ~StackGuard() { ::munmap(p, kSupervisorStack); } } stack_guard{stack};

  const auto started = Clock::now();
  const bool need_mounts = !hidden.empty() || req.pid_namespace || req.private_tmp;
  const pid_t supervisor = start_supervisor(plan, req, need_mounts, iso, static_cast<char*>(stack) + kSupervisorStack);
  out.close_write();
  err.close_write();
  report.close_write();

  // Capped at ten years: converting a larger double (timeout = 1e300 s) to the clock's integer
  // ticks overflows, which put the deadline in the past and killed the program at once.
  const double timeout_s = std::min(spec.timeout_seconds, 10 * 365 * 86400.0);
  const auto deadline = started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  std::optional<Clock::time_point> give_up;  // set once the kill was sent
  std::string report_bytes;
  bool report_truncated = false;
  bool out_open = true, err_open = true, report_open = true;
  int candidate_pid = 0;  // in the supervisor's view (host view without a PID namespace)
  // The report pipe is read only once the output pipes closed (or to find the candidate's pid at
  // a kill): each wakeup of this thread costs a scheduling delay on a loaded machine.
  ::fcntl(report.read, F_SETFL, O_NONBLOCK);
  auto read_report = [&]() {
    report_open = drain(report.read, report_bytes, 1 << 20, report_truncated);
    for (std::size_t off = 0; off + sizeof(detail::ReportRecord) <= report_bytes.size(); off += sizeof(detail::ReportRecord)) {
      detail::ReportRecord rec;
      std::memcpy(&rec, report_bytes.data() + off, sizeof rec);
      if (rec.kind == 'S') candidate_pid = rec.pid;
    }
  };

  auto kill_run = [&]() {
    if (plan.pid_namespace) {
      ::kill(supervisor, SIGKILL);  // init dies, the kernel kills the whole namespace
    } else if (candidate_pid > 0) {
      ::kill(-candidate_pid, SIGKILL);  // the supervisor then kills every descendant it inherits
      ::kill(candidate_pid, SIGKILL);
    } else {
      ::kill(supervisor, SIGKILL);
    }
  };

  while (out_open || err_open || report_open) {
    const auto now = Clock::now();
    if (!give_up && now >= deadline) {
      result.timed_out = true;
      if (report_open) read_report();
      kill_run();
      give_up = now + kKillGrace;
    }
    if (give_up && now >= *give_up) {
      ::kill(supervisor, SIGKILL);
      break;
    }
    const auto until = give_up ? *give_up : deadline;
    const int wait_ms = int(std::max<long long>(1, std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count() + 1));
    struct pollfd fds[3] = {{out_open ? out.read : -1, POLLIN, 0},
                            {err_open ? err.read : -1, POLLIN, 0},
                            {report_open && !out_open && !err_open ? report.read : -1, POLLIN, 0}};
    int n = ::poll(fds, 3, wait_ms);
    if (n <= 0) continue;  // EINTR or the timeout; the deadline checks above end the loop
    if (fds[0].revents) out_open = drain(out.read, result.stdout_text, spec.output_cap_bytes, result.stdout_truncated);
    if (fds[1].revents) err_open = drain(err.read, result.stderr_text, spec.output_cap_bytes, result.stderr_truncated);
    if (fds[2].revents) read_report();
  }
  int sup_status = 0;
  for (int tries = 0; tries < 1000 && ::waitpid(supervisor, &sup_status, 0) < 0; ++tries) {}
  const double host_wall = std::chrono::duration<double>(Clock::now() - started).count();

  // Decode the supervisor's records.
  bool have_exit = false;
  iso.process_group = true;
  iso.rlimits = true;
  iso.unprivileged = !root || drop || plan.user_namespace;
  for (std::size_t off = 0; off + sizeof(detail::ReportRecord) <= report_bytes.size(); off += sizeof(detail::ReportRecord)) {
    detail::ReportRecord rec;
    std::memcpy(&rec, report_bytes.data() + off, sizeof rec);
    const auto stage = detail::Stage(rec.stage);
    switch (rec.kind) {
      case 'S':
        iso.hidden_paths = !req.hidden_paths.empty() && (rec.flags & detail::kHiddenPathsCovered);
        iso.subreaper = rec.flags & detail::kSubreaper;
        iso.private_tmp = rec.flags & detail::kPrivateTmp;
        break;
      case 'W':
        if (stage == detail::Stage::Rlimit) iso.rlimits = false;
        iso.notes.push_back(fmt::format("could not {}: {}", detail::stage_description(stage), std::strerror(rec.err)));
        break;
      case 'E':
        result.launch_failed = true;
        result.launch_error = stage == detail::Stage::Exec
                                  ? fmt::format("cannot execute '{}': {}", spec.argv[0], std::strerror(rec.err))
                                  : fmt::format("could not {}: {}", detail::stage_description(stage), std::strerror(rec.err));
        break;
      case 'X':
        have_exit = true;
        result.wall_seconds = double(rec.wall_ns) * 1e-9;
        result.user_cpu_seconds = double(rec.user_us) * 1e-6;
        result.system_cpu_seconds = double(rec.system_us) * 1e-6;
        if (WIFEXITED(rec.wait_status)) {
          result.exited = true;
          result.exit_code = WEXITSTATUS(rec.wait_status);
        } else if (WIFSIGNALED(rec.wait_status)) {
          result.signal = WTERMSIG(rec.wait_status);
        }
        break;
    }
  }
  if (!req.hidden_paths.empty() && !iso.hidden_paths)
    iso.notes.push_back(plan.mount_namespace ? "hidden paths (a mount failed)" : "hidden paths (no mount namespace)");
  if (req.private_tmp && !iso.private_tmp) iso.notes.push_back("private tmp (no mount namespace, or a mount failed)");
  if (req.no_network && !iso.no_network)
    iso.notes.push_back("no network (no network namespace)");
  if (result.timed_out) {
    result.exited = false;
    result.exit_code = -1;
    result.signal = SIGKILL;
    result.wall_seconds = host_wall;
  } else if (!have_exit) {
    // The supervisor died without reporting (killed from outside): say what we saw.
    result.wall_seconds = host_wall;
    if (WIFSIGNALED(sup_status)) result.signal = WTERMSIG(sup_status);
    if (!result.launch_failed && !result.signal) {
      result.launch_failed = true;
      result.launch_error = "the supervisor process ended without a report";
    }
  }
  if (result.signal) result.signal_name = signal_name(result.signal);
  if (result.launch_failed) result.exited = false;
  return result;
}

Isolation probe_isolation() {
  RunSpec spec;
  spec.argv = {"/bin/true"};
  spec.timeout_seconds = 10;
  return run_isolated(spec).isolation;
}

}  // namespace rubric::process
