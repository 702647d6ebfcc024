// `rubric lint RUBRIC...`: parse and check each rubric statically; evaluate nothing.
#include <filesystem>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/verbs.hpp"
#include "interpreter/engine.hpp"

namespace rubric::cli {

int run_lint(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::vector<std::string> include_dirs;
  bool no_color = false;
  po::options_description options("options");
  options.add_options()
      ("help,h", "show this help")
      ("include,I", po::value(&include_dirs)->value_name("DIR")->composing(), "module search folder (repeatable)")
      ("no-color", po::bool_switch(&no_color), "no colours (also when NO_COLOR is set)");
  po::variables_map vm = parse_arguments(args, options, "rubric");
  if (vm.count("help")) {
    print_help("rubric lint RUBRIC... [-I DIR]...",
               "Parses each rubric or module and checks names, arity and units without evaluating\n"
               "anything. Diagnostics go to stderr. Exit code: 0 when no file has an error, else 2.",
               options);
    return 0;
  }
  po::notify(vm);
  if (!vm.count("rubric")) throw UsageError("no rubric file given");

  bool any_error = false;
  for (const std::string& path : vm["rubric"].as<std::vector<std::string>>()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      fmt::print(stderr, "{}: error: cannot read rubric file\n", path);
      any_error = true;
      continue;
    }
    EngineOptions engine_options;
    engine_options.include_dirs = include_dirs;
    Engine engine(engine_options);
    std::vector<Diagnostic> diagnostics = engine.load(path);
    for (Diagnostic& note : engine.needs_notes()) diagnostics.push_back(std::move(note));
    for (Diagnostic& note : engine.gpu_notes()) diagnostics.push_back(std::move(note));
    print_diagnostics(diagnostics, no_color);
    any_error = any_error || has_errors(diagnostics);
  }
  return any_error ? kExitUsage : 0;
}

}  // namespace rubric::cli
