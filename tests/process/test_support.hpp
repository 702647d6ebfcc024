#pragma once
// Helpers for the process tests: a world-readable temporary directory with the compiled test
// programs, and a scan of /proc for processes that a run left behind.
#include <string>

#include "operators/process/run_result.hpp"

namespace rubric::process::testing {

// What this machine grants a run (probe_isolation, once per test binary). Tests of a namespace's
// effect check it and, where it is refused (an unprivileged container), assert the fallback and
// its report instead, with a message that they skipped the rest.
const Isolation& machine_isolation();

// A fresh directory (mode 0777 so an unprivileged candidate can write pid files) holding
// segfault, daemonize and fork_many, compiled once per test binary with `cc`.
const std::string& programs_dir();

// A fresh empty directory in the test's build folder (not /tmp, which runs do not share), mode 0777.
std::string make_temp_dir();

// Pids of live (non-zombie) processes whose command line contains `marker`, after waiting up to
// 2 s for them to disappear.
int count_processes_with(const std::string& marker);

void write_file(const std::string& path, const std::string& text);
std::string read_file(const std::string& path);

}  // namespace rubric::process::testing
