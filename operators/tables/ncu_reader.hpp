#pragma once
// Nsight Compute's CSV (`ncu --csv`, the details page or `--page raw`, or `--print-summary
// per-kernel`) as kernel launches with their metrics. The text may start with ==PROF== lines and
// the program's output; values may carry thousands separators; units come from the "Metric Unit"
// column (details, summary) or the row under the header (raw).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "operators/tables/kernel_names.hpp"
#include "operators/tables/read_limit.hpp"

namespace rubric::tables {

struct NcuMetric {
  std::string section;  // details page only ("GPU Speed Of Light Throughput"); empty on the raw page
  std::string name;     // "Duration", "dram__bytes_read.sum"
  std::string unit;     // as ncu writes it: "usecond", "Kbyte", "byte/second", "%", "" for none
  std::string text;     // the value as written
  std::optional<double> value;  // the value as a number, when it is one (a summary's: its Average)
  std::size_t line = 0;
  // A summary's range over the launches it summarises ("Minimum", "Maximum"); empty otherwise.
  std::string minimum_text, maximum_text;
  std::optional<double> minimum, maximum;
};

// One launch; in a summary, the launches of one kernel with one launch shape ("Invocations").
struct NcuLaunch {
  std::string id;           // ncu's launch ID (a summary has none)
  std::string kernel_name;  // as written, often with its parameter list: "vecAdd(float *, ...)"
  std::vector<std::pair<std::string, std::string>> attributes;  // other identity columns: Block Size, Device, NVTX, ...
  std::vector<NcuMetric> metrics;  // file order; on the details page one per (section, name)
  std::size_t line = 0;
  std::string process;  // the "Process ID" column, when there is one
  std::vector<std::string> nvtx;  // the NVTX ranges open at the launch (`--nvtx`), outermost first
  std::string invocations;  // a summary's "Invocations": how many launches it summarises
};

struct NcuReport {
  bool raw_page = false;
  bool summary = false;  // `--print-summary per-kernel`: metrics are Averages, with Minimum and Maximum
  std::vector<NcuLaunch> launches;  // in file order
};

// Throws OperatorError "name:line:col: ..." (or "name: ..." when no header is found), and
// ReadLimitExceeded past `max_cells` fields in all (0: no limit). A per-GPU summary
// (`--print-summary per-gpu`), which names no kernel, is refused saying so.
NcuReport parse_ncu_csv(std::string_view text, std::string_view name, std::size_t max_cells = 0);

}  // namespace rubric::tables
