#pragma once
// Nsight Compute's CSV (`ncu --csv`, the details page or `--page raw`) as kernel launches with
// their metrics. The text may start with ==PROF== lines and the program's output; values may
// carry thousands separators; units come from the "Metric Unit" column (details) or the row
// under the header (raw).
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
  std::optional<double> value;  // the value as a number, when it is one
  std::size_t line = 0;
};

struct NcuLaunch {
  std::string id;           // ncu's launch ID
  std::string kernel_name;  // as written, often with its parameter list: "vecAdd(float *, ...)"
  std::vector<std::pair<std::string, std::string>> attributes;  // other identity columns: Block Size, Device, NVTX, ...
  std::vector<NcuMetric> metrics;  // file order; on the details page one per (section, name)
  std::size_t line = 0;
  std::string process;  // the "Process ID" column, when there is one
  std::vector<std::string> nvtx;  // the NVTX ranges open at the launch (`--nvtx`), outermost first
};

struct NcuReport {
  bool raw_page = false;
  std::vector<NcuLaunch> launches;  // in file order
};

// Throws OperatorError "name:line:col: ..." (or "name: ..." when no header is found), and
// ReadLimitExceeded past `max_cells` fields in all (0: no limit).
NcuReport parse_ncu_csv(std::string_view text, std::string_view name, std::size_t max_cells = 0);

}  // namespace rubric::tables
