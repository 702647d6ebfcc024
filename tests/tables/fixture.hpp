#pragma once
// The tool-output fixtures the golden cases grade, read whole: tests/golden/inputs/sub (written
// as the tools write them) or, with folder "wild", files the tools wrote (their SOURCES there);
// the tests run from the build's tests/tables folder.
#include <fstream>
#include <sstream>
#include <string>

inline std::string fixture(const std::string& name, const std::string& folder = "sub") {
  std::ifstream in("../golden/inputs/" + folder + "/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
