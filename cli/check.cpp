// `rubric check RUBRIC --submission DIR ...`: evaluate a rubric and print the report; the exit code
// is the overall verdict's.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "cli/cli_support.hpp"
#include "cli/verbs.hpp"
#include "interpreter/engine.hpp"
#include "report/report_format.hpp"
#include "report/terminal_progress.hpp"
#include "report/terminal_style.hpp"

namespace rubric::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr const char* kUsage =
    "rubric check RUBRIC --submission DIR [--reference DIR] [--format text|json|junit|markdown|html]\n"
    "                    [--output FILE] [--set NAME=VALUE]... [--only ID]... [-I DIR]... [--seed N] [--no-color]\n"
    "                    [--judge-url URL] [--judge-model NAME] [--judge-votes N] [--judge-timeout SECONDS]\n"
    "                    [--judge-retry-budget SECONDS] [--judge-cache FILE]";

struct CheckArgs {
  std::string rubric;
  std::string submission;
  std::string reference;
  std::string format = "text";
  std::string output;
  std::vector<std::string> sets;
  std::string seed;
  bool no_color = false;
  bool verbose = false;
  JudgeOptions judge;
};

void require_directory(const std::string& option, const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw UsageError(fmt::format("{} directory '{}' does not exist", option, dir));
  if (!fs::is_directory(dir, ec)) throw UsageError(fmt::format("{} '{}' is not a directory", option, dir));
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  CheckArgs a;
  EngineOptions engine_options;  // -I and --only are parsed into it; --set and --seed below
  po::options_description options("options");
  options.add_options()
      ("help,h", "show this help")
      ("submission,s", po::value(&a.submission)->value_name("DIR"), "the submission to grade (required)")
      ("reference,r", po::value(&a.reference)->value_name("DIR"), "reference files (default: the rubric's folder)")
      ("format,f", po::value(&a.format)->value_name("FMT"), "report format: text (default), json, junit, markdown, html")
      ("output,o", po::value(&a.output)->value_name("FILE"),
       "write the report in --format to FILE; the text report still goes to stdout")
      ("set", po::value(&a.sets)->value_name("NAME=VALUE")->composing(), "override a param (repeatable)")
      ("only", po::value(&engine_options.only)->value_name("ID")->composing(),
       "evaluate only this criterion and what it runs after (repeatable)")
      ("include,I", po::value(&engine_options.include_dirs)->value_name("DIR")->composing(), "module search folder (repeatable)")
      ("seed", po::value(&a.seed)->value_name("N"), "override the rubric's seed")
      ("no-color", po::bool_switch(&a.no_color), "no colours (also when NO_COLOR is set)")
      ("verbose,v", po::bool_switch(&a.verbose), "add timings and provenance counts to the text report");
  add_judge_options(options, a.judge);
  po::variables_map vm = parse_arguments(args, options, "rubric");
  if (vm.count("help")) {
    print_help(kUsage, "Evaluates RUBRIC against the submission and prints a verdict with evidence for every\n"
                       "criterion. Exit code: 0 PASS, 1 FAIL, 2 ERROR or usage error, 3 INCOMPLETE.",
               options);
    return 0;
  }
  po::notify(vm);

  if (!vm.count("rubric")) throw UsageError("no rubric file given");
  const auto rubrics = vm["rubric"].as<std::vector<std::string>>();
  if (rubrics.size() > 1) throw UsageError(fmt::format("one rubric file at a time (got '{}' and '{}')", rubrics[0], rubrics[1]));
  a.rubric = rubrics[0];
  if (a.submission.empty()) throw UsageError("--submission DIR is required");
  const auto format = report::parse_report_format(a.format);
  if (!format) throw UsageError(fmt::format("unknown --format '{}' (expected text, json, junit, markdown or html)", a.format));
  std::error_code ec;
  if (!fs::is_regular_file(a.rubric, ec)) throw UsageError(fmt::format("cannot read rubric file '{}'", a.rubric));
  require_directory("--submission", a.submission);
  if (!a.reference.empty()) require_directory("--reference", a.reference);

  report::TerminalProgress progress = report::TerminalProgress::for_stderr();
  engine_options.set_params = parse_set_options(a.sets);
  if (!a.seed.empty()) engine_options.seed = parse_seed_option(a.seed);
  engine_options.progress = &progress;
  engine_options.judge = judge_settings(a.judge, a.output.empty() ? std::string() : judge::cache_file_beside(a.output));

  Engine engine(std::move(engine_options));
  const std::vector<Diagnostic> diagnostics = engine.load(a.rubric);
  if (has_errors(diagnostics)) {
    print_diagnostics(diagnostics, a.no_color);
    // A JSON consumer still gets a report: the engine's for a rubric that did not load (ERROR,
    // nothing evaluated, its load diagnostics in `warnings`); the other formats keep stderr alone.
    if (*format == report::ReportFormat::json) {
      const std::string json = report::render_report(engine.check(a.submission, a.reference), *format);
      if (!a.output.empty()) write_file(a.output, json);
      else fmt::print("{}", json);
      std::fflush(stdout);
    }
    return kExitUsage;
  }
  // Warnings are the report's (every format shows them); notes are for the terminal alone.
  std::vector<Diagnostic> notes;
  for (const Diagnostic& d : diagnostics)
    if (d.severity != Severity::warning) notes.push_back(d);
  print_diagnostics(notes, a.no_color);

  const Report result = engine.check(a.submission, a.reference);
  progress.finish();

  report::TextOptions text_options;
  text_options.colour = report::colour_wanted(STDOUT_FILENO, a.no_color);
  text_options.verbose = a.verbose;
  if (!a.output.empty()) {
    report::TextOptions file_options = text_options;
    file_options.colour = false;  // a file never gets escape codes
    write_file(a.output, report::render_report(result, *format, file_options));
    fmt::print("{}", report::format_text(result, text_options));
  } else {
    fmt::print("{}", report::render_report(result, *format, text_options));
  }
  std::fflush(stdout);
  return exit_code(result.verdict);
}

}  // namespace rubric::cli
