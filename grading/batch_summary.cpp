#include "grading/batch_summary.hpp"

#include "report/corpus_html.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "grading/reviewed_results.hpp"
#include "grading/result_line.hpp"
#include "operators/json/json_reader.hpp"
#include "report/corpus_html.hpp"
#include "report/display_text.hpp"
#include "operators/json/json_builder.hpp"
#include "report/json_writer.hpp"
#include "report/number_format.hpp"
#include "report/terminal_style.hpp"

namespace rubric::grading {
namespace {

constexpr std::size_t kSlowest = 10;
constexpr std::size_t kHistogramBins = 10;
constexpr std::size_t kErrorsShown = 20;  // reasons in the table; summary.json lists every ERROR
constexpr std::size_t kNamesPerError = 5;  // submissions named under one ERROR reason
constexpr std::size_t kRowsShown = 50;     // rows of the per-submission list in the table
constexpr std::array<const char*, 5> kCriterionVerdicts = {"PASS", "FAIL", "ERROR", "SKIP", "INCONCLUSIVE"};
constexpr std::array<const char*, 4> kOverallVerdicts = {"PASS", "FAIL", "INCOMPLETE", "ERROR"};

std::string string_or(const json::Value& v, const char* key, const std::string& fallback) {
  const json::Value* f = v.find(key);
  return f && f->is_string() ? f->as_string() : fallback;
}

// A reason's first clause, without the suggestions and listings that depend on the submission's data.
std::string_view first_clause(std::string_view reason) {
  return reason.substr(0, std::min(reason.find("; "), reason.find(" (did you mean")));
}

// The first leaf criterion (groups descended into) with `verdict`, depth-first in report order.
const json::Value* first_with(const json::Value& criteria, const std::string& verdict) {
  if (!criteria.is_array()) return nullptr;
  for (const json::Value& c : criteria.as_array()) {
    if (!c.is_object()) continue;
    if (const json::Value* children = c.find("criteria")) {
      if (const json::Value* found = first_with(*children, verdict)) return found;
      continue;
    }
    if (string_or(c, "verdict", "") == verdict) return &c;
  }
  return nullptr;
}

// Why a criterion got its verdict: its own reason (not evaluated, skipped), else its first check
// with that verdict (the `else` message where one was shown, else the explanation).
std::string criterion_reason(const json::Value& c) {
  const std::string verdict = string_or(c, "verdict", "");
  std::string reason = string_or(c, "reason", "");
  if (!reason.empty()) return reason;
  if (const json::Value* checks = c.find("checks"); checks && checks->is_array())
    for (const json::Value& check : checks->as_array()) {
      if (!check.is_object() || string_or(check, "verdict", "") != verdict) continue;
      std::string message = string_or(check, "message", "");
      return message.empty() ? string_or(check, "explanation", "") : message;
    }
  return "";
}

// The reason a submission got its verdict, in one line: the rubric's reason, then for anything
// but a PASS the first criterion behind it and why ("score 40% is below the pass mark 70% · first
// FAIL: speed: no key 'triton_msec' ...").
std::string deciding_reason(const json::Value& line, const std::string& verdict) {
  const std::string overall = string_or(line, "reason", "");
  const json::Value* criteria = line.find("criteria");
  const std::string wanted = verdict == "INCOMPLETE" ? "SKIP" : verdict;
  const json::Value* c = criteria ? first_with(*criteria, wanted) : nullptr;
  if (!c && verdict == "INCOMPLETE" && criteria) c = first_with(*criteria, "INCONCLUSIVE");
  if (verdict == "PASS" || !c) return overall;
  const std::string why = criterion_reason(*c);
  return fmt::format("{} · first {}: {}{}", overall, string_or(*c, "verdict", ""), string_or(*c, "id", "?"),
                     why.empty() ? "" : ": " + why);
}

// The first ten submissions of a list, and how many more there are: "a, b ... and 3 more
// (summary.json lists 13)", shown as the terminal shows text from a submission.
std::string first_ten(const std::vector<std::string>& listed, std::size_t count, std::size_t kept) {
  return report::display_text(fmt::format("{}", fmt::join(listed.begin(), listed.begin() + std::min<std::size_t>(listed.size(), 10), ", "))) +
         (count > 10 ? fmt::format(" ... and {} more (summary.json lists {})", count - 10, std::min(count, kept)) : "");
}

}  // namespace

std::optional<std::string> BatchSummary::CriterionCounts::common_failure(std::size_t submissions) const {
  if (submissions < 2 || counts[1] != submissions || fail_reasons_differ || !fail_reason || fail_reason->empty())
    return std::nullopt;
  return fail_reason;
}

std::size_t BatchSummary::CriterionCounts::total() const {
  std::size_t t = 0;
  for (std::size_t c : counts) t += c;
  return t;
}

double BatchSummary::nth_score(std::size_t k) const {
  for (const auto& [score, n] : scores_) {
    if (k < n) return score;
    k -= n;
  }
  return scores_.rbegin()->first;
}

double BatchSummary::score_sum() const {
  double sum = 0;
  for (const auto& [score, n] : scores_)
    for (std::size_t i = 0; i < n; ++i) sum += score;
  return sum;
}

// Quantile by linear interpolation between order statistics (numpy's default).
double BatchSummary::score_quantile(double q) const {
  if (scored_ == 1) return nth_score(0);
  const double pos = q * static_cast<double>(scored_ - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, scored_ - 1);
  const double a = nth_score(lo), b = nth_score(hi);
  return a + (b - a) * (pos - static_cast<double>(lo));
}

std::size_t BatchSummary::count(const std::string& verdict) const {
  auto it = verdicts_.find(verdict);
  return it == verdicts_.end() ? 0 : it->second;
}

void BatchSummary::add_criteria(const json::Value& criteria, int depth, const std::string& submission) {
  if (!criteria.is_array()) return;
  for (const json::Value& c : criteria.as_array()) {
    if (!c.is_object()) continue;
    const std::string id = string_or(c, "id", "?");
    auto [it, inserted] = criterion_index_.emplace(id, criteria_.size());
    if (inserted) {
      CriterionCounts counts;
      counts.id = id;
      counts.title = string_or(c, "title", "");
      counts.kind = string_or(c, "kind", "criterion");
      counts.depth = depth;
      criteria_.push_back(std::move(counts));
    }
    const std::string verdict = string_or(c, "verdict", "ERROR");
    CriterionCounts& counts = criteria_[it->second];
    for (std::size_t i = 0; i < kCriterionVerdicts.size(); ++i)
      if (verdict == kCriterionVerdicts[i]) ++counts.counts[i];
    if (!string_or(c, "review", "").empty()) {
      ++counts.review;
      if (counts.review_submissions.size() < kReviewListed) counts.review_submissions.push_back(submission);
    }
    if (verdict == "FAIL" && !counts.fail_reasons_differ) {
      // Compared by their first clause: "no key 'triton_msec' in submission/bench.json" is one
      // reason whatever keys each file lists after it, or suggests.
      const std::string reason = criterion_reason(c);
      if (!counts.fail_reason) counts.fail_reason = reason;
      else if (first_clause(*counts.fail_reason) != first_clause(reason)) counts.fail_reasons_differ = true;
    }
    if (const json::Value* children = c.find("criteria")) add_criteria(*children, depth + 1, submission);
  }
}

void BatchSummary::use_reviews(const std::vector<Review>& history) {
  for (const auto& [where, review] : latest_reviews(history)) reviews_[where.first][where.second] = review;
}

void BatchSummary::add_agreement(const json::Value& line, const std::map<std::string, Review>& in_force) {
  for (const auto& [id, review] : in_force) {
    const json::Value* criterion = find_criterion(line, id);
    if (!criterion) continue;
    CriterionAgreement& a = agreement_[id];
    const auto final_verdict = review.final_verdict();
    if (is_stale(review, line)) ++a.stale;
    else if (!final_verdict) ++a.cannot_tell;
    else {
      const std::string tool = string_or(*criterion, "verdict", "ERROR");
      ++a.reviewed;
      ++a.confusion[{tool, *final_verdict}];
      if (tool == *final_verdict) ++a.agreed;
      if (review.overrules()) {
        ++a.overruled;
        overrules_.push_back(Overrule{review.submission, id, tool, *final_verdict, review.reviewer, review.justification});
      }
    }
  }
}

void BatchSummary::add(const json::Value& tool_line) {
  const auto reviewed = reviews_.find(string_or(tool_line, "submission", ""));
  json::Value after_review;
  if (reviewed != reviews_.end()) {
    add_agreement(tool_line, reviewed->second);
    after_review = reviewed_line(tool_line, reviewed->second);
    if (after_review.find("tool_verdict") && string_or(after_review, "verdict", "") != string_or(tool_line, "verdict", ""))
      ++changed_verdicts_;
  }
  const json::Value& line = reviewed != reviews_.end() ? after_review : tool_line;
  ++submissions_;
  const std::string submission = string_or(line, "submission", "?");
  std::string verdict = string_or(line, "verdict", "ERROR");
  if (std::find(kOverallVerdicts.begin(), kOverallVerdicts.end(), verdict) == kOverallVerdicts.end()) verdict = "ERROR";
  ++verdicts_[verdict];
  const std::string reason = deciding_reason(line, verdict);
  // An ERRORed submission's score says nothing about the submission: it stays out of the distribution.
  std::optional<double> score;
  if (const json::Value* s = line.find("score"); s && s->is_number()) score = s->as_number();
  if (score && verdict != "ERROR") {
    ++scores_[*score];
    ++scored_;
  }
  rows_.append(SubmissionRow{submission, verdict, score, reason});
  if (orders_grader(line) && addressed_reader_++ < kReviewListed) addressed_reader_submissions_.push_back(submission);
  if (const json::Value* c = line.find("criteria")) add_criteria(*c, 0, submission);
  if (const json::Value* s = line.find("seconds"); s && s->is_number()) {
    // Each entry carries its own verdict: two submissions may share a name as shown.
    slowest_.push_back(Slow{s->as_number(), submission, verdict});
    std::sort(slowest_.begin(), slowest_.end(), [](const Slow& a, const Slow& b) {
      return a.seconds != b.seconds ? a.seconds > b.seconds : a.submission < b.submission;
    });
    if (slowest_.size() > kSlowest) slowest_.pop_back();
  }
}

void BatchSummary::add_text(std::string_view line, const std::string& where) {
  json::Value parsed;
  try {
    parsed = json::parse(line, where);
  } catch (const std::exception&) {
    return;  // a torn or foreign line: not a result
  }
  add(parsed);
}

template <class Sink, class Spill>
void BatchSummary::write(Sink& w, const BatchProvenance& p, Spill spill, bool rows) const {
  // {"count": n, "submissions": [the first ones]}
  auto counted = [&w](std::size_t count, const std::vector<std::string>& listed) {
    w.begin_object();
    w.field("count", static_cast<std::uint64_t>(count));
    w.key("submissions");
    w.begin_array();
    for (const std::string& s : listed) w.value(s);
    w.end_array();
    w.end_object();
  };
  w.begin_object();
  w.field("schema", 1);
  w.field("submissions", static_cast<std::uint64_t>(submissions_));
  w.field("graded", static_cast<std::uint64_t>(p.graded));
  w.field("reused", static_cast<std::uint64_t>(p.reused));
  w.key("verdicts");
  w.begin_object();
  for (const char* v : kOverallVerdicts) {
    w.field(v, static_cast<std::uint64_t>(count(v)));
  }
  w.end_object();
  w.key("criteria");
  w.begin_array();
  for (const CriterionCounts& c : criteria_) {
    w.begin_object();
    w.field("id", c.id);
    w.field("kind", c.kind);
    w.field("title", c.title);
    w.key("counts");
    w.begin_object();
    for (std::size_t i = 0; i < kCriterionVerdicts.size(); ++i) {
      w.field(kCriterionVerdicts[i], static_cast<std::uint64_t>(c.counts[i]));
    }
    w.end_object();
    // Verdicts that rest on an ambiguous reading of prose: how many, and the first submissions.
    w.key("review");
    counted(c.review, c.review_submissions);
    w.key("pass_rate");
    if (c.total() == 0) w.null();
    else w.value(static_cast<double>(c.counts[0]) / static_cast<double>(c.total()));
    if (c.kind != "group") {
      const auto found = agreement_.find(c.id);
      const CriterionAgreement a = found == agreement_.end() ? CriterionAgreement{} : found->second;
      w.key("agreement");
      w.begin_object();
      w.field("reviewed", static_cast<std::uint64_t>(a.reviewed));
      w.field("agreed", static_cast<std::uint64_t>(a.agreed));
      w.field("overruled", static_cast<std::uint64_t>(a.overruled));
      w.field("cannot_tell", static_cast<std::uint64_t>(a.cannot_tell));
      w.field("stale", static_cast<std::uint64_t>(a.stale));
      w.field("agreement_rate", a.agreement_rate());
      w.field("kappa", a.kappa());
      w.key("confusion");
      w.begin_array();
      for (const auto& [pair, count] : a.confusion) {
        w.begin_object();
        w.field("tool", pair.first);
        w.field("grader", pair.second);
        w.field("count", static_cast<std::uint64_t>(count));
        w.end_object();
      }
      w.end_array();
      w.end_object();
    }
    w.key("common_failure");
    if (auto why = c.common_failure(submissions_)) w.value(*why);
    else w.null();
    w.end_object();
  }
  w.end_array();
  // Submissions whose prose orders whoever grades it: each is worth reading whatever its verdicts.
  w.key("addressed_reader");
  counted(addressed_reader_, addressed_reader_submissions_);

  w.key("score");
  w.begin_object();
  w.field("count", static_cast<std::uint64_t>(scored_));
  auto stat = [&](const char* name, auto compute) {
    w.key(name);
    if (scored_ == 0) w.null();
    else w.value(static_cast<double>(compute()));
  };
  stat("mean", [&] { return score_sum() / static_cast<double>(scored_); });
  stat("min", [&] { return scores_.begin()->first; });
  stat("q1", [&] { return score_quantile(0.25); });
  stat("median", [&] { return score_quantile(0.5); });
  stat("q3", [&] { return score_quantile(0.75); });
  stat("max", [&] { return scores_.rbegin()->first; });
  w.key("histogram");
  w.begin_array();
  std::array<std::size_t, kHistogramBins> bins{};
  for (const auto& [s, n] : scores_) {
    const double clamped = std::clamp(s, 0.0, 1.0);
    bins[std::min(kHistogramBins - 1, static_cast<std::size_t>(clamped * kHistogramBins))] += n;
  }
  for (std::size_t i = 0; i < kHistogramBins; ++i) {
    w.begin_object();
    w.field("from", static_cast<double>(i) / kHistogramBins);
    w.field("to", static_cast<double>(i + 1) / kHistogramBins);
    w.field("count", static_cast<std::uint64_t>(bins[i]));
    w.end_object();
  }
  w.end_array();
  w.end_object();

  w.key("slowest");
  w.begin_array();
  for (const Slow& slow : slowest_) {
    w.begin_object();
    w.field("submission", slow.submission);
    w.field("seconds", slow.seconds);
    w.field("verdict", slow.verdict);
    w.end_object();
  }
  w.end_array();
  w.key("errors");
  w.begin_array();
  if (rows && count("ERROR") > 0)
    rows_.for_each([&](const SubmissionRow& row) {
      if (row.verdict != "ERROR") return true;
      w.begin_object();
      w.field("submission", row.submission);
      w.field("reason", row.reason.empty() ? std::string("no reason recorded") : row.reason);
      w.end_object();
      spill();
      return true;
    });
  w.end_array();
  w.key("submission_list");
  w.begin_array();
  if (rows) rows_.for_each([&](const SubmissionRow& row) {
    w.begin_object();
    w.field("submission", row.submission);
    w.field("verdict", row.verdict);
    w.field("score", row.score);
    w.field("reason", row.reason);
    w.end_object();
    spill();
    return true;
  });
  w.end_array();

  w.key("reviews");
  w.begin_object();
  w.field("changed_verdicts", static_cast<std::uint64_t>(changed_verdicts_));
  w.key("overrules");
  w.begin_array();
  for (const Overrule& o : overrules_) {
    w.begin_object();
    w.field("submission", o.submission);
    w.field("criterion", o.criterion);
    w.field("tool_verdict", o.tool_verdict);
    w.field("verdict", o.verdict);
    w.field("reviewer", o.reviewer);
    w.field("justification", o.justification);
    w.end_object();
  }
  w.end_array();
  w.end_object();

  w.key("provenance");
  w.begin_object();
  w.field("tool_version", p.tool_version);
  w.key("rubric");
  w.begin_object();
  w.field("file", p.rubric_file);
  w.field("sha256", p.rubric_sha256);
  w.key("sources");
  w.begin_array();
  for (const auto& [path, sha] : p.sources) {
    w.begin_object();
    w.field("path", path);
    w.field("xxh3_128", sha);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.field("reference_dir", p.reference_dir);
  w.key("params");
  w.begin_object();
  for (const auto& [k, v] : p.set_params) {
    w.field(k, v);
  }
  w.end_object();
  w.key("seed");
  if (p.seed) w.value(*p.seed);
  else w.null();
  w.key("include_dirs");
  w.begin_array();
  for (const std::string& d : p.include_dirs) w.value(d);
  w.end_array();
  w.field("shard", p.shard);
  w.field("jobs", static_cast<std::uint64_t>(p.jobs));
  w.field("started_at", p.started_at);
  w.field("finished_at", p.finished_at);
  w.field("seconds", p.seconds);
  w.end_object();
  w.end_object();
}

std::string BatchSummary::to_json(const BatchProvenance& p) const {
  report::JsonWriter w;
  write(w, p, [] {});
  return w.take();
}

void BatchSummary::write_json(const BatchProvenance& p, const std::function<void(std::string_view)>& out) const {
  report::JsonWriter w;
  constexpr std::size_t kSpillBytes = 1 << 16;
  write(w, p, [&] {
    if (w.str().size() >= kSpillBytes) out(w.take_written());
  });
  out(w.take_written());
}

json::Value BatchSummary::to_value(const BatchProvenance& p) const {
  json::ValueBuilder b;
  write(b, p, [] {});
  return b.take();
}

void BatchSummary::write_html(const BatchProvenance& p, const std::function<void(std::string_view)>& out) const {
  json::ValueBuilder b;
  write(b, p, [] {}, false);
  report::write_corpus_html(b.take(), [&](const std::function<bool(const SubmissionRow&)>& visit) { rows_.for_each(visit); }, out);
}

std::string BatchSummary::to_text(const BatchProvenance& p, const std::string& out_dir, bool colour) const {
  const report::TerminalStyle style(colour);
  std::string out;
  out += fmt::format("{} submission{}: {} graded, {} reused from {}/results.jsonl", submissions_,
                     submissions_ == 1 ? "" : "s", p.graded, p.reused, out_dir);
  if (p.seconds > 0) out += fmt::format(" · {}", report::format_seconds(p.seconds));
  out += "\n";
  std::vector<std::string> parts;
  const std::array<std::pair<const char*, OverallVerdict>, 4> overall = {
      {{"PASS", OverallVerdict::pass}, {"FAIL", OverallVerdict::fail}, {"INCOMPLETE", OverallVerdict::incomplete},
       {"ERROR", OverallVerdict::error}}};
  for (const auto& [name, v] : overall) parts.push_back(style.paint(fmt::format("{} {}", count(name), name), v));
  out += fmt::format("verdicts: {}\n", fmt::join(parts, " · "));

  if (!criteria_.empty()) {
    // The REVIEW column appears when some verdict rests on an ambiguous reading of prose.
    bool review = false;
    for (const CriterionCounts& c : criteria_) review = review || c.review > 0;
    std::size_t width = 9;
    for (const CriterionCounts& c : criteria_)
      width = std::max(width, 2 * static_cast<std::size_t>(c.depth) + c.id.size() + (c.kind == "group" ? 6 : 0));
    out += fmt::format("\n{:<{}}  {:>6} {:>6} {:>6} {:>6} {:>6}  {:>9}{}\n", "criterion", width, "PASS", "FAIL", "ERROR",
                       "SKIP", "INCONC", "pass rate", review ? "  REVIEW" : "");
    for (const CriterionCounts& c : criteria_) {
      // A group's criteria are indented under it, as in the text report.
      const std::string name = std::string(2 * static_cast<std::size_t>(c.depth), ' ') +
                               report::display_text(c.kind == "group" ? "group " + c.id : c.id);
      const std::string rate =
          c.total() == 0 ? "-" : report::format_percent(static_cast<double>(c.counts[0]) / static_cast<double>(c.total()));
      std::string errors = fmt::format("{:>6}", c.counts[2]);
      if (c.counts[2] > 0) errors = style.paint(errors, Verdict::error);
      out += fmt::format("{:<{}}  {:>6} {:>6} {} {:>6} {:>6}  {:>9}{}\n", name, width, c.counts[0], c.counts[1], errors,
                         c.counts[3], c.counts[4], rate, review ? fmt::format("  {:>6}", c.review) : "");
    }
    for (const CriterionCounts& c : criteria_) {
      if (c.review == 0) continue;
      out += fmt::format("{} marked for review (verdict kept, it rests on an ambiguous reading): {}\n",
                         report::display_text(c.id), first_ten(c.review_submissions, c.review, kReviewListed));
    }
    for (const CriterionCounts& c : criteria_)
      if (auto why = c.common_failure(submissions_))
        out += "\n" + style.paint(fmt::format("criterion {} FAILed all {} submissions for the same reason — check the rubric:",
                                               report::display_text(c.id), submissions_),
                                   Verdict::fail) +
               fmt::format("\n  {}\n", report::display_text(*why));
  }
  if (addressed_reader_ > 0)
    out += fmt::format("\n{} submission{} order{} whoever grades {}, read {} yourself (the warnings of {} results quote the "
                       "orders): {}\n",
                       addressed_reader_, addressed_reader_ == 1 ? "" : "s", addressed_reader_ == 1 ? "s" : "",
                       addressed_reader_ == 1 ? "it" : "them", addressed_reader_ == 1 ? "it" : "them",
                       addressed_reader_ == 1 ? "its" : "their", first_ten(addressed_reader_submissions_, addressed_reader_, kReviewListed));
  const std::size_t errors = count("ERROR");
  if (scored_ > 0) {
    out += fmt::format("\nscore{}: mean {} · median {} · quartiles {} – {} · min {} · max {}\n",
                       errors == 0 ? "" : fmt::format(" (the {} ERRORed left out)", errors),
                       report::format_percent(score_sum() / static_cast<double>(scored_)),
                       report::format_percent(score_quantile(0.5)), report::format_percent(score_quantile(0.25)),
                       report::format_percent(score_quantile(0.75)), report::format_percent(scores_.begin()->first),
                       report::format_percent(scores_.rbegin()->first));
  }
  if (!agreement_.empty()) {
    out += "\ngraders' reviews (the verdicts above are final: the grader's where one applies)\n";
    out += fmt::format("{:<24} {:>8} {:>9} {:>7} {:>9} {:>6}\n", "criterion", "reviewed", "agreement", "kappa",
                       "overruled", "stale");
    for (const CriterionCounts& c : criteria_) {
      const auto found = agreement_.find(c.id);
      if (found == agreement_.end() || c.kind == "group") continue;
      const CriterionAgreement& a = found->second;
      const auto rate = a.agreement_rate();
      const auto kappa = a.kappa();
      out += fmt::format("{:<24} {:>8} {:>9} {:>7} {:>9} {:>6}\n", report::display_text(c.id), a.reviewed,
                         rate ? report::format_percent(*rate) : "-", kappa ? fmt::format("{:.2f}", *kappa) : "-",
                         a.overruled, a.stale);
    }
    for (std::size_t i = 0; i < overrules_.size() && i < kErrorsShown; ++i) {
      const Overrule& o = overrules_[i];
      out += fmt::format("  {} {}: {} → {}, overruled by {}: {}\n", report::display_text(o.submission),
                         report::display_text(o.criterion), o.tool_verdict, o.verdict, report::display_text(o.reviewer),
                         report::display_text(o.justification));
    }
    if (overrules_.size() > kErrorsShown)
      out += fmt::format("  ... and {} more overrules (summary.json lists them all)\n", overrules_.size() - kErrorsShown);
  }
  if (errors > 0) {
    out += "\n" + style.paint(fmt::format("{} submission{} ERRORED — the rubric's or the grading machine's problem, not "
                                          "the submission's:",
                                          errors, errors == 1 ? "" : "s"),
                              Verdict::error) +
           "\n";
    // Identical reasons once, with the submissions they stopped: one cause, one line to read.
    struct ErrorGroup {
      std::string reason;
      std::vector<std::string> named;  // the first kNamesPerError
      std::size_t count = 0;
    };
    std::vector<ErrorGroup> groups;
    rows_.for_each([&](const SubmissionRow& row) {
      if (row.verdict != "ERROR") return true;
      const std::string reason = row.reason.empty() ? "no reason recorded" : row.reason;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const ErrorGroup& g) { return g.reason == reason; });
      if (it == groups.end()) it = groups.insert(groups.end(), ErrorGroup{reason, {}, 0});
      if (it->named.size() < kNamesPerError) it->named.push_back(row.submission);
      ++it->count;
      return true;
    });
    for (std::size_t i = 0; i < groups.size() && i < kErrorsShown; ++i) {
      const ErrorGroup& g = groups[i];
      out += fmt::format("  {} {}: {}\n", style.paint("ERROR", Verdict::error), g.count == 1 ? "1 submission" : fmt::format("{} submissions", g.count),
                         report::display_text(g.reason));
      std::string names;
      for (std::size_t k = 0; k < g.named.size(); ++k) names += (k ? ", " : "") + report::display_text(g.named[k]);
      if (g.count > kNamesPerError) names += fmt::format(", ... ({} more)", g.count - kNamesPerError);
      out += fmt::format("    {}\n", names);
    }
    if (groups.size() > kErrorsShown)
      out += fmt::format("  ... and {} more reasons (summary.json lists every ERROR)\n", groups.size() - kErrorsShown);
  }
  if (rows_.size() > 0) {
    out += "\nsubmissions (verdict, score, what decided it):\n";
    std::size_t shown = 0;
    rows_.for_each([&](const SubmissionRow& row) {
      const auto v = std::find_if(overall.begin(), overall.end(), [&](const auto& o) { return row.verdict == o.first; });
      out += fmt::format("  {} {:>5}  {}: {}\n",
                         v == overall.end() ? row.verdict : style.paint(fmt::format("{:<10}", row.verdict), v->second),
                         row.score ? report::format_percent(*row.score) : "-", report::display_text(row.submission),
                         report::display_text(row.reason));
      return ++shown < kRowsShown;
    });
    if (rows_.size() > kRowsShown)
      out += fmt::format("  ... and {} more (summary.json's submission_list has them all)\n", rows_.size() - kRowsShown);
  }
  return out;
}

}  // namespace rubric::grading
