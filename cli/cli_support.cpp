#include "cli/cli_support.hpp"

#include <boost/program_options/parsers.hpp>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "report/terminal_style.hpp"
#include "operators/tool_version.hpp"

namespace rubric::cli {

const char* tool_version() { return kToolVersion; }

void print_diagnostics(const std::vector<Diagnostic>& diagnostics, bool no_color_flag) {
  if (diagnostics.empty()) return;
  const bool colour = report::colour_wanted(STDERR_FILENO, no_color_flag);
  std::fflush(stdout);
  fmt::print(stderr, "{}", format_diagnostics(diagnostics, colour));
  std::fflush(stderr);
}

void print_help(const std::string& usage, const std::string& summary,
                const boost::program_options::options_description& options) {
  std::ostringstream described;  // program_options only renders to a stream
  described << options;
  fmt::print("usage: {}\n\n{}\n\n{}", usage, summary, described.str());
}

void add_judge_options(boost::program_options::options_description& options, JudgeOptions& judge,
                       const char* cache_default) {
  namespace po = boost::program_options;
  options.add_options()
      ("judge-url", po::value(&judge.url)->value_name("URL"),
       "the judge's OpenAI-compatible API base, e.g. http://127.0.0.1:8000/v1 (default: RUBRIC_JUDGE_URL; the key comes "
       "from RUBRIC_JUDGE_API_KEY only)")
      ("judge-model", po::value(&judge.model)->value_name("NAME"), "the judge's model (default: RUBRIC_JUDGE_MODEL)")
      ("judge-votes", po::value(&judge.votes)->value_name("N"), "votes of a judge() call that names none (default 1)")
      ("judge-timeout", po::value(&judge.timeout)->value_name("SECONDS"), "one request to the judge (default 60)")
      ("judge-retry-budget", po::value(&judge.retry_budget)->value_name("SECONDS"),
       "waiting between retries on HTTP 429 and 5xx, per request (default 120)")
      ("judge-cache", po::value(&judge.cache)->value_name("FILE"),
       fmt::format("the judgements' cache (default: RUBRIC_JUDGE_CACHE, else {})", cache_default).c_str());
}

judge::JudgeSettings judge_settings(const JudgeOptions& o, const std::string& default_cache) {
  if (!o.url.empty() && o.url.rfind("http://", 0) != 0 && o.url.rfind("https://", 0) != 0)
    throw UsageError(fmt::format("--judge-url '{}' must start with http:// or https://", judge::display_url(o.url)));
  if (o.votes != -1 && (o.votes < 1 || o.votes > judge::kMaxVotes))
    throw UsageError(fmt::format("--judge-votes {} must be from 1 to {}", o.votes, judge::kMaxVotes));
  if (o.timeout != -1 && !(o.timeout > 0 && o.timeout <= 86400))
    throw UsageError(fmt::format("--judge-timeout {} must be a positive number of seconds", o.timeout));
  if (o.retry_budget != -1 && !(o.retry_budget >= 0 && o.retry_budget <= 86400))
    throw UsageError(fmt::format("--judge-retry-budget {} must be a number of seconds, 0 or more", o.retry_budget));
  judge::JudgeSettings s;
  s.url = o.url;
  s.model = o.model;
  s.votes = o.votes < 0 ? 0 : o.votes;
  s.timeout_seconds = o.timeout < 0 ? 0 : o.timeout;
  s.retry_budget_seconds = o.retry_budget;
  s.cache_file = o.cache;
  return judge::with_default_cache(s, default_cache);
}

void write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
}

boost::program_options::variables_map parse_arguments(const std::vector<std::string>& args,
                                                      const boost::program_options::options_description& options,
                                                      const char* positional_name) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()(positional_name, po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add(positional_name, -1);
  po::variables_map vm;
  // No abbreviations: "--submissions" must not quietly become --submissions-from.
  po::store(po::command_line_parser(args)
                .options(all)
                .positional(positional)
                .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
                .run(),
            vm);
  return vm;
}

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

// "--set context=16Ki" → {"context", "16Ki"}; the value is a rubric literal the engine parses.
std::map<std::string, std::string> parse_set_options(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> params;
  for (const std::string& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw UsageError(fmt::format("--set '{}' must be NAME=VALUE", s));
    const std::string name = s.substr(0, eq);
    const std::string value = s.substr(eq + 1);
    if (!is_identifier(name)) throw UsageError(fmt::format("--set '{}': '{}' is not a parameter name", s, name));
    if (value.empty()) throw UsageError(fmt::format("--set '{}': the value is empty", s));
    params[name] = value;
  }
  return params;
}

std::uint64_t parse_seed_option(const std::string& text) {
  std::size_t used = 0;
  unsigned long long seed = 0;
  try {
    if (!text.empty() && text[0] != '-') seed = std::stoull(text, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw UsageError(fmt::format("--seed '{}' is not a non-negative integer", text));
  return seed;
}

}  // namespace rubric::cli
