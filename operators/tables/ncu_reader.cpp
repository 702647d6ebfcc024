#include "operators/tables/ncu_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "operators/error.hpp"
#include "operators/tables/csv_reader.hpp"

namespace rubric::tables {
namespace {

// Columns that identify a launch rather than measure it (ncu 2019.x through 2025.x).
bool is_identity_column(std::string_view c) {
  static const char* names[] = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context",
                                "Stream", "Block Size", "Grid Size", "Device", "CC", "Invocations", "Section Name",
                                "Metric Name", "Metric Unit", "Metric Value", "Rule Name", "Rule Type",
                                "Rule Description", "Estimated Speedup Type", "Estimated Speedup", "Minimum", "Maximum",
                                "Average"};
  return std::find(std::begin(names), std::end(names), c) != std::end(names);
}

// The rule columns ncu 2023 and later append to the details page: filled only on a rule's rows.
bool is_rule_column(std::string_view c) { return c.rfind("Rule ", 0) == 0 || c.rfind("Estimated Speedup", 0) == 0; }

// Columns that change from row to row of one launch (details page, summary): the metric and rule.
bool is_row_column(std::string_view c) {
  return c == "Section Name" || c.rfind("Metric ", 0) == 0 || is_rule_column(c) || c == "Minimum" || c == "Maximum" ||
         c == "Average";
}

// An NVTX column (`--nvtx`): "thread Domain:Push/Pop_Range:PL_Type:...:Msg" for the push/pop
// ranges of the launching thread, "Id:Domain:Start/Stop_Range:...:Msg" for start/stop ranges.
bool is_nvtx_column(std::string_view c) {
  return c.find("Domain:") != std::string_view::npos && c.find("_Range") != std::string_view::npos;
}

// The range names in an NVTX cell, outermost first. ncu writes the thread, then each open range
// quoted as the header spells its fields: `183740  "<default domain>:decode:none:none:none:none:none:none"`;
// the fields after the range's name (PL_Type ... Msg) are counted from the header.
std::vector<std::string> nvtx_ranges(std::string_view header, std::string_view cell) {
  std::size_t range_at = header.find("_Range");
  std::size_t trailing = 0;
  for (std::size_t i = range_at; i < header.size(); ++i) trailing += header[i] == ':';
  std::vector<std::string> names;
  for (std::size_t open = cell.find('"'); open != std::string_view::npos; open = cell.find('"', open)) {
    std::size_t close = cell.find('"', open + 1);
    if (close == std::string_view::npos) break;
    std::string_view range = cell.substr(open + 1, close - open - 1);
    open = close + 1;
    if (!range.empty() && range[0] == '<') {  // the domain: "<default domain>" or a named one
      std::size_t end = range.find(">:");
      if (end == std::string_view::npos) continue;
      range.remove_prefix(end + 2);
    }
    for (std::size_t k = 0; k < trailing; ++k) {
      std::size_t colon = range.rfind(':');
      if (colon == std::string_view::npos) break;
      range = range.substr(0, colon);
    }
    if (!range.empty()) names.emplace_back(range);
  }
  return names;
}

int column(const CsvRow& header, std::string_view name) {
  for (std::size_t i = 0; i < header.fields.size(); ++i)
    if (header.fields[i].text == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

NcuReport parse_ncu_csv(std::string_view text, std::string_view name, std::size_t max_cells) {
  CsvOptions options;
  options.preamble = true;
  options.max_cells = max_cells;
  std::vector<CsvRow> rows = split_rows(text, name, options);
  // ncu's header starts with "ID" and names "Kernel Name"; a per-kernel summary's names "Kernel
  // Name", "Invocations" and "Average" (it has no ID). Program output before it may hold commas,
  // so look for that row rather than guessing by width.
  auto summary_columns = [](const CsvRow& r) { return column(r, "Invocations") >= 0 && column(r, "Average") >= 0; };
  std::size_t h = rows.size();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CsvRow& r = rows[i];
    if (r.fields.empty()) continue;
    if (column(r, "Kernel Name") >= 0 && (r.fields[0].text == "ID" || summary_columns(r))) {
      h = i;
      break;
    }
    if (summary_columns(r))
      throw OperatorError(fmt::format("{}:{}: an ncu summary without kernel names (--print-summary per-gpu?): write the "
                                      "details page (ncu --csv) or --print-summary per-kernel",
                                      name, r.line));
  }
  if (h == rows.size()) {
    // ncu's own warnings and errors say why there is no table ("No kernels were profiled.").
    std::string said;
    for (std::size_t b = 0; b < text.size();) {
      std::size_t e = std::min(text.find('\n', b), text.size());
      std::string_view line = text.substr(b, e - b);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if ((line.rfind("==WARNING==", 0) == 0 || line.rfind("==ERROR==", 0) == 0) && said.size() < 400)
        said += fmt::format("{}{}", said.empty() ? "; ncu said: " : " ", line);
      b = e + 1;
    }
    throw OperatorError(fmt::format("{}: no ncu CSV header (a row starting \"ID\",...,\"Kernel Name\", or a "
                                    "per-kernel summary's \"Kernel Name\",...,\"Invocations\",...,\"Average\"); "
                                    "was it written with ncu --csv?{}", name, said));
  }
  const CsvRow& header = rows[h];
  const int id_col = column(header, "ID"), kernel_col = column(header, "Kernel Name"),
            process_col = column(header, "Process ID");
  NcuReport report;
  report.summary = summary_columns(header);
  const int metric_col = column(header, "Metric Name"), unit_col = column(header, "Metric Unit"),
            value_col = column(header, report.summary ? "Average" : "Metric Value"),
            section_col = column(header, "Section Name"), min_col = column(header, "Minimum"),
            max_col = column(header, "Maximum"), invocations_col = column(header, "Invocations");
  report.raw_page = metric_col < 0;
  if (!report.raw_page && (unit_col < 0 || value_col < 0))
    throw OperatorError(fmt::format("{}:{}: the header has \"Metric Name\" but no \"Metric Unit\" and \"{}\"", name,
                                    header.line, report.summary ? "Average" : "Metric Value"));
  std::size_t first = h + 1;
  const CsvRow* units = nullptr;
  if (report.raw_page && id_col >= 0 && first < rows.size() && rows[first].fields.size() == header.fields.size() &&
      rows[first].fields[id_col].text.empty()) {
    units = &rows[first];  // the raw page's second row: units under the metric names, blank under identity columns
    ++first;
  }
  auto field = [](CsvRow& r, int c) -> std::string& { return r.fields[static_cast<std::size_t>(c)].text; };
  // ncu 2025 ends a metric's row after its value and one empty field: the rule columns it
  // leaves out are empty, not misplaced. A row may stop short only inside the rule columns.
  std::unordered_set<std::string> seen;  // "section\0metric" of the launch being read
  std::size_t shortest = header.fields.size();
  while (shortest > 0 && is_rule_column(header.fields[shortest - 1].text)) --shortest;
  // The columns that stay the same over one launch's rows: ID, kernel, process, launch shape,
  // NVTX ranges, ...; a row that differs in any of them starts the next launch.
  std::vector<std::size_t> launch_columns;
  for (std::size_t c = 0; c < header.fields.size(); ++c) {
    const std::string& col = header.fields[c].text;
    if (is_nvtx_column(col) || (is_identity_column(col) && !is_row_column(col))) launch_columns.push_back(c);
  }
  // Compared with what the launch holds (its first row's identity fields moved into it).
  auto same_launch = [&](const NcuLaunch& l, const CsvRow& r) {
    std::size_t a = 0;
    for (std::size_t c : launch_columns) {
      const std::string& col = header.fields[c].text;
      const std::string& held = col == "ID" ? l.id : col == "Kernel Name" ? l.kernel_name : l.attributes[a++].second;
      if (r.fields[c].text != held) return false;
    }
    return true;
  };
  for (std::size_t i = first; i < rows.size(); ++i) {
    CsvRow& r = rows[i];
    if (r.fields.size() < header.fields.size() && r.fields.size() >= shortest) r.fields.resize(header.fields.size());
    if (r.fields.size() != header.fields.size())
      throw OperatorError(fmt::format("{}:{}: row has {} fields, the header (line {}) has {}", name, r.line,
                                      r.fields.size(), header.line, header.fields.size()));
    // The details page and the summary write a launch's rows together (IDs count per ncu session,
    // but a merged file may repeat them, so the kernel and process count too); the raw page has a
    // row per launch.
    if (report.raw_page || report.launches.empty() || !same_launch(report.launches.back(), r)) {
      report.launches.push_back(NcuLaunch{id_col < 0 ? std::string() : field(r, id_col), {}, {}, {}, r.line,
                                          process_col < 0 ? std::string() : field(r, process_col), {},
                                          invocations_col < 0 ? std::string() : field(r, invocations_col)});
      NcuLaunch& l = report.launches.back();
      // The row's identity fields move into the launch (the row is not read again): a long kernel
      // name is held once, not once more per launch.
      l.kernel_name = std::move(field(r, kernel_col));
      seen.clear();
      for (std::size_t c : launch_columns) {
        const std::string& col = header.fields[c].text;
        if (col == "ID" || col == "Kernel Name") continue;
        if (is_nvtx_column(col))
          for (std::string& range : nvtx_ranges(col, r.fields[c].text)) l.nvtx.push_back(std::move(range));
        l.attributes.emplace_back(col, std::move(r.fields[c].text));
      }
    }
    NcuLaunch* launch = &report.launches.back();
    // ncu repeats a (section, metric) pair only in rule rows: the first holds. A set of what the
    // launch holds, so a launch of many metrics stays linear (a pairwise search was quadratic).
    auto add = [&](std::string section, std::string metric, std::string unit, std::string& value) {
      std::string key = section;
      key.append(1, '\0').append(metric);
      if (!seen.insert(std::move(key)).second) return;
      NcuMetric m;
      m.value = parse_number(value, true);
      m.section = std::move(section);
      m.name = std::move(metric);
      m.unit = std::move(unit);
      m.text = std::move(value);
      m.line = r.line;
      if (report.summary && min_col >= 0 && max_col >= 0) {
        m.minimum_text = field(r, min_col);
        m.maximum_text = field(r, max_col);
        m.minimum = parse_number(m.minimum_text, true);
        m.maximum = parse_number(m.maximum_text, true);
      }
      launch->metrics.push_back(std::move(m));
    };
    if (report.raw_page) {
      for (std::size_t c = 0; c < header.fields.size(); ++c)
        if (!is_identity_column(header.fields[c].text) && !is_nvtx_column(header.fields[c].text))
          add("", header.fields[c].text, units ? units->fields[c].text : "", r.fields[c].text);
    } else {
      if (field(r, metric_col).empty()) continue;  // a rule's row with no metric
      add(section_col >= 0 ? std::move(field(r, section_col)) : "", std::move(field(r, metric_col)),
          std::move(field(r, unit_col)), field(r, value_col));
    }
  }
  return report;
}

}  // namespace rubric::tables
