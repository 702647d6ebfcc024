// `rubric merge DIR... --out DIR`: shard outputs joined into one results.jsonl and summary.json.
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/verbs.hpp"
#include "grading/grade_run.hpp"
#include "grading/merge.hpp"

namespace rubric::cli {

int run_merge(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  grading::MergeSettings s;
  s.out_dir = "rubric-results";
  std::vector<std::string> lists;
  std::string format = "text";
  po::options_description options("options");
  options.add_options()
      ("help,h", "show this help")
      ("out,o", po::value(&s.out_dir)->value_name("DIR"), "where the merged results go (default: rubric-results)")
      ("submissions-from", po::value(&lists)->value_name("FILE")->composing(),
       "the whole corpus, one folder a line: submissions without a result are reported missing")
      ("format,f", po::value(&format)->value_name("FMT"), "what is printed: text (a table, default), json (summary.json) or html (a page with plots)")
      ("quiet,q", po::bool_switch(&s.quiet), "print no table")
      ("no-color", po::bool_switch(&s.no_color), "no colours (also when NO_COLOR is set)");
  po::variables_map vm = parse_arguments(args, options, "dirs");
  if (vm.count("help")) {
    print_help("rubric merge DIR... [--out DIR] [--submissions-from FILE] [--format text|json|html] [--quiet]",
               "Merges the results of `rubric grade` runs (shards) into --out: one results.jsonl line per\n"
               "submission and a summary.json over all of them. Merging again gives the same files. Exit 0\n"
               "when every submission has a verdict; 2 when any ERRORed, is missing, or two folders disagree.",
               options);
    return 0;
  }
  po::notify(vm);
  if (!vm.count("dirs")) throw UsageError("no result folders given");
  s.dirs = vm["dirs"].as<std::vector<std::string>>();
  if (format != "text" && format != "json" && format != "html")
    throw UsageError(fmt::format("unknown --format '{}' (expected text, json or html)", format));
  s.json = format == "json";
  s.html = format == "html";
  if (!lists.empty()) {
    s.expected.emplace();
    for (const std::string& list : lists)
      for (std::string& sub : grading::read_submission_list(list)) s.expected->push_back(std::move(sub));
  }
  return grading::merge(s);
}

}  // namespace rubric::cli
