#pragma once
// The supervisor's last job, shared by the cloned supervisor and the small init program it
// becomes (rubric-run-init): wait for the candidate, kill whatever it left, report how it ended.
// System calls only: it runs after clone(CLONE_VM) as well as in its own program.
#include <cstdint>

#include "operators/process/supervisor.hpp"

namespace rubric::process::detail {

std::int64_t now_ns();  // CLOCK_MONOTONIC
void send(int fd, const ReportRecord& r);
// Waits for `child` (reaping everything else), then, without a PID namespace, kills every process
// reparented to this one (found through proc_fd, a descriptor of the host's /proc, or /proc when
// -1); sends the 'X' record and exits.
[[noreturn]] void reap_and_report(int report_fd, int child, std::int64_t start_ns, bool pid_namespace, int proc_fd);

}  // namespace rubric::process::detail
