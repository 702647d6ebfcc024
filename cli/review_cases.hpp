#pragma once
// `rubric test RUBRIC --cases-from OUT`: the graders' reviews of a grade out folder as labelled
// cases (calibration/cases_file.hpp), so that a rubric change is proven against their decisions.
#include <string>

#include "calibration/cases_file.hpp"

namespace rubric::cli {

// A case per submission with at least one review in force that decides (agree, PASS, FAIL) and
// was made against the submission content graded now; made under another rubric, it still labels
// the submission (that is the point of proving a new rubric). Each such review pins its criterion
// to the grader's final verdict; the case's verdict is the submission's with those reviews
// applied (docs/review.md). Throws calibration::CasesError when OUT holds no such review.
calibration::CasesFile cases_from_reviews(const std::string& out_dir);

}  // namespace rubric::cli
