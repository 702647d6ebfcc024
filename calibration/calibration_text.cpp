#include <fmt/format.h>

#include "calibration/calibration_report.hpp"
#include "report/display_text.hpp"
#include "report/number_format.hpp"
#include "report/terminal_style.hpp"
#include "operators/text/utf8.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::calibration {
namespace {

using report::Colour;

std::string percent_or_na(const std::optional<double>& x) { return x ? report::format_percent(*x) : "n/a"; }

std::string location_text(const SourceLocation& loc) {
  if (!loc.known()) return loc.file;
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

class TextWriter {
 public:
  TextWriter(const CalibrationResult& r, const CalibrationTextOptions& o) : r_(r), o_(o), style_(o.colour) {}

  std::string write() {
    line(0, fmt::format("{} — {}", style_.paint(report::display_text(r_.title), Colour::bold), report::display_text(r_.rubric)));
    line(0, fmt::format("cases: {} ({} case{})", report::display_text(r_.cases_file), r_.cases.size(), r_.cases.size() == 1 ? "" : "s"));
    out_ += '\n';
    std::size_t width = 0;
    for (const CaseResult& c : r_.cases) width = std::max(width, text::display_width(report::display_text(c.expected.name)));
    for (const CaseResult& c : r_.cases) case_entry(c, width);
    table();
    agreement();
    unexercised();
    verdict();
    return std::move(out_);
  }

 private:
  void line(std::size_t indent, std::string_view text) {
    out_.append(indent, ' ');
    out_ += text;
    out_ += '\n';
  }

  std::string padded(const std::string& s, std::size_t width) {
    const std::size_t w = text::display_width(s);
    return s + std::string(width > w ? width - w : 0, ' ');
  }

  void case_entry(const CaseResult& c, std::size_t width) {
    const std::string name = padded(report::display_text(c.expected.name), width);
    const std::string expected = overall_verdict_name(c.expected.verdict);
    const std::string actual = overall_verdict_name(c.actual);
    switch (c.status) {
      case CaseStatus::agree:
        line(0, fmt::format("{} {}  {}{}", style_.paint("✔", Colour::green), name, actual,
                            c.expected.criteria.empty() ? "" : fmt::format(", {} pinned criteri{} as expected",
                                                                            c.expected.criteria.size(),
                                                                            c.expected.criteria.size() == 1 ? "on" : "a")));
        return;
      case CaseStatus::undecided:
        line(0, fmt::format("{} {}  undecided here: expected {}, got {} — {}", style_.paint("?", Colour::yellow), name,
                            expected, actual, text::sanitize_utf8(c.undecided_reason)));
        return;
      case CaseStatus::disagree: break;
    }
    const std::string head = c.verdict_agrees.value_or(true)
                                 ? fmt::format("{} as expected, but pinned criteria differ", actual)
                                 : fmt::format("expected {}, got {}", expected, actual);
    line(0, fmt::format("{} {}  {}", style_.paint("✘", Colour::red), name, head));
    const std::size_t detail = 4;
    if (!c.expected.why.empty()) line(detail, "why: " + report::display_text(c.expected.why));
    if (c.verdict_agrees.has_value() && !*c.verdict_agrees)
      line(detail, fmt::format("rubric: {} — {}", report::describe_score(c.report),
                               text::sanitize_utf8(report::overall_reason(c.report))));
    bool any_pin_differs = false;
    for (const CriterionComparison& k : c.criteria) {
      if (k.agree.has_value() && !*k.agree) {
        any_pin_differs = true;
        criterion_evidence(k, detail, fmt::format("expected {}, got {}", verdict_name(*k.expected), verdict_name(k.actual)));
      }
    }
    // The overall verdict differs and no pin says where: show the criteria that decided it.
    if (!any_pin_differs && c.verdict_agrees.has_value() && !*c.verdict_agrees) {
      std::size_t shown = 0;
      for (const CriterionComparison& k : c.criteria) {
        if (k.is_group || k.actual == Verdict::pass) continue;
        ++shown;
        // A pin that agrees under a case that does not still says so; a penalty says whether it was taken.
        std::string what = std::string("got ") + verdict_name(k.actual);
        if (k.result->penalty) what += fmt::format(" (penalty {}, {})", report::format_number(*k.result->penalty), report::penalty_state(*k.result));
        if (k.agree.value_or(false)) what += ", as expected";
        criterion_evidence(k, detail, what);
      }
      if (c.actual == OverallVerdict::pass)
        line(detail, shown == 0 ? std::string("every criterion that was decided passed")
                                : "the rubric passed all the same: " + report::describe_score(c.report));
    }
    out_ += '\n';
  }

  void criterion_evidence(const CriterionComparison& k, std::size_t indent, const std::string& what) {
    const CriterionResult& c = *k.result;
    line(indent, fmt::format("{} {} — {}: {}", style_.paint(fmt::format("[{}]", verdict_name(k.actual)), k.actual), k.id,
                             text::sanitize_utf8(c.title), what));
    if (!c.reason.empty()) line(indent + 4, "reason: " + text::sanitize_utf8(c.reason));
    if (const std::string review = review_reason(c); !review.empty())
      line(indent + 4, "marked for review (verdict kept): " + text::sanitize_utf8(review));
    std::size_t shown = 0;
    for (const CheckResult& check : c.checks) {
      if (shown == o_.max_checks_shown) {
        line(indent + 4, fmt::format("… {} more check(s)", c.checks.size() - shown));
        break;
      }
      ++shown;
      line(indent + 2, fmt::format("{} {}{}  {}", style_.paint(report::verdict_marker(check.verdict), check.verdict),
                                   text::fold_whitespace(text::sanitize_utf8(check.source_text)),
                                   check.label.empty() ? "" : fmt::format("  [{}]", text::sanitize_utf8(check.label)),
                                   style_.paint(location_text(check.location), Colour::grey)));
      for (const std::string& e : check.evidence) line(indent + 6, text::sanitize_utf8(e));
      if (!check.explanation.empty()) line(indent + 6, "→ " + text::sanitize_utf8(check.explanation));
      if (!check.message.empty()) line(indent + 6, "else: " + text::sanitize_utf8(check.message));
      if (!check.review.empty()) line(indent + 6, "review: " + text::sanitize_utf8(check.review));
    }
  }

  void table() {
    out_ += '\n';
    line(0, "criteria, expected × actual over the cases (- : not pinned):");
    std::size_t width = std::string("criterion").size();
    for (const CriterionRow& row : r_.table) width = std::max(width, 2 * row.depth + text::display_width(row.id));
    line(2, fmt::format("{}  pinned  agree  expected→actual: cases", padded("criterion", width)));
    for (const CriterionRow& row : r_.table) {
      std::string pairs;
      for (const VerdictPair& p : row.pairs)
        pairs += fmt::format("{}{}→{}: {}", pairs.empty() ? "" : " · ", p.expected, p.actual, p.count);
      line(2, fmt::format("{}  {:>6}  {:>5}  {}", padded(std::string(2 * row.depth, ' ') + row.id, width), row.pinned,
                          row.agreeing, pairs));
    }
  }

  void agreement() {
    const Agreement& a = r_.agreement;
    out_ += '\n';
    const std::size_t decided = a.agreeing + a.disagreeing;
    std::string cases = fmt::format("agreement: {} of {} case{} agree", a.agreeing, decided, decided == 1 ? "" : "s");
    if (a.rate) cases += fmt::format(" ({})", report::format_percent(*a.rate));
    if (a.undecided) cases += fmt::format("; {} undecided on this machine", a.undecided);
    line(0, cases);
    line(0, fmt::format("FAIL class: precision {} · recall {} · F1 {}  (TP {}, FP {}, FN {}, TN {})",
                        percent_or_na(a.precision), percent_or_na(a.recall), percent_or_na(a.f1), a.true_positive,
                        a.false_positive, a.false_negative, a.true_negative));
    if (a.pinned)
      line(0, fmt::format("pinned criteria: {} of {} agree{}", a.pinned_agreeing, a.pinned - a.pinned_undecided,
                          a.pinned_undecided ? fmt::format(", {} undecided on this machine", a.pinned_undecided) : ""));
    auto rate = [](std::size_t k, std::size_t n) { return n ? report::format_percent(double(k) / double(n)) : std::string("n/a"); };
    if (a.marked_cases)
      line(0, fmt::format("marked for review: {} of {} marked case verdicts disagree ({}), {} of {} unmarked ({})",
                          a.marked_cases_disagreeing, a.marked_cases, rate(a.marked_cases_disagreeing, a.marked_cases),
                          a.unmarked_cases_disagreeing, a.unmarked_cases, rate(a.unmarked_cases_disagreeing, a.unmarked_cases)));
    if (a.marked)
      line(0, fmt::format("marked for review: {} of {} marked pinned criteria disagree ({}), {} of {} unmarked ({})",
                          a.marked_disagreeing, a.marked, rate(a.marked_disagreeing, a.marked), a.unmarked_disagreeing,
                          a.unmarked, rate(a.unmarked_disagreeing, a.unmarked)));
  }

  void unexercised() {
    out_ += '\n';
    if (r_.unexercised.empty()) {
      line(0, "every criterion both passes and fails on some case");
      return;
    }
    line(0, "criteria no case exercises:");
    for (const Unexercised& u : r_.unexercised) {
      const char* never = u.never_fails && u.never_passes ? "never decided" : u.never_fails ? "never FAILs" : "never PASSes";
      line(2, fmt::format("{} — {}: {}", u.id, never, text::sanitize_utf8(u.suggestion)));
    }
  }

  void verdict() {
    const Agreement& a = r_.agreement;
    out_ += '\n';
    if (a.disagreeing)
      line(0, fmt::format("result: {} — {} of {} case{} disagree{}", style_.paint("DISAGREE", Colour::red), a.disagreeing,
                          a.cases, a.cases == 1 ? "" : "s", a.disagreeing == 1 ? "s" : ""));
    else if (a.undecided)
      line(0, fmt::format("result: {} — {} of {} cases could not be decided on this machine; the rest agree",
                          style_.paint("UNDECIDED", Colour::yellow), a.undecided, a.cases));
    else
      line(0, fmt::format("result: {} — all {} case{} agree", style_.paint("AGREE", Colour::green), a.cases,
                          a.cases == 1 ? "" : "s"));
  }

  const CalibrationResult& r_;
  const CalibrationTextOptions& o_;
  report::TerminalStyle style_;
  std::string out_;
};

}  // namespace

std::string format_calibration_text(const CalibrationResult& result, const CalibrationTextOptions& options) {
  return TextWriter(result, options).write();
}

}  // namespace rubric::calibration
