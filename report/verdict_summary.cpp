#include "report/verdict_summary.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/number_format.hpp"

namespace rubric::report {
namespace {

void visit_all(const std::vector<CriterionResult>& list, int depth,
               const std::function<void(const CriterionResult&, int)>& visit) {
  for (const CriterionResult& c : list) {
    visit(c, depth);
    if (c.is_group) visit_all(c.children, depth + 1, visit);
  }
}

std::vector<const CriterionResult*> leaves_with(const Report& report, Verdict v) {
  std::vector<const CriterionResult*> found;
  for_each_criterion(report, [&](const CriterionResult& c, int) {
    if (!c.is_group && c.verdict == v) found.push_back(&c);
  });
  return found;
}

// "numerics" or "numerics (no CUDA device)" when the criterion carries its own reason.
std::string id_with_reason(const CriterionResult& c) {
  if (c.reason.empty()) return c.id;
  return fmt::format("{} ({})", c.id, c.reason);
}

std::string join_ids(const std::vector<const CriterionResult*>& list, bool with_reason) {
  std::string out;
  for (const CriterionResult* c : list) {
    if (!out.empty()) out += ", ";
    out += with_reason ? id_with_reason(*c) : c->id;
  }
  return out;
}

}  // namespace

std::size_t VerdictCounts::total() const {
  std::size_t n = 0;
  for (std::size_t c : counts) n += c;
  return n;
}

const std::array<Verdict, 5>& listing_order() {
  static const std::array<Verdict, 5> order{Verdict::pass, Verdict::fail, Verdict::error,
                                            Verdict::inconclusive, Verdict::skip};
  return order;
}

void for_each_criterion(const Report& report,
                        const std::function<void(const CriterionResult&, int depth)>& visit) {
  visit_all(report.criteria, 0, visit);
}

VerdictCounts count_criteria(const Report& report) {
  VerdictCounts counts;
  for_each_criterion(report, [&](const CriterionResult& c, int) {
    if (!c.is_group) counts.add(c.verdict);
  });
  return counts;
}

VerdictCounts count_checks(const Report& report) {
  VerdictCounts counts;
  for_each_criterion(report, [&](const CriterionResult& c, int) {
    for (const CheckResult& check : c.checks) counts.add(check.verdict);
  });
  return counts;
}

std::string describe_counts(const VerdictCounts& counts) {
  std::string out;
  for (Verdict v : listing_order()) {
    if (counts[v] == 0) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", counts[v], verdict_name(v));
  }
  return out.empty() ? "none" : out;
}

std::string describe_marked(const Report& report) {
  std::vector<std::string> ids;
  for_each_criterion(report, [&](const CriterionResult& c, int) {
    if (!review_reason(c).empty()) ids.push_back(c.id);
  });
  if (ids.empty()) return "";
  return fmt::format("{} {} marked for review (verdict{} kept): {}", ids.size(), ids.size() == 1 ? "criterion" : "criteria",
                     ids.size() == 1 ? "" : "s", fmt::join(ids, ", "));
}

std::string describe_score(const Report& report) {
  if (!report.score) {
    return fmt::format("no score: nothing was decided (pass mark {})", format_percent(report.pass_mark));
  }
  return fmt::format("score {} (pass mark {})", format_percent(*report.score),
                     format_percent(report.pass_mark));
}

std::string overall_reason(const Report& report) {
  std::vector<std::string> parts;
  switch (report.verdict) {
    case OverallVerdict::error: {
      const auto errored = leaves_with(report, Verdict::error);
      if (errored.empty()) {
        parts.push_back("the grading side failed");
      } else {
        // Who is at fault, as the errored checks say: a grader re-runs a machine's ERROR elsewhere
        // but fixes a rubric's.
        bool rubric = false, machine = false, unknown = false;
        for (const CriterionResult* c : errored) {
          bool any = false;
          for (const CheckResult& k : c->checks) {
            if (k.verdict != Verdict::error) continue;
            any = true;
            rubric = rubric || k.blame == Blame::rubric || k.blame == Blame::none || k.blame == Blame::submission;
            machine = machine || k.blame == Blame::grader_environment;
          }
          unknown = unknown || !any;
        }
        const char* who = unknown || (!rubric && !machine) ? "the rubric or the grading side is at fault"
                          : rubric && machine                ? "the rubric and the grading machine are at fault"
                          : machine                          ? "the grading machine is at fault, not the submission"
                                                             : "the rubric or its reference files are at fault";
        parts.push_back(fmt::format("{} {} in ERROR ({})", errored.size() == 1 ? "criterion" : "criteria",
                                    join_ids(errored, false), who));
      }
      break;
    }
    case OverallVerdict::fail: {
      std::vector<const CriterionResult*> failed_required;
      for_each_criterion(report, [&](const CriterionResult& c, int) {
        if (c.required && c.verdict == Verdict::fail) failed_required.push_back(&c);
      });
      if (!failed_required.empty()) {
        parts.push_back(fmt::format("required {} {} failed",
                                    failed_required.size() == 1 ? "criterion" : "criteria",
                                    join_ids(failed_required, false)));
      }
      if (report.score && *report.score < report.pass_mark) {
        parts.push_back(fmt::format("score {} is below the pass mark {}", format_percent(*report.score),
                                    format_percent(report.pass_mark)));
      }
      if (parts.empty()) parts.push_back("the rubric failed");
      break;
    }
    case OverallVerdict::incomplete: {
      if (!report.score) parts.push_back("nothing was decided");
      const auto skipped = leaves_with(report, Verdict::skip);
      const auto inconclusive = leaves_with(report, Verdict::inconclusive);
      if (!skipped.empty()) parts.push_back("skipped: " + join_ids(skipped, true));
      if (!inconclusive.empty()) parts.push_back("inconclusive: " + join_ids(inconclusive, true));
      break;
    }
    case OverallVerdict::pass: {
      bool any_required = false;
      for_each_criterion(report, [&](const CriterionResult& c, int) { any_required |= c.required; });
      const std::string score = report.score ? format_percent(*report.score) : "-";
      parts.push_back(fmt::format("{}score {} reaches the pass mark {}",
                                  any_required ? "every required criterion passed and the " : "",
                                  score, format_percent(report.pass_mark)));
      break;
    }
  }
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += "; ";
    out += p;
  }
  return out;
}

std::string penalty_state(const CriterionResult& c) {
  if (c.deducted) return "deducted";
  if (c.verdict == Verdict::pass) return "not deducted";
  if (c.verdict == Verdict::fail) return "not deducted: nothing was decided against the submission";
  return "not decided";
}

}  // namespace rubric::report
