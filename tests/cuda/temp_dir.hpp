#pragma once
// A private temporary folder for one test, removed afterwards.
#include <stdlib.h>

#include <filesystem>
#include <string>

struct TempDir {
  std::string path;
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "rubric-cuda-test-XXXXXX").string();
    path = ::mkdtemp(t.data()) ? t : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};
