#pragma once
// `rubric merge DIR...`: shard outputs (each a grade --out folder) joined into one results.jsonl
// and summary.json. Idempotent; reports duplicates, conflicts and missing submissions or shards.
#include <optional>
#include <string>
#include <vector>


namespace rubric::grading {

struct MergeSettings {
  std::vector<std::string> dirs;   // grade --out folders
  std::string out_dir;             // may be one of `dirs`
  std::optional<std::vector<std::string>> expected;  // the whole corpus, when known
  bool quiet = false;
  bool json = false;
  bool html = false;  // print the corpus page instead of the table
  bool no_color = false;
};

// What merging found, for `rubric merge` and the Slurm path.
struct MergeOutcome {
  std::size_t submissions = 0;
  std::size_t errors = 0;              // ERROR lines
  std::size_t duplicates = 0;          // the same result in more than one folder (kept once)
  std::vector<std::string> conflicts;  // the same submission with different results
  std::vector<std::string> missing;    // expected submissions with no result
  std::vector<std::string> problems;   // missing shards, unfinished folders, mixed rubrics
  bool written = false;
};

// Merges and writes; prints nothing. What is asked for comes back: summary.json's text, the table,
// and the corpus page.
MergeOutcome merge_results(const MergeSettings& settings, std::string* summary_json, std::string* table,
                           std::string* html_page = nullptr);

// merge_results, then prints the table (or summary.json with json) and what went wrong on stderr.
// Exit 0 when every submission has a verdict and nothing is missing or in conflict, else 2.
int merge(const MergeSettings& settings);

}  // namespace rubric::grading
