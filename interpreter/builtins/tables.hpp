#pragma once
// CSV text as a language value (shared by csv() in files.cpp and parse_csv()), and the size caps
// of data files read whole.
#include <cstdint>
#include <string>
#include <string_view>

#include <functional>
#include <optional>
#include <vector>

#include "interpreter/value.hpp"

namespace rubric::builtins {

struct CsvCall {
  char separator = ',';
  bool preamble = false;
  bool thousands = false;
};

// Reads csv() and parse_csv()'s options (sep, preamble, thousands) from arguments 1..3; returns
// an error value for a bad one.
std::optional<Value> csv_options(CallContext& ctx, const std::vector<Value>& a, CsvCall& out);

// A file's parsed value, once per check run: the value cached under `key` (the function, the
// file's path and every option that changes the value), else parse() stored there when it is
// not an error. Files under `submission` and `reference` do not change during a run (programs
// run on a scratch copy), so the path names the content.
Value cached_parse(CallContext& ctx, const std::string& key, const std::function<Value()>& parse);

// The default size cap of a data file read whole (json, jsonl, csv, ncu, prometheus): 64 MiB.
constexpr double kDataLimit = 64 * 1048576.0;

// A `limit` argument (argument #at, a size such as 64 MiB) as a byte count, or an error value.
std::optional<Value> limit_arg(CallContext& ctx, const std::vector<Value>& a, std::size_t at, std::uint64_t& out);

// Rows as records keyed by the header. `fail` turns a message about the data into the error
// value to return (a file error, or a data error for text).
Value csv_table(CallContext& ctx, std::string_view text, const std::string& name, bool from_submission,
                const CsvCall& options, const std::function<Value(const std::string&)>& fail);

}  // namespace rubric::builtins
