#pragma once
// How far the graders agree with the tool, per criterion: over the reviews in force that apply
// (not stale, not "cannot tell"), the reviewed count, the agreement rate, Cohen's kappa and the
// confusion matrix of the tool's verdict against the grader's.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace rubric::grading {

struct CriterionAgreement {
  std::size_t reviewed = 0;     // reviews that apply
  std::size_t agreed = 0;       // the grader's final verdict is the tool's
  std::size_t overruled = 0;    // PASS/FAIL where the tool said otherwise
  std::size_t cannot_tell = 0;  // abstentions, outside the figures
  std::size_t stale = 0;        // made against other content, outside the figures
  std::map<std::pair<std::string, std::string>, std::size_t> confusion;  // (tool, grader) → count

  std::optional<double> agreement_rate() const;  // nullopt when nothing reviewed
  // (p_o − p_e) / (1 − p_e) over the verdicts met; nullopt when nothing was reviewed or chance
  // agreement is certain (both sides gave one and the same verdict throughout).
  std::optional<double> kappa() const;
};

}  // namespace rubric::grading
