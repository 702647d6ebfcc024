// `rubric review OUT`: the graders' own verdicts, with their justification, recorded beside the
// tool's in OUT/reviews.jsonl (docs/review.md). Scripted: --set and --import; --list shows the
// reviews in force.
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <pwd.h>
#include <string>
#include <unistd.h>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/review_page.hpp"
#include "cli/review_server.hpp"
#include "cli/verbs.hpp"
#include "grading/line_report.hpp"
#include "grading/result_line.hpp"
#include "grading/review_queue.hpp"
#include "grading/shard.hpp"
#include "grading/review_store.hpp"
#include "grading/reviewed_results.hpp"
#include "operators/json/json_reader.hpp"
#include "report/display_text.hpp"
#include "report/html_report.hpp"
#include "report/markdown_report.hpp"

namespace rubric::cli {
namespace {

std::string default_reviewer() {
  if (const char* user = std::getenv("USER"); user && *user) return user;
  if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_name) return pw->pw_name;
  return fmt::format("uid {}", ::getuid());
}

// "SUBMISSION:CRITERION=VERDICT". A path may hold ':' and '=', a criterion id neither: split at
// the last '=' and then the last ':'.
grading::Review review_from_set(const std::string& text) {
  const std::size_t eq = text.rfind('=');
  const std::size_t colon = eq == std::string::npos ? std::string::npos : text.rfind(':', eq);
  if (colon == std::string::npos || colon == 0 || colon + 1 == eq)
    throw UsageError(fmt::format("--set '{}' is not SUBMISSION:CRITERION=VERDICT", text));
  grading::Review r;
  r.submission = text.substr(0, colon);
  r.criterion = text.substr(colon + 1, eq - colon - 1);
  const auto verdict = grading::parse_grader_verdict(text.substr(eq + 1));
  if (!verdict)
    throw UsageError(fmt::format("--set '{}': the verdict is agree, PASS, FAIL or cannot-tell", text));
  r.verdict = *verdict;
  return r;
}

std::vector<grading::Review> reviews_from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read '{}'", path));
  std::vector<grading::Review> reviews;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      reviews.push_back(grading::review_of(json::parse(line, path)));
    } catch (const std::exception& e) {
      throw UsageError(fmt::format("{}:{}: {}", path, number, e.what()));
    }
  }
  return reviews;
}

// Every review bound to its result and checked before any is written: all or nothing.
void record(const std::string& out_dir, std::vector<grading::Review> reviews) {
  const auto lines = grading::load_result_lines(out_dir);
  std::map<std::string, std::string> by_path;  // a folder's normalized path → its name in results.jsonl
  for (const auto& [submission, line] : lines) by_path.emplace(grading::normalized_submission_path(submission), submission);
  for (grading::Review& r : reviews) {
    if (!lines.count(r.submission))
      if (const auto named = by_path.find(grading::normalized_submission_path(r.submission)); named != by_path.end())
        r.submission = named->second;
    const auto line = lines.find(r.submission);
    if (line == lines.end())
      throw UsageError(fmt::format("'{}' has no result in '{}'", r.submission, out_dir));
    try {
      grading::bind_review(r, line->second);
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
    if (const std::string problem = grading::review_problem(r); !problem.empty())
      throw UsageError(fmt::format("{}:{}: {}", r.submission, r.criterion, problem));
  }
  grading::append_reviews(grading::reviews_path(out_dir), reviews);
  for (const grading::Review& r : reviews)
    fmt::print("{}:{}: {} (the tool said {})\n", report::display_text(r.submission), report::display_text(r.criterion),
               grading::grader_verdict_name(r.verdict), r.tool_verdict);
}

int list(const std::string& out_dir) {
  const auto lines = grading::load_result_lines(out_dir);
  const grading::LoadedReviews loaded = grading::load_reviews(grading::reviews_path(out_dir));
  if (loaded.dropped) fmt::print(stderr, "{} unreadable line(s) of reviews.jsonl skipped\n", loaded.dropped);
  for (const auto& [where, r] : grading::latest_reviews(loaded.history)) {
    const auto line = lines.find(r.submission);
    const bool stale = line == lines.end() || grading::is_stale(r, line->second);
    fmt::print("{}:{}: {} by {} at {} (the tool said {}){}{}\n", report::display_text(r.submission),
               report::display_text(r.criterion), grading::grader_verdict_name(r.verdict),
               report::display_text(r.reviewer), report::display_text(r.time), report::display_text(r.tool_verdict),
               stale ? " — stale: made against another rubric or submission content, not applied" : "",
               r.justification.empty() ? "" : ": " + report::display_text(r.justification));
  }
  return 0;
}

// The reviews in force, by submission and criterion.
std::map<std::string, std::map<std::string, grading::Review>> reviews_by_submission(const std::string& out_dir) {
  std::map<std::string, std::map<std::string, grading::Review>> by;
  for (const auto& [where, r] : grading::latest_reviews(grading::load_reviews(grading::reviews_path(out_dir)).history))
    by[where.first][where.second] = r;
  return by;
}

// A file name for a submission's record: its place in path order (names stay distinct) and its
// folder's name with anything but letters, digits, '.', '-' and '_' replaced.
std::string record_name(std::size_t index, const std::string& submission) {
  std::string base = std::filesystem::path(submission).filename().string();
  if (base.empty() || base == "." || base == "..") base = "submission";
  for (char& c : base)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return fmt::format("{:04d}-{}", index, base.substr(0, 80));
}

// One grading record per submission, Markdown and HTML, through the reports' printers.
int export_records(const std::string& out_dir, const std::string& dir) {
  const auto lines = grading::load_result_lines(out_dir);
  const auto reviews = reviews_by_submission(out_dir);
  std::filesystem::create_directories(dir);
  std::size_t index = 0, reviewed = 0;
  for (const auto& [submission, line] : lines) {
    const auto in_force = reviews.find(submission);
    const json::Value final_line =
        in_force == reviews.end() ? line : grading::reviewed_line(line, in_force->second);
    if (in_force != reviews.end()) ++reviewed;
    const Report record = grading::report_of_line(final_line, "grading record: " + submission);
    const std::string name = record_name(index++, submission);
    write_file((std::filesystem::path(dir) / (name + ".md")).string(), report::format_markdown(record));
    write_file((std::filesystem::path(dir) / (name + ".html")).string(), report::format_html(record));
  }
  fmt::print("{} grading records ({} with reviews) written to {}\n", lines.size(), reviewed,
             report::display_text(dir));
  return 0;
}

int serve(const std::string& out_dir, const std::string& reviewer, bool blind, std::size_t sample, std::uint64_t seed,
          std::uint16_t port) {
  ReviewSite site;
  site.out_dir = out_dir;
  site.lines = grading::load_result_lines(out_dir);
  for (const auto& [submission, line] : site.lines) site.submissions.push_back(submission);
  site.queue = grading::review_queue(site.lines, sample, seed);
  site.blind = blind;
  site.reviewer = reviewer;
  return serve_reviews(site, port);
}

}  // namespace

int run_review(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::vector<std::string> sets;
  std::vector<std::string> imports;
  std::string why, reviewer, export_dir;
  bool list_only = false, blind = false;
  unsigned port = 0;
  std::size_t sample = 20;
  std::string seed_text = "1";
  po::options_description options("options");
  options.add_options()
      ("help,h", "show this help")
      ("set", po::value(&sets)->value_name("SUBMISSION:CRITERION=VERDICT")->composing(),
       "record a review: VERDICT is agree, PASS, FAIL or cannot-tell (repeatable)")
      ("why", po::value(&why)->value_name("TEXT"), "the justification of the --set reviews (required to overrule)")
      ("reviewer", po::value(&reviewer)->value_name("NAME"), "who reviews (default: the user's name)")
      ("import", po::value(&imports)->value_name("FILE.jsonl")->composing(),
       "record the reviews of a file, one JSON record a line as reviews.jsonl holds them (repeatable)")
      ("export", po::value(&export_dir)->value_name("DIR"), "write a grading record per submission to DIR (Markdown and HTML)")
      ("list", po::bool_switch(&list_only), "print the review in force for each reviewed criterion")
      ("port", po::value(&port)->value_name("N"), "the review page's port on 127.0.0.1 (default: a free one)")
      ("blind", po::bool_switch(&blind), "hide the tool's verdicts and evidence on a submission until yours are in")
      ("sample", po::value(&sample)->value_name("N"), "how many of the settled submissions the queue draws (default 20)")
      ("seed", po::value(&seed_text)->value_name("N"), "the sample's seed (default 1)");
  po::variables_map vm = parse_arguments(args, options, "out");
  if (vm.count("help")) {
    print_help("rubric review OUT [--port N] [--blind] [--sample N] [--seed N]\n"
               "       rubric review OUT [--set SUBMISSION:CRITERION=VERDICT --why TEXT] [--reviewer NAME] [--import FILE.jsonl] [--list]",
               "Serves the review page on 127.0.0.1 (the URL printed holds its token), or, with --set or\n"
               "--import, records reviews directly.\n"
               "Records graders' verdicts beside the tool's in OUT/reviews.jsonl (OUT: a `rubric grade` or\n"
               "`rubric merge` out folder). A review that overrules the tool needs a justification. Records\n"
               "are only appended: a later review of a criterion supersedes the earlier one.",
               options);
    return 0;
  }
  po::notify(vm);
  if (!vm.count("out")) throw UsageError("no out folder given");
  const auto outs = vm["out"].as<std::vector<std::string>>();
  if (outs.size() != 1) throw UsageError("give one out folder");
  const std::string& out_dir = outs.front();
  if (list_only) return list(out_dir);
  if (!export_dir.empty()) return export_records(out_dir, export_dir);
  if (!why.empty() && sets.empty()) throw UsageError("--why goes with --set");
  if (port > 65535) throw UsageError(fmt::format("--port {} is not a port", port));
  if (reviewer.empty()) reviewer = default_reviewer();
  if (sets.empty() && imports.empty())
    return serve(out_dir, reviewer, blind, sample, parse_seed_option(seed_text), static_cast<std::uint16_t>(port));

  std::vector<grading::Review> reviews;
  for (const std::string& set : sets) {
    grading::Review r = review_from_set(set);
    r.justification = why;
    reviews.push_back(std::move(r));
  }
  for (const std::string& file : imports)
    for (grading::Review& r : reviews_from_file(file)) reviews.push_back(std::move(r));
  const std::string now = grading::utc_now();
  for (grading::Review& r : reviews) {
    if (r.reviewer.empty()) r.reviewer = reviewer;
    if (r.time.empty()) r.time = now;
  }
  record(out_dir, std::move(reviews));
  return 0;
}

}  // namespace rubric::cli
