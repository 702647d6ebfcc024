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
#include <string_view>

#include "operators/error.hpp"
#include "operators/process/confinement.hpp"
#include "operators/process/launch.hpp"
#include "operators/process/scratch_dir.hpp"
#include "operators/process/whitelist.hpp"
#include "operators/process/supervisor.hpp"

namespace rubric::process {
namespace {

using detail::CStrings;
using detail::kSupervisorStack;
using detail::make_limit;
using detail::start_supervisor;

using Clock = std::chrono::steady_clock;
constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
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

}  // namespace

namespace {

// `word` with the run folder's original path replaced by its copy's: a command naming a program
// or file of the submission by its absolute path runs the copy, which is all the candidate sees.
std::string to_copy(const std::string& word, const std::string& source, const std::string& copy) {
  if (source == copy) return word;
  if (word == source) return copy;
  if (word.size() > source.size() && word.compare(0, source.size(), source) == 0 && word[source.size()] == '/')
    return copy + word.substr(source.size());
  return word;
}

// Text a program prints when a host allocation failed: with RLIMIT_DATA nothing kills it, it fails.
// A line about the GPU's memory ("CUDA error: out of memory", torch's "CUDA out of memory") is not
// the run's memory limit and does not count.
bool says_out_of_memory(const std::string& err) {
  std::size_t start = 0;
  while (start < err.size()) {
    std::size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    const std::string_view line(err.data() + start, end - start);
    start = end + 1;
    bool oom = false;
    for (const char* s : {"bad_alloc", "MemoryError", "Cannot allocate memory", "out of memory", "Out of memory"})
      oom = oom || line.find(s) != std::string_view::npos;
    if (!oom) continue;
    bool device = false;
    for (const char* s : {"CUDA", "cuda", "GPU", "gpu", "device", "Device", "HIP", "cuBLAS", "cublas", "cuDNN", "NCCL"})
      device = device || line.find(s) != std::string_view::npos;
    if (!device) return true;
  }
  return false;
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
  result.memory_limit_bytes = spec.limits.memory_bytes;
  Isolation& iso = result.isolation;
  const bool root = ::geteuid() == 0;
  const bool drop = root && req.drop_privileges;
  ScratchDir scratch(drop);
  if (spec.keep_scratch) {
    scratch.keep();
    result.scratch_dir = scratch.root();
  }
  std::string run_dir = source_dir;
  if (req.scratch_copy) {
    files::CopyReport copied;
    run_dir = scratch.copy_tree(source_dir, spec.copy_budget, &copied);
    result.copied_bytes = copied.data_bytes;
    result.skipped_files = std::move(copied.skipped);
    iso.scratch_copy = true;
  }
  if (drop) scratch.give_to(req.uid, req.gid);

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

  std::vector<std::string> words;
  for (const std::string& w : spec.argv) words.push_back(to_copy(w, source_dir, run_dir));
  const auto exe = resolve_executable(words[0], lookup_env(env, "PATH", kDefaultPath));
  if (!exe) {
    result.launch_failed = true;
    result.launch_error = fmt::format("cannot execute '{}': not found in PATH", spec.argv[0]);
    result.tool_not_in_path = words[0].find('/') == std::string::npos;
    return result;
  }
  // What ran, named in the original folder's terms for the evidence (the copy is gone afterwards).
  result.executable = to_copy(exe->front() == '/' ? *exe : run_dir + "/" + *exe, run_dir, source_dir);

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

  // The whitelist root: what the candidate sees, built under scratch/root.
  std::optional<Whitelist> whitelist;
  const std::string new_root = scratch.root() + "/root";
  if (req.whitelist) {
    WhitelistSpec ws;
    ws.new_root = new_root;
    ws.read_write = {scratch.tmp()};
    if (run_dir != scratch.tmp()) ws.read_write.push_back(run_dir);
    ws.read_only = req.read_only_paths;
    if (exe->front() == '/') ws.read_only.push_back(*exe);
    for (const std::string& p : req.read_write_paths) ws.read_write.push_back(p);
    ws.devices = req.devices;
    ws.tmp_bytes = req.tmp_bytes;
    ws.proc = req.pid_namespace;
    if (::mkdir(new_root.c_str(), 0755) != 0)
      throw OperatorError(fmt::format("cannot create {}: {}", new_root, std::strerror(errno)));
    whitelist.emplace(ws);
  }

  std::string seccomp_why;
  const void* filter = req.seccomp ? seccomp_program(&seccomp_why) : nullptr;
  if (req.seccomp && !filter) iso.notes.push_back(fmt::format("seccomp ({})", seccomp_why));
  int init_fd = -1;
  if (auto init = run_init_executable()) init_fd = ::open(init->c_str(), O_PATH | O_CLOEXEC);
  struct FdGuard { int fd; ~FdGuard() { if (fd >= 0) ::close(fd); } } init_guard{init_fd};
  if (init_fd < 0) iso.notes.push_back("own init (rubric-run-init not found: the run's init is a clone of the grader)");

  std::optional<MemoryCgroup> cgroup;
  if (spec.limits.memory_bytes) {
    cgroup.emplace(spec.limits.memory_bytes);
    if (cgroup->ok()) iso.memory_limit = fmt::format("memory {} ({})", files::size_text(spec.limits.memory_bytes), cgroup->version());
    else iso.memory_limit = fmt::format("memory {} (RLIMIT_DATA; no cgroup: {})", files::size_text(spec.limits.memory_bytes), cgroup->why());
  }

  std::optional<PidsCgroup> pids;
  if (spec.limits.processes) {
    pids.emplace(spec.limits.processes, cgroup && cgroup->ok() ? &*cgroup : nullptr);
    if (pids->ok()) iso.process_limit = fmt::format("processes {} ({})", spec.limits.processes, pids->version());
    else iso.process_limit = fmt::format("processes {} (RLIMIT_NPROC; no pids cgroup: {})", spec.limits.processes, pids->why());
    if (!pids->ok() && root && !req.drop_privileges) iso.notes.push_back("process count limit (root is exempt from RLIMIT_NPROC)");
  }

  CStrings argv(words), envp(env_lines);
  void* stack = ::mmap(nullptr, kSupervisorStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) throw OperatorError(fmt::format("cannot map a stack: {}", std::strerror(errno)));
  struct StackGuard { void* p; ~StackGuard() { ::munmap(p, kSupervisorStack); } } stack_guard{stack};
  // The candidate's stack until its exec, above a page that faults instead of reaching other memory.
  const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
  void* candidate_stack = ::mmap(nullptr, kSupervisorStack + page, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (candidate_stack == MAP_FAILED) throw OperatorError(fmt::format("cannot map a stack: {}", std::strerror(errno)));
  struct CandidateStackGuard {
    void* p;
    std::size_t n;
    ~CandidateStackGuard() { ::munmap(p, n); }
  } candidate_stack_guard{candidate_stack, kSupervisorStack + page};
  ::mprotect(candidate_stack, page, PROT_NONE);
  // Directories the run needs that may live under a temp dir the private /tmp would cover
  // (used only without the whitelist).
  std::vector<std::string> keep_dirs = {scratch.root(), run_dir};
  if (exe->front() == '/') keep_dirs.push_back(std::filesystem::path(*exe).parent_path().string());
  // Folders the caller binds read-only (a compile's copy of its sources) may live under /tmp too;
  // the supervisor keeps at most four.
  for (const std::string& p : req.read_only_paths)
    if (keep_dirs.size() < 4) keep_dirs.push_back(p);
  std::vector<const char*> keep_ptrs;
  for (const auto& k : keep_dirs) keep_ptrs.push_back(k.c_str());

  bool use_whitelist = whitelist.has_value();
  bool whitelist_refused = false;  // the whitelist was tried and failed: said once, in its own note
  for (int attempt = 0;; ++attempt) {
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
    plan.keep_dirs = keep_ptrs.data();
    plan.keep_count = int(keep_ptrs.size());
    if (use_whitelist) {
      plan.mounts = whitelist->steps();
      plan.mount_count = whitelist->count();
      plan.new_root = new_root.c_str();
    }
    plan.seccomp_program = filter;
    plan.init_fd = init_fd;
    plan.candidate_stack_top = static_cast<char*>(candidate_stack) + page + kSupervisorStack;
    if (cgroup && cgroup->ok()) plan.cgroup_procs_fd = cgroup->open_procs();
    else if (spec.limits.memory_bytes) plan.data = make_limit(double(spec.limits.memory_bytes));
    struct FdGuard procs_guard{plan.cgroup_procs_fd};  // the supervisor has its own copy
    if (pids && pids->ok()) {
      plan.pids_cgroup = true;
      plan.pids_procs_fd = pids->open_procs();
    }
    struct FdGuard pids_guard{plan.pids_procs_fd};

    const auto started = Clock::now();
    const bool need_mounts = !hidden.empty() || req.pid_namespace || req.private_tmp || use_whitelist;
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

    result.stdout_text.clear();
    result.stderr_text.clear();
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

    // The whitelist could not be built on this machine: run again without it, and say why.
    bool whitelist_failed = false;
    for (std::size_t off = 0; off + sizeof(detail::ReportRecord) <= report_bytes.size(); off += sizeof(detail::ReportRecord)) {
      detail::ReportRecord rec;
      std::memcpy(&rec, report_bytes.data() + off, sizeof rec);
      if (rec.kind == 'W' && detail::Stage(rec.stage) == detail::Stage::Whitelist) {
        whitelist_failed = true;
        iso.notes.push_back(fmt::format("whitelist filesystem (could not {}: {})", whitelist->describe(rec.step),
                                        std::strerror(rec.err)));
      }
    }
    if (whitelist_failed && use_whitelist && !result.timed_out) {
      use_whitelist = false;
      whitelist_refused = true;
      continue;
    }

    // Decode the supervisor's records.
    bool have_exit = false;
    std::int64_t max_rss_kb = 0;
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
          iso.whitelist = rec.flags & detail::kWhitelist;
          iso.own_init = rec.flags & detail::kInitExec;
          if (cgroup && cgroup->ok() && !(rec.flags & detail::kCgroup))
            iso.memory_limit = fmt::format("memory {} (not enforced: could not join the cgroup)",
                                           files::size_text(spec.limits.memory_bytes));
          if (pids && pids->ok() && !(rec.flags & detail::kPidsCgroup))
            iso.process_limit = fmt::format("processes {} (RLIMIT_NPROC; could not join the pids cgroup)",
                                            spec.limits.processes);
          break;
        case 'W':
          if (stage == detail::Stage::Rlimit) iso.rlimits = false;
          if (stage == detail::Stage::Whitelist) break;
          iso.notes.push_back(fmt::format("could not {}: {}", detail::stage_description(stage), std::strerror(rec.err)));
          break;
        case 'E':
          result.launch_failed = true;
          // The program itself is the candidate's (missing, not executable, not a program) and so is
          // its folder; every other stage, and an exec refused for want of memory or processes,
          // is the machine's.
          result.setup_failed = stage == detail::Stage::Exec
                                    ? rec.err == EAGAIN || rec.err == ENOMEM || rec.err == ENFILE || rec.err == EMFILE
                                    : stage != detail::Stage::Chdir;
          result.launch_error = stage == detail::Stage::Exec
                                    ? fmt::format("cannot execute '{}': {}", spec.argv[0], std::strerror(rec.err))
                                    : fmt::format("could not {}: {}", detail::stage_description(stage), std::strerror(rec.err));
          break;
        case 'X':
          have_exit = true;
          result.wall_seconds = double(rec.wall_ns) * 1e-9;
          result.user_cpu_seconds = double(rec.user_us) * 1e-6;
          result.system_cpu_seconds = double(rec.system_us) * 1e-6;
          max_rss_kb = rec.max_rss_kb;
          if (WIFEXITED(rec.wait_status)) {
            result.exited = true;
            result.exit_code = WEXITSTATUS(rec.wait_status);
          } else if (WIFSIGNALED(rec.wait_status)) {
            result.signal = WTERMSIG(rec.wait_status);
          }
          break;
      }
    }
    iso.seccomp = filter != nullptr && !result.launch_failed;
    iso.no_capabilities = !result.launch_failed;
    if (!req.hidden_paths.empty() && !iso.hidden_paths)
      iso.notes.push_back(plan.mount_namespace ? "hidden paths (a mount failed)" : "hidden paths (no mount namespace)");
    if (req.private_tmp && !iso.private_tmp) iso.notes.push_back("private tmp (no mount namespace, or a mount failed)");
    if (req.whitelist && !iso.whitelist && !whitelist_failed && !whitelist_refused)
      iso.notes.push_back("whitelist filesystem (no mount namespace)");
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
        result.setup_failed = true;
        result.launch_error = "the supervisor process ended without a report";
      }
    }
    // Killed for memory: the cgroup's OOM killer says so; under RLIMIT_DATA, a failed program that
    // reported an allocation failure.
    const bool failed = !result.launch_failed && !(result.exited && result.exit_code == 0);
    if (cgroup && cgroup->ok()) {
      result.peak_memory_bytes = cgroup->peak();
      result.memory_exceeded = failed && cgroup->oom_killed();
    } else {
      result.peak_memory_bytes = std::uint64_t(max_rss_kb) * 1024;
      result.memory_exceeded = failed && spec.limits.memory_bytes && says_out_of_memory(result.stderr_text);
    }
    if (result.signal) result.signal_name = signal_name(result.signal);
    if (result.launch_failed) result.exited = false;
    return result;
  }
}

Isolation probe_isolation() {
  RunSpec spec;
  spec.argv = {"/bin/true"};
  spec.timeout_seconds = 10;
  return run_isolated(spec).isolation;
}

}  // namespace rubric::process
