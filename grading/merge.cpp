#include "grading/merge.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <unistd.h>

#include <fmt/format.h>

#include "grading/batch_summary.hpp"
#include "grading/review_store.hpp"
#include "grading/result_line.hpp"
#include "grading/results_file.hpp"
#include "grading/shard.hpp"
#include "operators/json/json_reader.hpp"
#include "report/terminal_style.hpp"

namespace rubric::grading {
namespace {

namespace fs = std::filesystem;

std::string str(const json::Value* v) { return v && v->is_string() ? v->as_string() : std::string(); }
std::size_t num(const json::Value* v) { return v && v->is_number() ? static_cast<std::size_t>(v->as_number()) : 0; }

struct Chosen {
  std::size_t source;
  const StoredResult* result;
};

}  // namespace

MergeOutcome merge_results(const MergeSettings& s, std::string* summary_json, std::string* table,
                          std::string* html_page) {
  MergeOutcome outcome;
  std::vector<std::string> sources;
  std::vector<LoadedResults> loaded;
  BatchProvenance prov;
  bool have_provenance = false;
  std::map<std::uint32_t, std::set<std::uint32_t>> shards_seen;  // count → indices
  std::set<std::string> keys_seen;  // rubric|params|tool of every line

  for (const std::string& dir : s.dirs) {
    const std::string results = (fs::path(dir) / "results.jsonl").string();
    std::error_code ec;
    if (!fs::exists(results, ec)) {
      outcome.problems.push_back(fmt::format("'{}' holds no results.jsonl", dir));
      continue;
    }
    sources.push_back(results);
    loaded.push_back(load_results(results));
    const std::string summary_path = (fs::path(dir) / "summary.json").string();
    if (!fs::exists(summary_path, ec)) {
      outcome.problems.push_back(fmt::format("'{}' has no summary.json: the grade writing it did not finish", dir));
      continue;
    }
    try {
      const json::Value summary = json::read_file(summary_path);
      const json::Value* p = summary.find("provenance");
      if (!p) throw std::runtime_error("no provenance");
      prov.graded += num(summary.find("graded"));
      prov.reused += num(summary.find("reused"));
      const std::string shard = str(p->find("shard"));
      if (!shard.empty()) {
        const Shard sh = parse_shard(shard);
        shards_seen[sh.count].insert(sh.index);
      }
      if (!have_provenance) {
        have_provenance = true;
        prov.tool_version = str(p->find("tool_version"));
        prov.reference_dir = str(p->find("reference_dir"));
        prov.started_at = str(p->find("started_at"));
        if (const json::Value* r = p->find("rubric")) {
          prov.rubric_file = str(r->find("file"));
          prov.rubric_sha256 = str(r->find("sha256"));
          if (const json::Value* src = r->find("sources"); src && src->is_array())
            for (const json::Value& f : src->as_array()) prov.sources.emplace_back(str(f.find("path")), str(f.find("xxh3_128")));
        }
        if (const json::Value* params = p->find("params"); params && params->is_object())
          for (const auto& [k, v] : params->as_object()) prov.set_params[k] = v.is_string() ? v.as_string() : "";
        if (const json::Value* seed = p->find("seed"); seed && seed->is_number())
          prov.seed = static_cast<std::uint64_t>(seed->as_number());
        if (const json::Value* inc = p->find("include_dirs"); inc && inc->is_array())
          for (const json::Value& d : inc->as_array()) prov.include_dirs.push_back(str(&d));
      } else {
        const std::string started = str(p->find("started_at"));
        if (!started.empty() && (prov.started_at.empty() || started < prov.started_at)) prov.started_at = started;
      }
    } catch (const std::exception& e) {
      outcome.problems.push_back(fmt::format("'{}' cannot be read: {}", summary_path, e.what()));
    }
  }
  for (const auto& [count, indices] : shards_seen)
    for (std::uint32_t i = 1; i <= count; ++i)
      if (!indices.count(i)) outcome.problems.push_back(fmt::format("shard {}/{} is missing", i, count));

  // Union by normalized path; the first folder given wins a tie.
  std::map<std::string, Chosen> chosen;
  for (std::size_t d = 0; d < loaded.size(); ++d)
    for (const auto& [sub, r] : loaded[d].latest) {
      keys_seen.insert(r.run->rubric_sha256 + "|" + r.run->params_sha256 + "|" + r.run->tool_version);
      const std::string norm = normalized_submission_path(sub);
      auto [it, inserted] = chosen.emplace(norm, Chosen{d, &r});
      if (inserted) continue;
      const StoredResult& first = *it->second.result;
      if (first.key() == r.key() && first.verdict == r.verdict && !first.submission_sha256.empty()) ++outcome.duplicates;
      else
        outcome.conflicts.push_back(fmt::format("{}: {} in '{}', {} in '{}'", sub, first.verdict,
                                                sources[it->second.source], r.verdict, sources[d]));
    }
  if (keys_seen.size() > 1)
    outcome.problems.push_back(
        "the folders were graded with different rubrics, parameters or tool versions; their results do not belong in one "
        "summary");
  if (s.expected) {
    std::set<std::string> expected;
    for (const std::string& e : *s.expected) {
      const std::string norm = normalized_submission_path(e);
      if (expected.insert(norm).second && !chosen.count(norm)) outcome.missing.push_back(e);
    }
  }

  std::vector<LineSpan> spans;
  for (const auto& [norm, c] : chosen) spans.push_back(LineSpan{c.source, c.result->offset, c.result->length});
  std::error_code ec;
  fs::create_directories(s.out_dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create '{}': {}", s.out_dir, ec.message()));
  const std::string out_results = (fs::path(s.out_dir) / "results.jsonl").string();

  // The graders' reviews of every merged folder and of the out folder, oldest first.
  std::vector<Review> reviews;
  std::vector<std::string> review_dirs = s.dirs;
  review_dirs.push_back(s.out_dir);
  std::set<std::string> read_dirs;
  for (const std::string& dir : review_dirs) {
    if (!read_dirs.insert(fs::weakly_canonical(dir, ec).string()).second) continue;
    for (Review& r : load_reviews(reviews_path(dir)).history) reviews.push_back(std::move(r));
  }
  std::stable_sort(reviews.begin(), reviews.end(), [](const Review& a, const Review& b) { return a.time < b.time; });
  // The summary reads each line as the rewrite copies it: the merged file is not read again.
  BatchSummary summary;
  summary.use_reviews(reviews);
  std::size_t line_number = 0;
  rewrite_lines(sources, spans, out_results, [&](std::string_view line) {
    summary.add_text(line, fmt::format("{}:{}", out_results, ++line_number));
  });
  outcome.written = true;
  outcome.submissions = summary.submissions();
  outcome.errors = summary.count("ERROR");
  prov.finished_at = utc_now();
  const std::string text = summary.to_json(prov);
  write_file_atomically((fs::path(s.out_dir) / "summary.json").string(), text);
  if (summary_json) *summary_json = text;
  if (html_page) summary.write_html(prov, [&](std::string_view piece) { *html_page += piece; });
  if (table) *table = summary.to_text(prov, s.out_dir, report::colour_wanted(STDOUT_FILENO, s.no_color));
  return outcome;
}

int merge(const MergeSettings& s) {
  std::string summary_json, table, page;
  const MergeOutcome o = merge_results(s, &summary_json, &table, s.html ? &page : nullptr);
  if (s.json) fmt::print("{}", summary_json);
  else if (s.html) fmt::print("{}", page);
  else if (!s.quiet) fmt::print("{}", table);
  std::fflush(stdout);
  for (const std::string& p : o.problems) fmt::print(stderr, "rubric merge: {}\n", p);
  if (o.duplicates > 0)
    fmt::print(stderr, "rubric merge: {} submission{} appeared in more than one folder with the same result (kept once)\n",
               o.duplicates, o.duplicates == 1 ? "" : "s");
  for (const std::string& c : o.conflicts) fmt::print(stderr, "rubric merge: conflicting results for {} (the first kept)\n", c);
  if (!o.missing.empty()) {
    fmt::print(stderr, "rubric merge: {} submission{} have no result:\n", o.missing.size(), o.missing.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < o.missing.size() && i < 20; ++i) fmt::print(stderr, "  {}\n", o.missing[i]);
    if (o.missing.size() > 20) fmt::print(stderr, "  ... and {} more\n", o.missing.size() - 20);
  }
  const bool clean = o.errors == 0 && o.missing.empty() && o.conflicts.empty() && o.problems.empty();
  return clean ? 0 : 2;
}

}  // namespace rubric::grading
