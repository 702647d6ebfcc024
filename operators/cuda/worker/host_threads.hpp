#pragma once
// The worker process's threads and shared libraries, as the kernel and the dynamic loader list
// them: what a call left running after it returned, and what a module brought in beyond the
// worker's own (cuBLAS, the reference's library) — both evidence of work done off the clock or
// by someone else's code.
#include <sys/types.h>

#include <optional>
#include <set>
#include <string>

namespace rubric::cuda::worker {

// Thread ids of this process (/proc/self/task); nullopt where /proc cannot be read.
std::optional<std::set<pid_t>> live_threads();

// Paths of the shared objects mapped into this process now (the dynamic loader's list).
std::set<std::string> loaded_libraries();

// Short names ("libcublas.so.13") of `now` that are not in `before`, minus `exclude` (the
// candidate modules themselves), sorted and comma-separated.
std::string libraries_added(const std::set<std::string>& before, const std::set<std::string>& now,
                            const std::set<std::string>& exclude);

}  // namespace rubric::cuda::worker
