#include "calibration/calibration.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "report/shown_report.hpp"

namespace rubric::calibration {
namespace {

bool decided(Verdict v) { return v == Verdict::pass || v == Verdict::fail; }

// Whether `c` is undecided because of the grading machine: skipped for a `needs` this machine
// cannot meet (or after a criterion that was), or a check blamed on the grader's environment.
bool machine_limited(const CriterionResult& c, const std::set<std::string>& limited_so_far) {
  if (decided(c.verdict)) return false;
  if (c.verdict == Verdict::skip && c.reason.rfind("needs ", 0) == 0) return true;
  if (c.verdict == Verdict::skip)
    for (const std::string& a : c.after)
      if (limited_so_far.count(a)) return true;
  for (const CheckResult& check : c.checks)
    if (check.blame == Blame::grader_environment && !decided(check.verdict)) return true;
  return false;
}

void flatten(const CriterionResult& c, int depth, std::set<std::string>& limited,
             std::vector<CriterionComparison>& out) {
  const std::size_t at = out.size();
  out.push_back({c.id, c.is_group, depth, std::nullopt, c.verdict, false, std::nullopt, &c});
  bool child_limited = false;
  for (const CriterionResult& child : c.children) {
    flatten(child, depth + 1, limited, out);
    child_limited = child_limited || limited.count(child.id) > 0;
  }
  const bool is_limited = machine_limited(c, limited) || (c.is_group && child_limited && !decided(c.verdict));
  if (is_limited) limited.insert(c.id);
  out[at].machine_limited = is_limited;
}

// Edit distance with adjacent transpositions (a typo in a pinned id is usually one of these).
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string did_you_mean(const std::string& id, const std::vector<CriterionComparison>& criteria) {
  const CriterionComparison* best = nullptr;
  std::size_t best_distance = 3;  // at most two edits away
  for (const auto& c : criteria) {
    const std::size_t d = distance(id, c.id);
    if (d < best_distance) best = &c, best_distance = d;
  }
  return best ? fmt::format("did you mean '{}'? ", best->id) : "";
}

std::string known_ids(const std::vector<CriterionComparison>& criteria) {
  std::string list;
  for (const auto& c : criteria) list += (list.empty() ? "" : ", ") + c.id;
  return list;
}

}  // namespace

CaseResult compare_case(const Case& expected, Report report, const std::string& cases_file) {
  CaseResult r;
  r.expected = expected;
  r.report = std::move(report);
  r.actual = r.report.verdict;
  std::set<std::string> limited;
  for (const CriterionResult& c : r.report.criteria) flatten(c, 0, limited, r.criteria);

  bool any_disagree = false, any_undecided = false;
  std::vector<std::string> undecided_ids;
  for (const CriterionExpectation& pin : expected.criteria) {
    auto it = std::find_if(r.criteria.begin(), r.criteria.end(), [&](const auto& c) { return c.id == pin.id; });
    if (it == r.criteria.end())
      throw CasesError(fmt::format("{}: case '{}': criteria.{}: the rubric has no criterion '{}'; {}(it has: {})",
                                   cases_file, expected.name, pin.id, pin.id, did_you_mean(pin.id, r.criteria),
                                   known_ids(r.criteria)));
    it->expected = pin.verdict;
    if (it->actual == pin.verdict) {
      it->agree = true;
    } else if (it->machine_limited) {
      any_undecided = true;
      undecided_ids.push_back(it->id);
    } else {
      it->agree = false;
      any_disagree = true;
    }
  }

  const bool limited_run = r.actual == OverallVerdict::incomplete || r.actual == OverallVerdict::error;
  if (r.actual == expected.verdict) {
    r.verdict_agrees = true;
  } else if (limited_run && !limited.empty()) {
    any_undecided = true;
    for (const auto& c : r.criteria)
      if (c.machine_limited && !c.is_group &&
          std::find(undecided_ids.begin(), undecided_ids.end(), c.id) == undecided_ids.end())
        undecided_ids.push_back(c.id);
  } else {
    r.verdict_agrees = false;
    any_disagree = true;
  }

  r.status = any_disagree ? CaseStatus::disagree : any_undecided ? CaseStatus::undecided : CaseStatus::agree;
  if (r.status == CaseStatus::undecided) {
    std::string ids;
    for (const auto& id : undecided_ids) ids += (ids.empty() ? "" : ", ") + id;
    // The first limited criterion's reason says what the machine lacks ("needs gpu: no CUDA device").
    std::string why;
    for (const auto& c : r.criteria)
      if (c.machine_limited && !c.is_group && !c.result->reason.empty()) {
        why = c.result->reason;
        break;
      }
    r.undecided_reason = why.empty() ? fmt::format("this machine could not decide {}", ids)
                                     : fmt::format("this machine could not decide {} ({})", ids, why);
  }
  return r;
}

namespace {

std::size_t order_of(const std::string& verdict) {
  static const char* order[] = {"PASS", "FAIL", "ERROR", "INCONCLUSIVE", "SKIP", "-"};
  for (std::size_t i = 0; i < 6; ++i)
    if (verdict == order[i]) return i;
  return 6;
}

}  // namespace

const char* case_status_name(CaseStatus s) {
  switch (s) {
    case CaseStatus::agree: return "agree";
    case CaseStatus::disagree: return "disagree";
    case CaseStatus::undecided: return "undecided";
  }
  return "agree";
}

int CalibrationResult::exit_code() const {
  if (agreement.disagreeing > 0) return 1;
  if (agreement.undecided > 0) return 3;
  return 0;
}

Agreement agreement_of(const std::vector<CaseResult>& cases) {
  Agreement a;
  a.cases = cases.size();
  for (const CaseResult& c : cases) {
    for (const CriterionComparison& k : c.criteria) {
      if (!k.expected) continue;
      ++a.pinned;
      if (!k.agree) ++a.pinned_undecided;
      else if (*k.agree) ++a.pinned_agreeing;
      if (k.agree && k.result) {
        const bool marked = !review_reason(*k.result).empty();
        ++(marked ? a.marked : a.unmarked);
        if (!*k.agree) ++(marked ? a.marked_disagreeing : a.unmarked_disagreeing);
      }
    }
    switch (c.status) {
      case CaseStatus::agree: ++a.agreeing; break;
      case CaseStatus::disagree: ++a.disagreeing; break;
      case CaseStatus::undecided: ++a.undecided; continue;  // no FAIL-class count either
    }
    if (!c.verdict_agrees.has_value()) continue;
    bool case_marked = false;
    for (const CriterionComparison& k : c.criteria) case_marked = case_marked || (k.result && !review_reason(*k.result).empty());
    ++(case_marked ? a.marked_cases : a.unmarked_cases);
    if (!*c.verdict_agrees) ++(case_marked ? a.marked_cases_disagreeing : a.unmarked_cases_disagreeing);
    const bool expected_fail = c.expected.verdict == OverallVerdict::fail;
    const bool actual_fail = c.actual == OverallVerdict::fail;
    if (expected_fail && actual_fail) ++a.true_positive;
    else if (!expected_fail && actual_fail) ++a.false_positive;
    else if (expected_fail && !actual_fail) ++a.false_negative;
    else ++a.true_negative;
  }
  const std::size_t decided_cases = a.agreeing + a.disagreeing;
  if (decided_cases > 0) a.rate = double(a.agreeing) / double(decided_cases);
  if (a.true_positive + a.false_positive > 0)
    a.precision = double(a.true_positive) / double(a.true_positive + a.false_positive);
  if (a.true_positive + a.false_negative > 0)
    a.recall = double(a.true_positive) / double(a.true_positive + a.false_negative);
  if (a.precision && a.recall)
    a.f1 = (*a.precision + *a.recall) > 0 ? 2 * *a.precision * *a.recall / (*a.precision + *a.recall) : 0.0;
  return a;
}

std::vector<CriterionRow> criterion_table(const std::vector<CaseResult>& cases) {
  std::vector<CriterionRow> rows;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::map<std::pair<std::string, std::string>, std::size_t>> pairs;
  for (const CaseResult& c : cases) {
    for (const CriterionComparison& k : c.criteria) {
      if (!index.count(k.id)) {
        index[k.id] = rows.size();
        rows.push_back({k.id, k.result->title, k.is_group, k.depth, 0, 0, {}});
      }
      CriterionRow& row = rows[index[k.id]];
      if (k.expected) {
        ++row.pinned;
        if (k.agree && *k.agree) ++row.agreeing;
      }
      ++pairs[k.id][{k.expected ? verdict_name(*k.expected) : "-", verdict_name(k.actual)}];
    }
  }
  for (CriterionRow& row : rows) {
    for (const auto& [pair, count] : pairs[row.id]) row.pairs.push_back({pair.first, pair.second, count});
    std::sort(row.pairs.begin(), row.pairs.end(), [](const VerdictPair& x, const VerdictPair& y) {
      return std::make_pair(order_of(x.expected), order_of(x.actual)) < std::make_pair(order_of(y.expected), order_of(y.actual));
    });
  }
  return rows;
}

std::vector<Unexercised> unexercised_criteria(const std::vector<CaseResult>& cases) {
  std::vector<Unexercised> out;
  if (cases.empty()) return out;
  // Criteria in the order of the first report; groups are judged by their criteria.
  for (const CriterionComparison& first : cases.front().criteria) {
    if (first.is_group) continue;
    bool fails = false, passes = false;
    std::string skip_reason;
    for (const CaseResult& c : cases) {
      for (const CriterionComparison& k : c.criteria) {
        if (k.id != first.id) continue;
        fails = fails || k.actual == Verdict::fail;
        passes = passes || k.actual == Verdict::pass;
        if (!decided(k.actual) && skip_reason.empty()) skip_reason = k.result->reason;
      }
    }
    if (fails && passes) continue;
    Unexercised u;
    u.id = first.id;
    u.title = first.result->title;
    u.never_fails = !fails;
    u.never_passes = !passes;
    const bool penalty = first.result->penalty.has_value();
    if (!fails && !passes) {
      u.suggestion = skip_reason.empty()
                         ? fmt::format("no case decides '{}': add one it passes and one it fails", u.id)
                         : fmt::format("no case decides '{}' on this machine ({}); where it can be decided, "
                                       "have one case it passes and one it fails", u.id, skip_reason);
    } else if (!fails) {
      u.suggestion = penalty
                         ? fmt::format("add a case that commits what '{}' penalises, pinned \"{}\": \"FAIL\"", u.id, u.id)
                         : fmt::format("add a plausible wrong answer that '{}' should catch, pinned \"{}\": \"FAIL\"",
                                       u.id, u.id);
    } else {
      u.suggestion = penalty
                         ? fmt::format("add a clean case that '{}' should not penalise, pinned \"{}\": \"PASS\"", u.id, u.id)
                         : fmt::format("add a correct answer that '{}' should accept, pinned \"{}\": \"PASS\"", u.id, u.id);
    }
    out.push_back(std::move(u));
  }
  return out;
}

CalibrationResult calibrate(Engine& engine, const std::string& rubric_path, const CasesFile& cases,
                            const std::function<void(std::size_t, const Case&)>& on_case) {
  CalibrationResult result;
  result.rubric = rubric_path;
  result.cases_file = cases.path;
  for (std::size_t i = 0; i < cases.cases.size(); ++i) {
    const Case& c = cases.cases[i];
    if (on_case) on_case(i, c);
    // The report as every printer shows it: submission text escaped, machine paths made relative.
    Report report = report::shown_report(engine.check(c.submission, c.reference)).get();
    if (result.title.empty()) result.title = report.title;
    result.cases.push_back(compare_case(c, std::move(report), cases.path));
  }
  // Comparisons point into their case's report; the vector has stopped growing, but each
  // CaseResult was moved in, so the pointers are re-pointed at the stored reports.
  for (CaseResult& r : result.cases) {
    std::vector<const CriterionResult*> flat;
    std::function<void(const CriterionResult&)> walk = [&](const CriterionResult& c) {
      flat.push_back(&c);
      for (const auto& child : c.children) walk(child);
    };
    for (const auto& c : r.report.criteria) walk(c);
    for (std::size_t k = 0; k < r.criteria.size() && k < flat.size(); ++k) r.criteria[k].result = flat[k];
  }
  result.agreement = agreement_of(result.cases);
  result.table = criterion_table(result.cases);
  result.unexercised = unexercised_criteria(result.cases);
  return result;
}

}  // namespace rubric::calibration
