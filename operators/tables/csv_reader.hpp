#pragma once
// CSV as tools write it: RFC 4180 quoting, any one-character separator, an optional preamble
// before the header (ncu's ==PROF== lines and the profiled program's own output), and numbers
// with thousands separators ("1,234,567.5", which a tool must quote).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "operators/tables/read_limit.hpp"

namespace rubric::tables {

struct CsvField {
  std::string text;
  bool quoted = false;
};

struct CsvRow {
  std::vector<CsvField> fields;
  std::size_t line = 0;  // 1-based line of the text where the row starts
};

struct CsvOptions {
  char separator = ',';
  // Skip lines before the header: lines that start with "==" (==PROF==, ==WARNING==, ==ERROR==
  // of NVIDIA's tools, anywhere in the text), and every row before the last run of rows that all
  // have the header's field count.
  bool preamble = false;
  // At most this many fields in all (0: no limit); past it split_rows throws ReadLimitExceeded.
  // Every field costs a few hundred bytes once read into records, so a 64 MiB file of "1\n"
  // lines became 11 GiB without a bound.
  std::size_t max_cells = 0;
};

// Splits text into rows; throws OperatorError "name:line:col: ..." for a quote left open or text
// after a closing quote.
std::vector<CsvRow> split_rows(std::string_view text, std::string_view name, const CsvOptions& options);

// The index of the header row in `rows` under options.preamble (0 without it).
std::size_t header_index(const std::vector<CsvRow>& rows);

// True for lines a profiler writes into the same stream as its CSV ("==PROF== ...").
bool is_tool_line(std::string_view line);

// A field that is wholly a number: an optional sign, digits, an optional fraction and exponent,
// or inf/nan words as Python and C write them. With `thousands`, "1,234,567.89" (groups of
// exactly three digits) is accepted too. nullopt otherwise.
std::optional<double> parse_number(std::string_view text, bool thousands);

}  // namespace rubric::tables
