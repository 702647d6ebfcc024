#pragma once
// Runs a compiler as a child process under a time limit: directly (trusted commands such as
// `nvcc --list-gpu-code`), or, for anything that reads candidate code, inside the same sandbox
// as `run` (operators/process/run_isolated.hpp).
#include <cstdint>
#include <string>
#include <vector>

namespace rubric::cuda {

struct ToolRun {
  int exit_code = -1;     // valid when !signaled && !timed_out
  bool signaled = false;
  int signal = 0;
  bool timed_out = false;
  bool started = true;    // false when it could not be started (launch_error, or the log, says why)
  bool memory_exceeded = false;
  std::string launch_error;
  std::string output;     // stderr then stdout (sandboxed runs; run_tool writes its log file)
  std::string isolation;  // what confined it (sandboxed runs)
  double seconds = 0;
};

// Output goes to log_path.
ToolRun run_tool(const std::vector<std::string>& argv, const std::string& log_path, double timeout_s);

// What a sandboxed compile may see and use besides the system directories (docs/gpu.md).
struct ToolSandbox {
  std::string work_dir;                    // the one writable folder (the build's output), and the cwd
  std::vector<std::string> read_only;      // the source's copy, the toolkit outside /usr, ...
  std::vector<std::string> hidden;         // covered where the whitelist is refused (reference, submission)
  std::uint64_t memory_bytes = 8ull << 30;
  double timeout_s = 300;
};

ToolRun run_sandboxed_tool(const std::vector<std::string>& argv, const ToolSandbox& box);

}  // namespace rubric::cuda
