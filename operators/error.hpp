#pragma once
// The one exception type operator libraries throw for bad input (a malformed file, a wrong
// argument). Its message names the file or field and what is wrong; the language binding
// decides who is to blame (submission → FAIL, reference or rubric → ERROR).
#include <stdexcept>
#include <string>

namespace rubric {

struct OperatorError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The grading machine cannot do what was asked, whatever the input: no scratch or cache folder
// it can write, a worker or tool that is missing, a RUBRIC_* variable that makes no sense. The
// binding blames the grading environment (ERROR, or SKIP where the GPU itself is missing).
struct EnvironmentError : OperatorError {
  using OperatorError::OperatorError;
};

}  // namespace rubric
