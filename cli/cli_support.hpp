#pragma once
// What the verbs share: usage errors, printing diagnostics, the tool version.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "grammar/diagnostic.hpp"
#include "operators/judge/judge_settings.hpp"

namespace rubric::cli {

// Exit code for usage errors, rubrics that do not parse, and ERROR verdicts.
inline constexpr int kExitUsage = 2;

// A mistake on the command line; main prints "rubric VERB: message" and a hint, and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* tool_version();

// Prints `diagnostics` to stderr (coloured when stderr is a terminal and colour is not disabled).
void print_diagnostics(const std::vector<Diagnostic>& diagnostics, bool no_color_flag);

// Prints "usage: ...", the verb's summary and its options to stdout (for --help).
void print_help(const std::string& usage, const std::string& summary,
                const boost::program_options::options_description& options);

// Parses a verb's arguments: its `options` plus any number of positional arguments collected
// under `positional_name` (a vector<string>). Throws Boost's errors for main to report.
boost::program_options::variables_map parse_arguments(const std::vector<std::string>& args,
                                                      const boost::program_options::options_description& options,
                                                      const char* positional_name);

// "--set context=16Ki" values → {"context": "16Ki"}; the value is a rubric literal the engine
// parses. Throws UsageError for a missing '=', a name that is not an identifier or an empty value.
std::map<std::string, std::string> parse_set_options(const std::vector<std::string>& sets);

// "--seed N": a non-negative integer; throws UsageError otherwise.
std::uint64_t parse_seed_option(const std::string& text);

// The judge's options, shared by check, test and grade (the API key is never an option: it is
// read from RUBRIC_JUDGE_API_KEY only).
struct JudgeOptions {
  std::string url, model, cache;
  int votes = -1;            // -1: not given
  double timeout = -1;       // -1: not given
  double retry_budget = -1;  // -1: not given
};
// `cache_default` says where the cache goes when --judge-cache is not given, for the help.
void add_judge_options(boost::program_options::options_description& options, JudgeOptions& judge,
                       const char* cache_default = "beside --output FILE, else ~/.cache/rubric/judge-cache.jsonl");
// Checks the values (UsageError otherwise) and makes the settings. The cache file: --judge-cache,
// else RUBRIC_JUDGE_CACHE, else `default_cache` when given (beside the report), else the user's
// cache folder (judge::resolve).
judge::JudgeSettings judge_settings(const JudgeOptions& judge, const std::string& default_cache);

// Writes `text` to `path`; throws std::runtime_error naming the file when it cannot.
void write_file(const std::string& path, const std::string& text);

}  // namespace rubric::cli
