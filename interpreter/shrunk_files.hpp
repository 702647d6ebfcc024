#pragma once
// Tensors read from a file that shrank while rubric read it (operators/files/bus_guard.hpp): what
// was read past the new end was zeros, which must never decide a check. After every builtin, index
// and `matches` that touched tensors the evaluator asks here; a shrunk file turns the result into
// the submission's FAIL naming it ("submission/out.npy shrank while it was read (N bytes mapped,
// M now)"), or the rubric's ERROR when it is a reference file (checked first: the grading
// machine's fault is never the candidate's).
#include <optional>
#include <string>
#include <vector>

#include "interpreter/value.hpp"
#include "operators/files/bus_guard.hpp"

namespace rubric {

struct ShrunkFile {
  std::string message;
  Blame blame = Blame::rubric;
};

// The first shrunk file among the tensors in `values` (inside lists and records too), reference
// files before submission files; nullopt when every file is whole.
std::optional<ShrunkFile> shrunk_file(const std::vector<const Value*>& values);
// The file an operator reported.
ShrunkFile shrunk_file(const files::FileChanged& e);

}  // namespace rubric
