#pragma once
// `rubric grade`: a corpus of submissions graded by one rubric, resumable and in parallel, into
// an out folder holding results.jsonl and summary.json (docs/grading.md).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "grading/shard.hpp"
#include "operators/judge/judge_settings.hpp"

namespace rubric::grading {

struct GradeSettings {
  std::string rubric;
  std::vector<std::string> submissions;  // as given, --submissions-from included
  std::string reference;                 // "" : the rubric's folder
  std::string out_dir = "rubric-results";
  unsigned jobs = 0;                     // 0: the CPUs this process may run on
  std::optional<Shard> shard;
  std::map<std::string, std::string> set_params;
  std::vector<std::string> include_dirs;
  std::optional<std::uint64_t> seed;
  bool retry_errors = false;  // re-grade only what last ERRORed, keep the rest as is
  bool regrade = false;       // ignore earlier results
  double timeout_seconds = 0; // per submission; 0: none
  bool quiet = false;
  bool json = false;          // print summary.json instead of the table
  bool html = false;          // print the corpus page (report/corpus_html.hpp) instead of the table
  bool no_color = false;
  std::string tool_version;
  // The judge's options as given; the cache defaults to <out>/judge-cache.jsonl.
  judge::JudgeSettings judge;
};

// Exit status: 0 when every submission received a verdict (PASS, FAIL or INCOMPLETE), 2 when any
// ERRORed or could not be graded, or the rubric does not load; 130 when interrupted.
int grade(const GradeSettings& settings);

// The CPUs this process may run on (its affinity mask), at least 1.
unsigned available_cpus();

// Reads one submission path a line ("-": standard input); blank lines are skipped.
std::vector<std::string> read_submission_list(const std::string& file);

}  // namespace rubric::grading
