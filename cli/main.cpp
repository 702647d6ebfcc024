// `rubric`: dispatches to one verb per file (check, lint, doc, test); --version and --help.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <boost/program_options/errors.hpp>
#include <fmt/format.h>

#include "cli/heap_pages.hpp"
#include "cli/cli_support.hpp"
#include "cli/stop_cleanup.hpp"
#include "cli/verbs.hpp"
#include "operators/files/temp_owner.hpp"

namespace {

constexpr const char* kOverview =
    "usage: rubric <command> [options]\n"
    "\n"
    "Grades a submission against a .rubric file and explains every verdict.\n"
    "\n"
    "commands:\n"
    "  check RUBRIC --submission DIR   evaluate the rubric; exit 0 PASS, 1 FAIL, 2 ERROR, 3 INCOMPLETE\n"
    "  lint RUBRIC...                  parse and check statically, evaluate nothing\n"
    "  doc [MODULE]                    builtins and stdlib modules with signatures and docs\n"
    "  test RUBRIC [--cases FILE]      calibrate: grade labelled cases; exit 0 all agree, 1 any disagrees\n"
    "  grade RUBRIC SUBMISSION...      grade a corpus into results.jsonl and summary.json (resumable)\n"
    "  merge DIR...                    merge the results of grade shards\n"
    "  review OUT                      record graders' verdicts and justifications beside the tool's\n"
    "\n"
    "options:\n"
    "  --help, -h                      this text; `rubric <command> --help` for a command's options\n"
    "  --version                       the tool version\n";

}  // namespace

int main(int argc, char** argv) {
  namespace cli = rubric::cli;
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    fmt::print(stderr, "{}", kOverview);
    return cli::kExitUsage;
  }
  const std::string& verb = args[0];
  if (verb == "--help" || verb == "-h" || verb == "help") {
    fmt::print("{}", kOverview);
    return 0;
  }
  if (verb == "--version") {
    fmt::print("rubric {}\n", cli::tool_version());
    return 0;
  }
  // A check of large files starts once more, with huge pages for the heap (cli/heap_pages.hpp).
  if (verb == "check") cli::use_huge_pages_for_large_inputs(argc, argv);
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  // The verbs that run programs first remove what killed graders left under TMPDIR and /tmp
  // (docs/processes.md): one read of each base, never a live grader's folder.
  if (verb == cli::kStoppedVerb) return cli::run_stopped(rest.empty() ? "" : rest[0]);
  if (verb == "check" || verb == "test" || verb == "grade")
    rubric::files::sweep_stale_temp_dirs(rubric::files::owned_temp_bases());
  // `grade` stops its batch between events itself (grading/grade_run.cpp).
  if (verb == "check" || verb == "test") cli::install_stop_cleanup();
  try {
    if (verb == "check") return cli::run_check(rest);
    if (verb == "lint") return cli::run_lint(rest);
    if (verb == "doc") return cli::run_doc(rest);
    if (verb == "test") return cli::run_test(rest);
    if (verb == "grade") return cli::run_grade(rest);
    if (verb == "merge") return cli::run_merge(rest);
    if (verb == "review") return cli::run_review(rest);
    fmt::print(stderr, "rubric: unknown command '{}'\nRun 'rubric --help' for the commands.\n", verb);
    return cli::kExitUsage;
  } catch (const cli::UsageError& e) {
    fmt::print(stderr, "rubric {}: {}\nRun 'rubric {} --help' for usage.\n", verb, e.what(), verb);
    return cli::kExitUsage;
  } catch (const boost::program_options::error& e) {
    fmt::print(stderr, "rubric {}: {}\nRun 'rubric {} --help' for usage.\n", verb, e.what(), verb);
    return cli::kExitUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "rubric {}: error: {}\n", verb, e.what());
    return cli::kExitUsage;
  }
}
