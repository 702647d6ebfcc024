#include "operators/cuda/tool_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "operators/error.hpp"
#include "operators/process/run_isolated.hpp"

namespace rubric::cuda {

ToolRun run_tool(const std::vector<std::string>& argv, const std::string& log_path, double timeout_s) {
  int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (log < 0) throw EnvironmentError(fmt::format("cannot create {}: {}", log_path, std::strerror(errno)));
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log);
    throw EnvironmentError(fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(log, 1);
    ::dup2(log, 2);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::execvp(args[0], args.data());
    dprintf(2, "cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(log);
  ::setpgid(pid, pid);
  ToolRun run;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  while (true) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      run.timed_out = true;
      return run;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status)) {
    run.signaled = true;
    run.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    run.exit_code = WEXITSTATUS(status);
    run.started = run.exit_code != 127;
  }
  return run;
}

ToolRun run_sandboxed_tool(const std::vector<std::string>& argv, const ToolSandbox& box) {
  process::RunSpec spec;
  spec.argv = argv;
  spec.cwd = box.work_dir;
  spec.timeout_seconds = box.timeout_s;
  spec.output_cap_bytes = 1u << 20;
  spec.limits.memory_bytes = box.memory_bytes;
  spec.limits.cpu_seconds = 0;  // the wall-time limit bounds it; nvcc's stages run one after another
  spec.isolation.scratch_copy = false;  // the work folder is ours, fresh, and the only writable one
  spec.isolation.read_only_paths = box.read_only;
  spec.isolation.hidden_paths = box.hidden;
  ToolRun run;
  process::RunResult r = process::run_isolated(spec);
  run.isolation = r.isolation.describe();
  run.seconds = r.wall_seconds;
  run.output = r.stderr_text;
  if (!r.stdout_text.empty()) run.output += (run.output.empty() ? "" : "\n") + r.stdout_text;
  if (r.launch_failed) {
    run.started = false;
    run.launch_error = r.launch_error;
    return run;
  }
  run.timed_out = r.timed_out;
  run.memory_exceeded = r.memory_exceeded;
  if (r.signal) {
    run.signaled = true;
    run.signal = r.signal;
  } else if (r.exited) {
    run.exit_code = r.exit_code;
  }
  return run;
}

}  // namespace rubric::cuda
