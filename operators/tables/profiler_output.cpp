#include "operators/tables/profiler_output.hpp"

#include "operators/tables/nsys_reader.hpp"

namespace rubric::tables {

std::optional<ProfilerOutput> recognise_profiler_output(std::string_view text) {
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(b, e - b);
    const bool names_kernels = line.find("\"Kernel Name\"") != std::string_view::npos;
    if (line.rfind("==PROF==", 0) == 0 || (names_kernels && line.rfind("\"ID\",", 0) == 0) ||
        (names_kernels && line.find("\"Invocations\"") != std::string_view::npos))
      return ProfilerOutput{"Nsight Compute output (ncu --csv)", "ncu(p)"};
    b = e + 1;
  }
  for (const NsysReport& r : split_nsys_stats(text))
    if (!r.name.empty()) return ProfilerOutput{"Nsight Systems stats output (nsys stats, or nsys profile --stats=true)", "nsys(p, report)"};
  return std::nullopt;
}

}  // namespace rubric::tables
