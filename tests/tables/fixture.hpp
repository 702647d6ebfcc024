#pragma once
// The tool-output fixtures the golden cases grade (tests/golden/inputs/sub), read whole; the tests
// run from the build's tests/tables folder.
#include <fstream>
#include <sstream>
#include <string>

inline std::string fixture(const std::string& name) {
  std::ifstream in("../golden/inputs/sub/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
