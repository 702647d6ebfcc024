#pragma once
// While submissions are graded in parallel, anything that measures time (bench, time, every GPU
// operator) holds an exclusive lock so that no two measurements share the machine (one lock per
// GPU when there are several); file, text and tensor checks run around them unhindered.
#include <string>
#include <vector>

#include "grading/result_line.hpp"

namespace rubric {
class Engine;
}

namespace rubric::grading {

// What measurements are exclusive on: the GPUs this process may use (CUDA_VISIBLE_DEVICES when
// set, else /dev/nvidiaN), or {"cpu"} on a machine without one.
std::vector<std::string> measurement_devices();

// The lock file for measurements on `device`: one per machine and user, whatever the out folder
// (/tmp/rubric-locks-UID/measure-gpu0.lock, measure-cpu.lock), so concurrent batches and Slurm
// tasks on one node exclude each other too. $RUBRIC_LOCK_DIR names another folder (graders in
// separate containers sharing a device share one mounted there; a test isolates its own).
std::string measurement_lock_path(const std::string& device);

// Wraps the engine's measuring builtins so that each call holds the lock file `lock_path`
// (flock(2), so it is released if the process dies). Call before Engine::load. The wrappers
// consult the per-process state below, which a forked grading process sets for itself.
void guard_measurements(Engine& engine);

// Per process: the lock file this process measures under ("" disables locking) and what its
// measurements did so far.
void set_measurement_lock(const std::string& lock_path);
MeasurementRecord measurement_record();
// Starts a fresh record (a worker process grades many submissions, each with its own record).
void reset_measurement_record();

}  // namespace rubric::grading
