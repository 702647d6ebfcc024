#include "operators/tables/nsys_reader.hpp"

#include "operators/files/byte_order_mark.hpp"

namespace rubric::tables {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "Processing [r.sqlite] with [/opt/.../reports/cuda_gpu_kern_sum.py]..." → "cuda_gpu_kern_sum".
bool processing_line(std::string_view line, std::string& script) {
  if (line.rfind("Processing [", 0) != 0) return false;
  std::size_t with = line.find("] with [");
  if (with == std::string_view::npos) return true;
  std::string_view rest = line.substr(with + 8);
  rest = rest.substr(0, rest.find(']'));
  std::size_t slash = rest.find_last_of("/\\");
  if (slash != std::string_view::npos) rest.remove_prefix(slash + 1);
  if (rest.size() > 3 && rest.substr(rest.size() - 3) == ".py") rest.remove_suffix(3);
  script = std::string(rest);
  return true;
}

// " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):" → title and name.
bool heading_line(std::string_view line, std::string& title, std::string& name) {
  if (line.rfind("** ", 0) != 0 || line.size() < 6 || line.substr(line.size() - 2) != "):") return false;
  std::size_t open = line.rfind('(');
  if (open == std::string_view::npos || open < 3) return false;
  name = std::string(line.substr(open + 1, line.size() - 2 - open - 1));
  title = std::string(trimmed(line.substr(3, open - 3)));
  return !name.empty() && name.find(' ') == std::string::npos;
}

std::string_view base_name(std::string_view name) { return name.substr(0, name.find(':')); }

}  // namespace

bool nsys_report_is(const NsysReport& report, std::string_view wanted) {
  static const std::pair<std::string_view, std::string_view> legacy[] = {
      {"cuda_gpu_kern_sum", "gpukernsum"},   {"cuda_gpu_mem_time_sum", "gpumemtimesum"},
      {"cuda_gpu_mem_size_sum", "gpumemsizesum"}, {"cuda_api_sum", "cudaapisum"},
      {"osrt_sum", "osrtsum"},               {"nvtx_sum", "nvtxsum"},
      {"cuda_gpu_trace", "gputrace"},        {"cuda_api_trace", "cudaapitrace"}};
  std::string_view name = base_name(report.name), want = base_name(wanted);
  if (report.name == wanted || (name == want && wanted.find(':') == std::string_view::npos)) return true;
  for (const auto& [now, before] : legacy)
    if ((want == now && name == before) || (want == before && name == now)) return true;
  return false;
}

std::vector<NsysReport> split_nsys_stats(std::string_view text) {
  text = files::without_byte_order_mark(text);
  std::vector<NsysReport> reports;
  std::string pending;           // the report the last Processing line named
  NsysReport* current = nullptr;  // the report whose table the following lines are
  std::size_t written = 0;        // lines in current->table so far
  bool structured = false;
  std::size_t line_no = 1;
  for (std::size_t b = 0; b <= text.size(); ++line_no) {
    std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    std::string_view raw = text.substr(b, e - b);
    std::string_view line = trimmed(raw);
    std::string title, name;
    if (processing_line(line, pending)) {
      current = nullptr;
    } else if (line.rfind("SKIPPED:", 0) == 0) {
      structured = true;
      current = nullptr;
      reports.push_back(NsysReport{pending, "", line_no, true, std::string(line), ""});
      pending.clear();
    } else if (heading_line(line, title, name)) {
      structured = true;
      reports.push_back(NsysReport{name, title, line_no, false, "", ""});
      current = &reports.back();
      written = 0;
      pending.clear();
    }
    if (current) {
      // Lines before the table stay blank, so its rows keep their line numbers.
      current->table.append(line_no - 1 - written, '\n');
      if (current->line != line_no) current->table += raw;
      current->table += '\n';
      written = line_no;
    }
    if (e == text.size()) break;
    b = e + 1;
  }
  if (!structured) reports.push_back(NsysReport{"", "", 1, false, "", std::string(text)});
  return reports;
}

}  // namespace rubric::tables
