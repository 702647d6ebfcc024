#pragma once
// A table reader stops past a bound on what it builds (fields of a CSV, samples of a Prometheus
// exposition): past it, the file is too large to read, not malformed. The binding blames the
// file's side (a submission's FAIL) naming the file and the bound.
#include <stdexcept>

namespace rubric::tables {

struct ReadLimitExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace rubric::tables
