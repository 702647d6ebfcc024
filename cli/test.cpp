// `rubric test RUBRIC [--cases FILE]`: grade every labelled case and say whether the rubric agrees
// with the graders' verdicts. Exit 0 all agree, 1 any disagrees, 2 broken rubric or cases file,
// 3 nothing disagrees but some case could not be decided on this machine.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "calibration/calibration.hpp"
#include "calibration/calibration_report.hpp"
#include "calibration/cases_file.hpp"
#include "cli/cli_support.hpp"
#include "cli/review_cases.hpp"
#include "cli/verbs.hpp"
#include "interpreter/engine.hpp"
#include "report/terminal_progress.hpp"
#include "report/terminal_style.hpp"

namespace rubric::cli {

namespace {
constexpr const char* kTestUsage =
    "rubric test RUBRIC [--cases FILE | --cases-from OUT] [--format text|json] [--output FILE] [--set NAME=VALUE]... [-I DIR]...\n"
    "                   [--seed N] [--no-color]";
}  // namespace

int run_test(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  namespace fs = std::filesystem;
  std::string cases_path, cases_from, format = "text", output, seed;
  std::vector<std::string> sets, include_dirs;
  bool no_color = false;
  JudgeOptions judge;
  po::options_description options("options");
  options.add_options()
      ("help,h", "show this help")
      ("cases,c", po::value(&cases_path)->value_name("FILE"),
       "the cases file (default: RUBRIC's <name>.cases.json, else cases.json, beside it)")
      ("cases-from", po::value(&cases_from)->value_name("OUT"),
       "the cases: the graders' reviews in a `rubric grade` out folder (docs/review.md)")
      ("format,f", po::value(&format)->value_name("FMT"), "text (default) or json")
      ("output,o", po::value(&output)->value_name("FILE"),
       "write the result in --format to FILE; the text summary still goes to stdout")
      ("set", po::value(&sets)->value_name("NAME=VALUE")->composing(), "override a param in every case (repeatable)")
      ("include,I", po::value(&include_dirs)->value_name("DIR")->composing(), "module search folder (repeatable)")
      ("seed", po::value(&seed)->value_name("N"), "override the rubric's seed")
      ("no-color", po::bool_switch(&no_color), "no colours (also when NO_COLOR is set)");
  add_judge_options(options, judge);
  po::variables_map vm = parse_arguments(args, options, "rubric");
  if (vm.count("help")) {
    print_help(kTestUsage,
               "Grades every labelled submission of the cases file with RUBRIC and compares the verdicts\n"
               "with the expected ones: disagreements with their evidence, a per-criterion table, agreement\n"
               "figures and criteria no case exercises (docs/calibration.md). Exit code: 0 every case\n"
               "agrees, 1 some case disagrees, 2 the rubric or the cases file is broken, 3 nothing\n"
               "disagrees but some case could not be decided on this machine (a GPU it lacks).",
               options);
    return 0;
  }
  po::notify(vm);
  if (!vm.count("rubric")) throw UsageError("no rubric file given");
  const auto rubrics = vm["rubric"].as<std::vector<std::string>>();
  if (rubrics.size() > 1) throw UsageError(fmt::format("one rubric file at a time (got '{}' and '{}')", rubrics[0], rubrics[1]));
  const std::string rubric = rubrics[0];
  if (format != "text" && format != "json") throw UsageError(fmt::format("unknown --format '{}' (expected text or json)", format));
  std::error_code ec;
  if (!fs::is_regular_file(rubric, ec)) throw UsageError(fmt::format("cannot read rubric file '{}'", rubric));
  if (!cases_from.empty() && !cases_path.empty()) throw UsageError("give --cases or --cases-from, not both");
  if (cases_path.empty() && cases_from.empty()) {
    const auto found = calibration::find_default_cases_file(rubric);
    if (!found) {
      const fs::path p(rubric);
      throw UsageError(fmt::format("no --cases given and no '{}' or '{}' beside the rubric",
                                   (p.parent_path() / (p.stem().string() + ".cases.json")).string(),
                                   (p.parent_path() / "cases.json").string()));
    }
    cases_path = *found;
  }

  calibration::CasesFile cases;
  try {
    cases = cases_from.empty() ? calibration::read_cases_file(cases_path) : cases_from_reviews(cases_from);
  } catch (const calibration::CasesError& e) {
    fmt::print(stderr, "{}: error: {}\n", "rubric test", e.what());
    return kExitUsage;
  }

  report::TerminalProgress progress = report::TerminalProgress::for_stderr();
  EngineOptions engine_options;
  engine_options.include_dirs = include_dirs;
  engine_options.set_params = parse_set_options(sets);
  if (!seed.empty()) engine_options.seed = parse_seed_option(seed);
  engine_options.progress = &progress;
  engine_options.judge = judge_settings(judge, output.empty() ? std::string() : judge::cache_file_beside(output));
  Engine engine(engine_options);
  const std::vector<Diagnostic> diagnostics = engine.load(rubric);
  print_diagnostics(diagnostics, no_color);
  if (has_errors(diagnostics)) return kExitUsage;

  calibration::CalibrationResult result;
  try {
    result = calibration::calibrate(engine, rubric, cases, [&](std::size_t i, const calibration::Case& c) {
      progress.activity(fmt::format("case {}/{}: {}", i + 1, cases.cases.size(), c.name));
    });
  } catch (const calibration::CasesError& e) {
    progress.finish();
    fmt::print(stderr, "{}: error: {}\n", "rubric test", e.what());
    return kExitUsage;
  }
  progress.finish();

  calibration::CalibrationTextOptions text_options;
  text_options.colour = report::colour_wanted(STDOUT_FILENO, no_color);
  const auto render = [&](bool colour) {
    if (format == "json") return calibration::format_calibration_json(result);
    calibration::CalibrationTextOptions o = text_options;
    o.colour = colour;
    return calibration::format_calibration_text(result, o);
  };
  if (!output.empty()) {
    write_file(output, render(false));
    fmt::print("{}", calibration::format_calibration_text(result, text_options));
  } else {
    fmt::print("{}", render(text_options.colour));
  }
  std::fflush(stdout);
  return result.exit_code();
}

}  // namespace rubric::cli
