#include "operators/process/run_result.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

#include "operators/files/safe_open.hpp"
#include "operators/process/run_spec.hpp"

namespace rubric::process {

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

std::string Isolation::describe() const {
  std::vector<std::string> parts;
  if (process_group) parts.push_back("process group");
  if (rlimits) parts.push_back("rlimits");
  if (pid_namespace) parts.push_back("pid namespace");
  if (subreaper) parts.push_back("subreaper");
  if (no_network) parts.push_back("no network");
  if (hidden_paths) parts.push_back("hidden paths");
  if (private_tmp) parts.push_back("private tmp");
  if (scratch_copy) parts.push_back("scratch copy");
  if (unprivileged) parts.push_back("unprivileged");
  if (whitelist) parts.push_back("whitelist filesystem");
  if (ipc_namespace) parts.push_back("ipc namespace");
  if (uts_namespace) parts.push_back("uts namespace");
  if (no_capabilities) parts.push_back("no capabilities");
  if (seccomp) parts.push_back("seccomp");
  if (own_init) parts.push_back("own init");
  if (!memory_limit.empty()) parts.push_back(memory_limit);
  if (!process_limit.empty()) parts.push_back(process_limit);
  std::string out = fmt::format("{}", fmt::join(parts, ", "));
  if (!notes.empty()) out += fmt::format("; not available: {}", fmt::join(notes, "; "));
  return out;
}

std::string RunResult::status_text() const {
  if (launch_failed) return fmt::format("could not start: {}", launch_error);
  if (timed_out) return fmt::format("timed out after {:g} s (killed)", timeout_seconds);
  if (memory_exceeded) {
    std::string how = exited ? fmt::format("exit code {}", exit_code) : fmt::format("killed by {} (signal {})", signal_name, signal);
    return fmt::format("exceeded {} of memory ({})", files::size_text(memory_limit_bytes), how);
  }
  if (exited) return fmt::format("exit code {}", exit_code);
  return fmt::format("killed by {} (signal {})", signal_name, signal);
}

std::string RunResult::stderr_tail(int max_lines) const {
  std::string_view s = stderr_text;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  std::size_t start = s.size();
  for (int lines = 0; start > 0; --start) {
    if (s[start - 1] == '\n' && ++lines == max_lines) break;
  }
  if (s.size() - start > 2000) start = s.size() - 2000;
  return std::string(s.substr(start));
}

RunSpec RunSpec::shell(const std::string& command) {
  RunSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  return spec;
}

}  // namespace rubric::process
