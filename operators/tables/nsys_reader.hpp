#pragma once
// What `nsys stats --format csv` writes to its standard output: status lines ("Generating SQLite
// file ...", "Processing [...] with [.../cuda_gpu_kern_sum.py]..."), and for each report either
// "SKIPPED: ... does not contain CUDA kernel data." or a heading
// " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):" followed by its CSV table. Without a report
// named, `nsys stats` runs several (osrt_sum, cuda_api_sum, cuda_gpu_kern_sum, ...) into one stream.
#include <string>
#include <string_view>
#include <vector>

namespace rubric::tables {

struct NsysReport {
  std::string name;   // "cuda_gpu_kern_sum"; empty for a lone table without a heading (`-o prefix` files)
  std::string title;  // "CUDA GPU Kernel Summary"
  std::size_t line = 0;  // the heading's (or the SKIPPED line's) 1-based line
  bool skipped = false;  // nsys found no data for it
  std::string note;      // the SKIPPED line
  // The whole text with every line outside this report's table blanked, so CSV rows keep their
  // line numbers in messages. For a lone table, the text as it is (read it with a preamble).
  std::string table;
};

// The reports in file order. A text without headings and SKIPPED lines is one unnamed report.
std::vector<NsysReport> split_nsys_stats(std::string_view text);

// Whether `report` is the one named `wanted`: its name, that name with report arguments
// ("cuda_gpu_kern_sum:base"), or the name nsys gave it before 2023.1 ("gpukernsum" for
// "cuda_gpu_kern_sum", "cudaapisum", "osrtsum", ...), whose columns are the same.
bool nsys_report_is(const NsysReport& report, std::string_view wanted);

}  // namespace rubric::tables
