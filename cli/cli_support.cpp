#include "cli/cli_support.hpp"

#include <boost/program_options/parsers.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "report/terminal_style.hpp"

namespace rubric::cli {

const char* tool_version() { return RUBRIC_VERSION; }

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
  po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
  return vm;
}

}  // namespace rubric::cli
