#pragma once
// Runs a candidate program isolated: its own process group (and PID namespace where the machine
// allows), resource limits, stdin from /dev/null, captured and capped stdout/stderr, a scrubbed
// environment, a timeout after which everything it started is killed, and, where allowed, no
// network, hidden paths and a scratch copy of its directory.
#include "operators/process/run_result.hpp"
#include "operators/process/run_spec.hpp"

namespace rubric::process {

// Blocks until the candidate and everything it started are gone. A candidate that fails (exit
// code, signal, timeout, cannot be executed) is a RunResult, not an exception; OperatorError is
// thrown only for a bad spec (empty argv, a cwd that is not a directory) or when the host cannot
// create pipes, processes or the scratch directory.
RunResult run_isolated(const RunSpec& spec);

// What isolation this machine can give: runs `/bin/true` once with the default request.
Isolation probe_isolation();

}  // namespace rubric::process
