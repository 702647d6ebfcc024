#include "operators/tables/nsys_reader.hpp"

#include <algorithm>

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

// "[3/8] Executing 'nvtx_sum' stats report" (what `nsys profile --stats=true` prints before each
// report) → "nvtx_sum".
bool executing_line(std::string_view line, std::string& name) {
  if (line.empty() || line.front() != '[') return false;
  const std::size_t close = line.find("] Executing '");
  if (close == std::string_view::npos || line.size() < 14 || line.substr(line.size() - 14) != "' stats report")
    return false;
  const std::size_t begin = close + 13;
  name = std::string(line.substr(begin, line.size() - 14 - begin));
  return !name.empty() && name.find(' ') == std::string::npos;
}

std::string_view base_name(std::string_view name) { return name.substr(0, name.find(':')); }

// The column spans of nsys's console table ("column" format), from the rule under its header:
// " --------  ---------------  ---------" gives each column's first byte.
std::vector<std::size_t> rule_columns(std::string_view rule) {
  std::vector<std::size_t> starts;
  bool any_dash = false;
  for (std::size_t i = 0; i < rule.size(); ++i) {
    const char c = rule[i];
    if (c == '-') {
      if (i == 0 || rule[i - 1] != '-') starts.push_back(i);
      any_dash = true;
    } else if (c != ' ' && c != '\r') {
      return {};
    }
  }
  return any_dash ? starts : std::vector<std::size_t>{};
}

// Appends `field` to a CSV row as a quoted field (the row's `k`-th: a comma before all but the first).
void append_quoted_field(std::string& out, std::size_t k, std::string_view field) {
  out += k ? ",\"" : "\"";
  for (char c : field) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  out += '"';
}

// One console-table line cut at the columns' starts (the last column runs to the line's end),
// written as a CSV row of quoted fields.
std::string columns_as_csv(std::string_view line, const std::vector<std::size_t>& starts) {
  std::string out;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t b = std::min(starts[k], line.size());
    const std::size_t e = k + 1 < starts.size() ? std::min(starts[k + 1], line.size()) : line.size();
    append_quoted_field(out, k, trimmed(line.substr(b, e - b)));
  }
  return out;
}

// The column starts of nsys's boxed table (`--format table`) from a border such as
// "+----------+-----------------+": each column starts after a '+' (the last '+' closes the box).
std::vector<std::size_t> border_columns(std::string_view border) {
  std::vector<std::size_t> starts;
  if (border.empty() || border.front() != '+') return starts;
  for (std::size_t i = 0; i < border.size(); ++i) {
    const char c = border[i];
    if (c == '+') starts.push_back(i + 1);
    else if (c != '-' && c != '=' && c != '\r') return {};
  }
  if (starts.size() < 2) return {};
  starts.pop_back();  // after the closing '+'
  return starts;
}

// One boxed-table line cut at the columns' starts, without the '|' that ends each cell.
std::string cells_as_csv(std::string_view line, const std::vector<std::size_t>& starts) {
  std::string out;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t b = std::min(starts[k], line.size());
    const std::size_t e = k + 1 < starts.size() ? std::min(starts[k + 1] - 1, line.size()) : line.size();
    std::string_view field = trimmed(line.substr(b, e > b ? e - b : 0));
    if (k + 1 == starts.size() && !field.empty() && field.back() == '|') field = trimmed(field.substr(0, field.size() - 1));
    append_quoted_field(out, k, field);
  }
  return out;
}

// A report written in nsys's console formats rewritten as the CSV table the other formats give,
// line for line: "column" (a header, a rule of dashes, rows, a blank line) and "table" (the same
// in a box of '+', '-' and '|'). Rules, borders and every line after the table become blank, so
// rows keep their line numbers. Text without such a table is returned as it is.
std::string console_table_as_csv(const std::string& table) {
  std::vector<std::string_view> lines;
  for (std::size_t b = 0; b <= table.size();) {
    std::size_t e = table.find('\n', b);
    if (e == std::string::npos) e = table.size();
    lines.push_back(std::string_view(table).substr(b, e - b));
    if (e == table.size()) break;
    b = e + 1;
  }
  // The table's first line: a top border, or a header over a rule. Lines before it (a bare
  // report's "Generating SQLite file ..." and "Processing [...]") become blank.
  std::size_t header = 0;
  for (; header + 1 < lines.size(); ++header) {
    const std::string_view top = trimmed(lines[header]);
    if (top.empty()) continue;
    if (!border_columns(top).empty() || !rule_columns(lines[header + 1]).empty()) break;
  }
  if (header + 1 >= lines.size()) return table;
  const std::vector<std::size_t> box = border_columns(trimmed(lines[header]));
  if (!box.empty()) {
    // Every line from the top border to the bottom one: cells become CSV, borders blank.
    const std::size_t indent = lines[header].find('+');
    std::string out;
    bool in_table = true;
    int borders = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string_view line = i >= header && lines[i].size() > indent ? lines[i].substr(indent) : std::string_view();
      if (i >= header && in_table) {
        if (!line.empty() && line.front() == '+') {
          // top, under the header, bottom: the table ends at its third border
          if (++borders == 3) in_table = false;
        } else if (!line.empty() && line.front() == '|') {
          out += cells_as_csv(line, box);
        } else {
          in_table = false;
        }
      }
      if (i + 1 < lines.size()) out += '\n';
    }
    return out;
  }
  const std::vector<std::size_t> starts = rule_columns(lines[header + 1]);
  if (starts.empty()) return table;
  std::string out;
  bool in_table = true;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > header + 1 && trimmed(lines[i]).empty()) in_table = false;
    if (i >= header && i != header + 1 && in_table) out += columns_as_csv(lines[i], starts);
    if (i + 1 < lines.size()) out += '\n';
  }
  return out;
}

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
  bool executing = false;         // the current report opened with an "Executing" line
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
      // After "[5/8] Executing 'x' stats report" the report is already open, still without a table.
      if (current && executing && current->table.find_first_not_of(" \t\r\n") == std::string::npos) {
        current->skipped = true;
        current->note = std::string(line);
        current->table.clear();
      } else {
        reports.push_back(NsysReport{pending, "", line_no, true, std::string(line), ""});
      }
      current = nullptr;
      pending.clear();
    } else if (executing_line(line, name)) {
      structured = true;
      reports.push_back(NsysReport{name, "", line_no, false, "", ""});
      current = &reports.back();
      executing = true;
      written = 0;
      pending.clear();
    } else if (heading_line(line, title, name)) {
      executing = false;
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
  for (NsysReport& r : reports)
    if (!r.skipped) r.table = console_table_as_csv(r.table);
  return reports;
}

}  // namespace rubric::tables
