#pragma once
// A `rubric check` or `rubric test` stopped by SIGINT, SIGTERM or SIGHUP leaves no temporary
// folders. The handler cannot clean up itself (nothing but a few system calls is safe there), so
// it re-executes rubric as `rubric __stopped SIG` in the same process: the new image ends the
// grader's children (sandboxes, workers, compilers), so their folders' owner locks fall free,
// removes them with the start-up sweep, and dies of the signal.
#include <string>

namespace rubric::cli {

inline constexpr const char* kStoppedVerb = "__stopped";

// Installs the handlers (the path of the running executable is resolved now, not in them).
void install_stop_cleanup();

// The re-executed image's work; `sig` as given on its command line. Never returns normally.
int run_stopped(const std::string& sig);

}  // namespace rubric::cli
