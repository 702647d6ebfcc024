#include "operators/tables/csv_reader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "operators/error.hpp"
#include "operators/files/byte_order_mark.hpp"

namespace rubric::tables {

bool is_tool_line(std::string_view line) {
  return line.size() > 2 && line[0] == '=' && line[1] == '=' && line.find("==", 2) != std::string_view::npos;
}

std::vector<CsvRow> split_rows(std::string_view s, std::string_view name, const CsvOptions& options) {
  s = files::without_byte_order_mark(s);
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  bool quoted = false, in_quotes = false, after_quote = false, any = false;
  std::size_t line = 1, col = 1, quote_line = 0, quote_col = 0;
  auto at_line_start = [&](std::size_t i) { return i == 0 || s[i - 1] == '\n' || s[i - 1] == '\r'; };
  std::size_t cells = 0;
  auto end_field = [&] {
    if (options.max_cells && ++cells > options.max_cells)
      throw ReadLimitExceeded(fmt::format("{}:{}: more than {} fields (the limit for reading a CSV)", name, line,
                                          options.max_cells));
    // A long field grown a character at a time holds up to twice its size: give the rest back,
    // so a field as long as the file costs the file's size once.
    if (field.capacity() > field.size() + field.size() / 2 + 64) field.shrink_to_fit();
    row.fields.push_back(CsvField{std::move(field), quoted});
    field.clear();
    quoted = after_quote = false;
  };
  for (std::size_t i = 0; i < s.size(); ++i, ++col) {
    char c = s[i];
    if (options.preamble && !in_quotes && at_line_start(i)) {
      std::size_t eol = s.find('\n', i);
      std::string_view whole = s.substr(i, eol == std::string_view::npos ? std::string_view::npos : eol - i);
      if (is_tool_line(whole)) {  // a profiler's own line between rows: not data
        if (eol == std::string_view::npos) break;
        i = eol;
        ++line;
        col = 0;
        continue;
      }
    }
    if (!any && row.fields.empty() && field.empty()) row.line = line;
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < s.size() && s[i + 1] == '"') {
          field += '"';
          ++i;
          ++col;
        } else {
          in_quotes = false;
          after_quote = true;
        }
      } else {
        if (c == '\n') { ++line; col = 0; }
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty() && !after_quote) {
      in_quotes = quoted = any = true;
      quote_line = line;
      quote_col = col;
    } else if (c == options.separator) {
      end_field();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        end_field();
        rows.push_back(std::move(row));
      }
      row = CsvRow{};
      field.clear();
      quoted = after_quote = any = false;
      ++line;
      col = 0;
    } else if (after_quote) {
      if (c == ' ' || c == '\t') continue;  // blanks between a closing quote and the separator
      throw OperatorError(fmt::format("{}:{}:{}: text after the closing quote of a field", name, line, col));
    } else {
      field += c;
      any = true;
    }
  }
  if (in_quotes) throw OperatorError(fmt::format("{}:{}:{}: a quoted field is not closed", name, quote_line, quote_col));
  if (any || !field.empty()) {
    end_field();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::size_t header_index(const std::vector<CsvRow>& rows) {
  if (rows.size() < 2) return 0;
  // The data is the last run of rows of one width; the header is that run's first row. A
  // preamble line of the same width just before it would be taken for the header, so a run
  // must be at least two rows (header and one data row) unless the whole text is one run.
  std::size_t start = rows.size() - 1;
  while (start > 0 && rows[start - 1].fields.size() == rows.back().fields.size()) --start;
  return start;
}

namespace {
bool digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

std::optional<double> parse_number(std::string_view text, bool thousands) {
  std::size_t b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t");
  if (b == std::string_view::npos) return std::nullopt;
  std::string_view t = text.substr(b, e - b + 1);
  std::string_view body = t;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "inf" || body == "Infinity" || body == "infinity")
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (body == "nan" || body == "NaN") return std::numeric_limits<double>::quiet_NaN();
  // Validate the shape first (strtod also takes hex, "infinity" and leading blanks).
  std::string plain;
  std::size_t i = 0, int_digits = 0, group = 0;
  bool grouped = false;
  while (i < body.size() && (digit(body[i]) || (thousands && body[i] == ','))) {
    if (body[i] == ',') {
      if (int_digits == 0 || (grouped && group != 3) || (!grouped && group > 3)) return std::nullopt;
      grouped = true;
      group = 0;
    } else {
      plain += body[i];
      ++int_digits;
      ++group;
    }
    ++i;
  }
  if (grouped && group != 3) return std::nullopt;
  std::size_t frac_digits = 0;
  if (i < body.size() && body[i] == '.') {
    plain += '.';
    ++i;
    while (i < body.size() && digit(body[i])) plain += body[i++], ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    plain += body[i++];
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) plain += body[i++];
    if (i >= body.size() || !digit(body[i])) return std::nullopt;
    while (i < body.size() && digit(body[i])) plain += body[i++];
  }
  if (i != body.size()) return std::nullopt;
  double v = std::strtod(plain.c_str(), nullptr);
  return negative ? -v : v;
}

}  // namespace rubric::tables
