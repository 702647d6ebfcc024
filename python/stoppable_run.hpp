#pragma once
// Work the engine does for Python (a check, a calibration) on a thread of its own, so that the
// calling thread can wait with the GIL released and still hear Ctrl-C: every 20 ms it takes the
// GIL back and lets Python's signal handlers run. A KeyboardInterrupt they raise, or the timeout,
// requests the stop (the evaluator polls it) and kills the work thread's child processes (its
// candidate programs' supervisors) until the work ends, as SIGINT does for the CLI.
#include <functional>
#include <optional>

#include "interpreter/engine.hpp"

namespace rubric::python {

enum class RunEnd { finished, timed_out };

// Runs `work` with `stop` armed; called with the GIL held. Throws the Python exception a signal
// handler raised (after the work has ended), or the work's own exception.
RunEnd run_stoppable(const std::function<void()>& work, StopRequest& stop, std::optional<double> timeout_seconds);

// SIGKILLs the child processes a thread of this process started (and their process groups).
void kill_children_of_thread(int tid);

}  // namespace rubric::python
