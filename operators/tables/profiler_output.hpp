#pragma once
// Recognising a profiler's output handed to a reader that does not take it (`csv(p)` of what
// `ncu --csv` or `nsys stats` wrote), so the message can name the reader that does.
#include <optional>
#include <string>
#include <string_view>

namespace rubric::tables {

struct ProfilerOutput {
  std::string what;    // "Nsight Compute output (ncu --csv)"
  std::string reader;  // "ncu(p)"
};

// Nsight Compute: a ==PROF== line, or a header row "ID",...,"Kernel Name",... (a per-kernel
// summary's: "Kernel Name",...,"Invocations",...); Nsight Systems:
// a report heading (" ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):") or SKIPPED line.
std::optional<ProfilerOutput> recognise_profiler_output(std::string_view text);

}  // namespace rubric::tables
