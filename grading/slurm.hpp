#pragma once
// `rubric grade --slurm`: the corpus graded as a Slurm job array, one task per shard, each task a
// `rubric grade --shard I/N` into OUT/shards/I; the array is followed with progress, tasks lost
// to the cluster (node failure, preemption, boot failure) are submitted once more, and the shards
// are merged into OUT at the end. Slurm's own tools (sbatch, scontrol) are found on PATH.
#include <map>
#include <string>
#include <vector>

#include "grading/grade_run.hpp"

namespace rubric::grading {

struct SlurmSettings {
  std::string sbatch_args;  // --slurm-args, split like a shell would
  unsigned tasks = 0;       // 0: one per 25 submissions, at most 256
  bool jobs_given = false;  // pass --jobs on to the tasks
  double poll_seconds = 1;
};

int grade_on_slurm(const GradeSettings& settings, const SlurmSettings& slurm);

// Shell-like splitting of --slurm-args: whitespace separates, '...' and "..." quote, \ escapes.
// Throws std::invalid_argument on an unterminated quote.
std::vector<std::string> split_arguments(const std::string& text);

// One array task as `scontrol -o show job` reports it.
struct TaskState {
  std::string state;   // COMPLETED, FAILED, RUNNING, PENDING, NODE_FAIL, ...
  int exit_code = 0;   // of the batch script (ExitCode=N:signal)
  int signal = 0;
};

// Parses `scontrol -o show job ID` output: task index → state. Records that stand for a range of
// pending tasks ("ArrayTaskId=3-8%2") give every task in it.
std::map<unsigned, TaskState> parse_scontrol_tasks(const std::string& output);

}  // namespace rubric::grading
