// rubric-run-init: what a run's supervisor execs once the candidate has started, so the process
// the candidate sees as init (PID 1) is this small program, not a clone of the grader: its
// /proc/1/cmdline and environ hold nothing of the grader's command line or environment.
//   rubric-run-init REPORT_FD CHILD_PID START_NS PIDNS(0|1) PROC_FD(-1: none)
#include <cstdint>
#include <cstdlib>

#include "operators/process/reaper.hpp"

int main(int argc, char** argv) {
  if (argc != 6) return 125;
  const int report_fd = std::atoi(argv[1]);
  const int child = std::atoi(argv[2]);
  const std::int64_t start = std::strtoll(argv[3], nullptr, 10);
  const bool pid_namespace = argv[4][0] == '1';
  rubric::process::detail::reap_and_report(report_fd, child, start, pid_namespace, std::atoi(argv[5]));
}
