#pragma once
// While submissions are graded in parallel, anything that measures time (bench, time, every GPU
// operator) holds an exclusive lock so that no two measurements share the machine (one lock per
// GPU when there are several); file, text and tensor checks run around them unhindered.
#include <string>

#include "grading/result_line.hpp"

namespace rubric {
class Engine;
}

namespace rubric::grading {

// The lock slots of this machine: its GPUs (/dev/nvidiaN), at least one.
unsigned measurement_slots();

// Wraps the engine's measuring builtins so that each call holds the lock file `lock_path`
// (flock(2), so it is released if the process dies). Call before Engine::load. The wrappers
// consult the per-process state below, which a forked grading process sets for itself.
void guard_measurements(Engine& engine);

// Per process: the lock file this process measures under ("" disables locking) and what its
// measurements did so far.
void set_measurement_lock(const std::string& lock_path);
MeasurementRecord measurement_record();

}  // namespace rubric::grading
