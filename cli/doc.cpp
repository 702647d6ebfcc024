// `rubric doc [MODULE | BUILTIN | FILE.rubric]`: builtins and modules with their signatures and `##` docs.
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/verbs.hpp"
#include "interpreter/engine.hpp"

namespace rubric::cli {

int run_doc(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::vector<std::string> include_dirs;
  po::options_description options("options");
  options.add_options()
      ("help,h", "show this help")
      ("include,I", po::value(&include_dirs)->value_name("DIR")->composing(), "module search folder (repeatable)");
  po::variables_map vm = parse_arguments(args, options, "module");
  if (vm.count("help")) {
    print_help("rubric doc [MODULE | BUILTIN | FILE.rubric] [-I DIR]...",
               "Without MODULE: the builtins and the list of modules. With MODULE (std.numerics, team.serving):\n"
               "that module's functions and checks with their signatures and documentation. With a builtin's\n"
               "name (samples) or a name a standard module declares (no_regression): its entry. With a\n"
               "FILE.rubric: the params, lets, concepts and defs that file declares.",
               options);
    return 0;
  }
  po::notify(vm);
  std::string module;
  if (vm.count("module")) {
    const auto modules = vm["module"].as<std::vector<std::string>>();
    if (modules.size() > 1) throw UsageError("one module at a time");
    module = modules[0];
  }
  EngineOptions engine_options;
  engine_options.include_dirs = include_dirs;
  const Engine engine(engine_options);
  bool found = true;
  const std::string text = engine.doc(module, &found);
  fmt::print(found ? stdout : stderr, "{}", text);
  return found ? 0 : kExitUsage;
}

}  // namespace rubric::cli
