#pragma once
// Runs a compiler as a child process with its output going to a log file, under a time limit.
#include <string>
#include <vector>

namespace rubric::cuda {

struct ToolRun {
  int exit_code = -1;     // valid when !signaled && !timed_out
  bool signaled = false;
  int signal = 0;
  bool timed_out = false;
  bool started = true;    // false when exec failed (the log says why)
};

ToolRun run_tool(const std::vector<std::string>& argv, const std::string& log_path, double timeout_s);

}  // namespace rubric::cuda
