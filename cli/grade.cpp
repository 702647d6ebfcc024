// `rubric grade RUBRIC SUBMISSION...`: a corpus graded into an out folder (grading/grade_run.hpp).
#include <filesystem>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/verbs.hpp"
#include "grading/grade_run.hpp"
#include "grading/slurm.hpp"

namespace rubric::cli {
namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "rubric grade RUBRIC SUBMISSION... [--submissions-from FILE] [--reference DIR] [--out DIR]\n"
    "                    [--jobs N] [--shard I/N] [--slurm [--slurm-args \"...\"] [--tasks N]]\n"
    "                    [--set NAME=VALUE]... [-I DIR]... [--seed N] [--retry-errors] [--regrade]\n"
    "                    [--timeout SECONDS] [--format text|json|html] [--quiet] [--no-color]\n"
    "                    [--judge-url URL] [--judge-model NAME] [--judge-votes N] [--judge-timeout SECONDS]\n"
    "                    [--judge-retry-budget SECONDS] [--judge-cache FILE]";

}  // namespace

int run_grade(const std::vector<std::string>& args) {
  grading::GradeSettings s;
  std::vector<std::string> sets;
  std::vector<std::string> lists;
  std::string shard, format = "text", seed, slurm_args;
  int jobs = 0, tasks = 0;
  double timeout = 0;
  bool slurm = false;
  JudgeOptions judge;
  po::options_description options("options");
  options.add_options()
      ("help,h", "show this help")
      ("submissions-from", po::value(&lists)->value_name("FILE")->composing(),
       "read submission folders from FILE, one a line ('-': standard input); repeatable")
      ("reference,r", po::value(&s.reference)->value_name("DIR"), "reference files (default: the rubric's folder)")
      ("out,o", po::value(&s.out_dir)->value_name("DIR"), "results folder (default: rubric-results)")
      ("jobs,j", po::value(&jobs)->value_name("N"), "submissions graded at once (default: the CPUs)")
      ("shard", po::value(&shard)->value_name("I/N"), "grade only the I-th of N deterministic shards (1 <= I <= N)")
      ("slurm", po::bool_switch(&slurm), "grade on a Slurm cluster: a job array, one task per shard, merged at the end")
      ("slurm-args", po::value(&slurm_args)->value_name("\"...\""), "more sbatch options (--gres=gpu:1 --time=1:00:00)")
      ("tasks", po::value(&tasks)->value_name("N"), "with --slurm: array tasks (shards); default one per 25 submissions, at most 256")
      ("set", po::value(&sets)->value_name("NAME=VALUE")->composing(), "override a param (repeatable)")
      ("include,I", po::value(&s.include_dirs)->value_name("DIR")->composing(), "module search folder (repeatable)")
      ("seed", po::value(&seed)->value_name("N"), "override the rubric's seed")
      ("retry-errors", po::bool_switch(&s.retry_errors), "re-grade only submissions whose last result was an ERROR")
      ("regrade", po::bool_switch(&s.regrade), "grade everything again, ignoring earlier results")
      ("timeout", po::value(&timeout)->value_name("SECONDS"), "per submission; past it the submission is an ERROR (default: none)")
      ("format,f", po::value(&format)->value_name("FMT"), "what is printed at the end: text (a table, default), json (summary.json) or html (a page with plots)")
      ("quiet,q", po::bool_switch(&s.quiet), "no progress and no table; the files and the exit status say it all")
      ("no-color", po::bool_switch(&s.no_color), "no colours (also when NO_COLOR is set)");
  add_judge_options(options, judge, "DIR/judge-cache.jsonl in --out");
  po::variables_map vm = parse_arguments(args, options, "inputs");
  if (vm.count("help")) {
    print_help(kUsage,
               "Grades every SUBMISSION folder against RUBRIC into --out: results.jsonl (one line per submission)\n"
               "and summary.json. Re-running grades only what is new or changed. Exit 0 when every submission\n"
               "received a verdict (PASS, FAIL or INCOMPLETE), 2 when any ERRORed or could not be graded.",
               options);
    return 0;
  }
  po::notify(vm);
  if (!vm.count("inputs")) throw UsageError("no rubric file given");
  auto inputs = vm["inputs"].as<std::vector<std::string>>();
  s.rubric = inputs[0];
  s.submissions.assign(inputs.begin() + 1, inputs.end());
  for (const std::string& list : lists)
    for (std::string& sub : grading::read_submission_list(list)) s.submissions.push_back(std::move(sub));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(s.rubric, ec)) throw UsageError(fmt::format("cannot read rubric file '{}'", s.rubric));
  if (s.submissions.empty()) throw UsageError("no submission folders given (SUBMISSION... or --submissions-from FILE)");
  if (!s.reference.empty() && !std::filesystem::is_directory(s.reference, ec))
    throw UsageError(fmt::format("--reference '{}' is not a directory", s.reference));
  if (format != "text" && format != "json" && format != "html")
    throw UsageError(fmt::format("unknown --format '{}' (expected text, json or html)", format));
  s.json = format == "json";
  s.html = format == "html";
  if (jobs < 0 || (vm.count("jobs") && jobs == 0)) throw UsageError(fmt::format("--jobs {} must be at least 1", jobs));
  s.jobs = static_cast<unsigned>(jobs);
  if (timeout < 0) throw UsageError("--timeout must not be negative");
  s.timeout_seconds = timeout;
  if (s.retry_errors && s.regrade) throw UsageError("--retry-errors and --regrade contradict each other");
  try {
    if (!shard.empty()) s.shard = grading::parse_shard(shard);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  s.set_params = parse_set_options(sets);
  if (!seed.empty()) s.seed = parse_seed_option(seed);
  s.tool_version = tool_version();
  s.judge = judge_settings(judge, "");  // the cache: <out>/judge-cache.jsonl unless named
  if (slurm) {
    if (s.shard) throw UsageError("--slurm makes the shards itself; leave out --shard");
    if (tasks < 0) throw UsageError("--tasks must be at least 1");
    grading::SlurmSettings slurm_settings;
    slurm_settings.sbatch_args = slurm_args;
    slurm_settings.tasks = static_cast<unsigned>(tasks);
    slurm_settings.jobs_given = vm.count("jobs") > 0;
    return grading::grade_on_slurm(s, slurm_settings);
  }
  if (!slurm_args.empty() || tasks != 0) throw UsageError("--slurm-args and --tasks go with --slurm");
  return grading::grade(s);
}

}  // namespace rubric::cli
