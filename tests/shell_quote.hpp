#pragma once
// A path or word as one shell word, for the tests that run a helper through std::system or popen:
// the temporary folder is wherever TMPDIR says, and a space or quote in it must not split the command.
#include <string>

namespace rubric::test {

inline std::string shell_quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace rubric::test
