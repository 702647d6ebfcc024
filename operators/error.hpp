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

}  // namespace rubric
