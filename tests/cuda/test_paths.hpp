#pragma once
// Where this folder's data lives, whatever the working directory ctest uses.
#include <string>

inline std::string test_path(const std::string& relative) { return std::string(RUBRIC_CUDA_TEST_DIR) + "/" + relative; }
