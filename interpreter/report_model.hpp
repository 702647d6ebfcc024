#pragma once
// What `rubric check` found: verdicts, evidence and provenance. The evaluator fills it (by the
// rules of verdicts.hpp); report/ prints it (text, JSON, JUnit, Markdown, HTML). Plain data, no
// language types: its own library, rubric_report_model, so neither stage links the other.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "grammar/diagnostic.hpp"

namespace rubric {

// Ordered from best to worst for a criterion's "worst of its checks" (language.md §10):
// PASS < SKIP < INCONCLUSIVE < FAIL < ERROR.
enum class Verdict { pass, skip, inconclusive, fail, error };
const char* verdict_name(Verdict v);  // "PASS", "SKIP", "INCONCLUSIVE", "FAIL", "ERROR"
Verdict worst(Verdict a, Verdict b);

// The rubric as a whole (§10): exit codes 0 PASS, 1 FAIL, 2 ERROR, 3 INCOMPLETE.
enum class OverallVerdict { pass, fail, error, incomplete };
const char* overall_verdict_name(OverallVerdict v);
int exit_code(OverallVerdict v);

// Who is at fault when a check could not be decided normally.
enum class Blame { none, submission, rubric, grader_environment };

struct SourceLocation {
  std::string file;  // as given on the command line / module path
  std::uint32_t line = 0, column = 0;
  // An error raised inside the standard library is placed at the rubric's call into it; this is
  // where in the library it arose ("std/ncu.rubric:22:26"), empty otherwise.
  std::string raised_in;
  bool known() const { return line > 0; }
};
// How a message places an error: "task.rubric:17:10", "task.rubric:17:10; raised in
// std/ncu.rubric:22:26"; empty when unknown.
std::string error_location_text(const SourceLocation& l);

// The numbers behind a picture of a check. The HTML report draws them; the other formats leave
// them out (their evidence lines already say the same in words).

// A statistical comparison of samples: every side's samples, and the decided quantity's interval
// against the bound.
struct SampleSeries {
  std::string label;           // the leaf's description ("bench: 10 runs of ./serve")
  std::vector<double> values;  // in base units
};
struct SamplePlot {
  std::string unit;                  // base unit of the series ("s", "tok/s"); "" dimensionless
  std::vector<SampleSeries> series;
  std::string quantity;              // what was decided ("t0 / t")
  std::string quantity_unit;         // its base unit
  double estimate = 0, lo = 0, hi = 0;  // median and confidence interval of the quantity
  double bound = 0;
  bool at_least = true;              // the passing side is >= bound (else <=)
};

// Where the mismatches of a tensor comparison lie: the tensor viewed as rows × cols (its last
// dimension as columns; a 1-D tensor folded into a square), counted in a coarse grid of cells.
struct MismatchMap {
  std::uint64_t rows = 0, cols = 0;
  std::uint32_t grid_rows = 0, grid_cols = 0;
  std::vector<std::uint64_t> mismatches;  // per cell, row-major
  std::vector<std::uint64_t> elements;    // elements per cell
};

// One `expect` (or one iteration of it inside `for`, or inside a `check` def).
struct CheckResult {
  std::string source_text;  // the condition exactly as written
  SourceLocation location;
  std::string label;        // "shape = [1, 4096]" inside for; "no_regression(a, b)" from a check def; else empty
  Verdict verdict = Verdict::pass;
  Blame blame = Blame::none;
  std::vector<std::string> evidence;  // decomposed operands, one line each ("11234.5 tok/s >= 11780 tok/s ...")
  std::string explanation;            // one line: why it passed/failed ("4.6% short"), or the error
  std::string message;                // the `else "..."` message when it failed, interpolated
  // Marked for review: the verdict (kept) rests on an ambiguous reading of the prose ("a question";
  // docs/text.md); empty when every reading it rests on was clear.
  std::string review;
  double seconds = 0;                 // time spent evaluating it
  std::optional<SamplePlot> samples;       // when decided statistically over samples
  std::optional<MismatchMap> mismatch_map; // when a tensor comparison failed
};

struct CriterionResult {
  std::string id;
  std::string title;  // interpolated
  SourceLocation location;
  bool is_group = false;
  Verdict verdict = Verdict::pass;
  std::optional<double> score;  // null when left out of the score (ERROR, SKIP, INCONCLUSIVE) or undecided
  double weight = 1;
  std::optional<double> penalty;  // set for a penalty criterion
  // A penalty is taken only when one of its checks decided against the submission: never when it
  // was not evaluated (`after`) or its measurement could not be computed (docs/semantics.md).
  bool deducted = false;
  bool required = false;
  std::vector<std::string> after;
  std::vector<std::string> needs;
  std::string reason;              // why skipped / not evaluated / errored, when not from a single check
  std::vector<std::string> notes;  // `note` lines, in order
  std::vector<CheckResult> checks;
  std::vector<CriterionResult> children;  // a group's criteria and groups
  double seconds = 0;
};

// Why a criterion is marked for review: the review reasons of its checks (CheckResult::review),
// "; "-joined, each once; "" when no verdict of its checks rests on an ambiguous reading. A group
// counts its own checks only.
std::string review_reason(const CriterionResult& c);

struct FileRecord {
  std::string path;   // relative to its root, e.g. "bench_32768.json"
  std::string root;   // "submission", "reference", "rubric" (rubric sources and modules)
  std::string digest;  // XXH3-128 of the bytes, 32 hex digits (operators/digest/content_digest.hpp)
  std::uint64_t bytes = 0;
};

// How a candidate program ran (per run, for the report's provenance).
struct RunRecord {
  std::string command;
  std::string isolation;  // "process group, rlimits, pid namespace, no network, scratch copy"
  double seconds = 0;
  int exit_code = 0;
};

struct Provenance {
  std::string tool_version;
  std::string rubric_file;
  std::string rubric_digest;
  std::string submission_dir;
  std::string reference_dir;
  std::uint64_t seed = 0;
  std::map<std::string, std::string> params;  // name → value as printed
  std::vector<FileRecord> files;              // every file read, hashed
  std::vector<RunRecord> runs;
  std::string started_at;  // ISO 8601 UTC
  double seconds = 0;      // wall time of the whole check
  std::map<std::string, std::string> device;  // device record as printed, when queried
  std::map<std::string, std::string> host;    // "name", "os", "kernel", "arch", "cpus" of the grading machine
  std::string compiler;                       // the compiler that built rubric: "GCC 14.2.0"
  std::map<std::string, std::string> cuda;    // "driver", "runtime" versions, when the device was queried
};

struct Report {
  std::string title;
  std::string version;
  std::map<std::string, std::string> metadata;  // other header fields, as printed
  double pass_mark = 1.0;
  double confidence = 0.95;
  OverallVerdict verdict = OverallVerdict::pass;
  std::optional<double> score;  // null when nothing was decided
  std::vector<CriterionResult> criteria;
  std::vector<Diagnostic> warnings;  // lint-style warnings met while checking
  Provenance provenance;
};

// Progress while checking, for a terminal; the CLI passes a sink that draws and stays quiet when piped.
struct ProgressSink {
  virtual ~ProgressSink() = default;
  // How many criteria this check will evaluate (for "[3/12]"); optional, called once before the first.
  virtual void rubric_started(std::size_t /*criterion_count*/) {}
  virtual void criterion_started(const std::string& id, const std::string& title) = 0;
  virtual void activity(const std::string& what) = 0;  // "bench: run 4/10", "time: 37 samples, cv 0.8%"
  virtual void criterion_finished(const CriterionResult& r) = 0;
};

}  // namespace rubric
