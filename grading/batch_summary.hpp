#pragma once
// summary.json and the table printed at the end of `rubric grade`/`rubric merge`, built from
// result lines one at a time: counts, the scores by value and a few slowest in memory, the
// per-submission rows in a file (grading/row_spool.hpp), so memory does not grow with the corpus.
#include <array>
#include <functional>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grading/review_agreement.hpp"
#include "grading/review_store.hpp"
#include "grading/row_spool.hpp"
#include "operators/json/json_value.hpp"

namespace rubric::grading {

// What summary.json says about the run besides the lines: the rubric's provenance and settings.
struct BatchProvenance {
  std::string tool_version;
  std::string rubric_file;
  std::string rubric_sha256;  // the key's rubric hash (rubric and modules)
  std::vector<std::pair<std::string, std::string>> sources;  // rubric files and modules: path, XXH3-128 digest
  std::string reference_dir;
  std::map<std::string, std::string> set_params;
  std::optional<std::uint64_t> seed;
  std::vector<std::string> include_dirs;
  std::string shard;  // "2/4", or "" for the whole corpus
  std::string started_at;
  std::string finished_at;
  double seconds = 0;
  std::size_t graded = 0;  // graded in this run
  std::size_t reused = 0;  // taken from the cache
  std::size_t jobs = 0;
};

class BatchSummary {
 public:
  // The graders' reviews (OUT/reviews.jsonl, in file order): each line added afterwards counts
  // with the verdicts the reviews in force give it (grading/reviewed_results.hpp), and the
  // criteria get agreement figures. Call before adding lines.
  void use_reviews(const std::vector<Review>& history);
  // Adds one result line (parsed). Lines lacking the fields a summary counts are counted as ERROR.
  void add(const json::Value& line);
  // Adds one line of a results.jsonl as text; `where` names it ("results.jsonl:12"). An
  // unparsable line (torn, or foreign) is skipped.
  void add_text(std::string_view line, const std::string& where);

  std::size_t submissions() const { return submissions_; }
  std::size_t count(const std::string& verdict) const;  // "PASS", "FAIL", "ERROR", "INCOMPLETE"

  // summary.json as text, and the same document as a value (the corpus page is rendered from it).
  std::string to_json(const BatchProvenance& p) const;
  // summary.json handed to `out` piece by piece as it is written: the whole text is never held.
  void write_json(const BatchProvenance& p, const std::function<void(std::string_view)>& out) const;
  json::Value to_value(const BatchProvenance& p) const;
  // The corpus page (report/corpus_html.hpp) handed to `out` piece by piece, its rows read from
  // the spool: like summary.json, the page is never held whole.
  void write_html(const BatchProvenance& p, const std::function<void(std::string_view)>& out) const;
  // Submissions listed per criterion marked for review (the count covers them all).
  static constexpr std::size_t kReviewListed = 100;
  // The end-of-run table; `colour` paints verdicts and makes ERRORs stand out.
  std::string to_text(const BatchProvenance& p, const std::string& out_dir, bool colour) const;

 private:
  struct CriterionCounts {
    std::string id;
    std::string title;
    std::string kind;
    int depth = 0;  // inside how many groups
    std::array<std::size_t, 5> counts{};  // PASS, FAIL, ERROR, SKIP, INCONCLUSIVE
    std::size_t review = 0;                // verdicts marked for review (resting on an ambiguous reading)
    std::vector<std::string> review_submissions;  // the first kReviewListed of them
    std::size_t total() const;
    // Why it first FAILed, while every FAIL so far gave the same reason (by its first clause): a
    // criterion that FAILs every submission for one reason is most likely the rubric's mistake
    // (a mistyped key or kernel).
    std::optional<std::string> fail_reason;
    bool fail_reasons_differ = false;
    // The reason when it FAILed every submission (at least two) for that one reason.
    std::optional<std::string> common_failure(std::size_t submissions) const;
  };
  // Writes summary.json through `w` (report::JsonWriter or json::ValueBuilder); `spill` is called
  // between rows of the long lists, where a streaming caller takes what was written so far.
  // `rows` false leaves out the lists that grow with the corpus (errors, submission_list).
  template <class Sink, class Spill>
  void write(Sink& w, const BatchProvenance& p, Spill spill, bool rows = true) const;
  // The k-th smallest score (0-based) and the quantile by numpy's default interpolation.
  double nth_score(std::size_t k) const;
  double score_quantile(double q) const;
  double score_sum() const;  // added in ascending order, one by one, as a sorted list would be
  void add_criteria(const json::Value& criteria, int depth, const std::string& submission);
  void add_agreement(const json::Value& line, const std::map<std::string, Review>& in_force);

  std::map<std::string, std::map<std::string, Review>> reviews_;  // submission → criterion → review in force
  std::map<std::string, CriterionAgreement> agreement_;            // by criterion id
  struct Overrule {
    std::string submission, criterion, tool_verdict, verdict, reviewer, justification;
  };
  std::vector<Overrule> overrules_;
  std::size_t changed_verdicts_ = 0;  // submissions whose verdict the reviews changed

  std::size_t submissions_ = 0;
  std::map<std::string, std::size_t> verdicts_;
  std::vector<CriterionCounts> criteria_;
  std::map<std::string, std::size_t> criterion_index_;
  std::map<double, std::size_t> scores_;  // score → how many submissions (not ERRORed) have it
  std::size_t scored_ = 0;
  struct Slow {
    double seconds;
    std::string submission, verdict;
  };
  std::vector<Slow> slowest_;  // at most kSlowest
  // Submissions whose prose orders whoever grades it (interpreter/addressed_reader.hpp).
  std::size_t addressed_reader_ = 0;
  std::vector<std::string> addressed_reader_submissions_;  // the first kReviewListed of them
  // In the order added; the ERRORs listed in summary.json are the rows with that verdict.
  RowSpool rows_;
};

}  // namespace rubric::grading
