// The cases file: paths relative to it, the default name beside the rubric, and every mistake an
// error naming the file and the field.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>

#include "calibration/cases_file.hpp"

using namespace rubric;
using namespace rubric::calibration;
namespace fs = std::filesystem;

namespace {

struct Folder {
  fs::path root;
  Folder() {
    root = fs::temp_directory_path() / ("rubric_cases_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    fs::create_directories(root / "subs" / "a");
    fs::create_directories(root / "subs" / "b");
    fs::create_directories(root / "ref");
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(root / name) << text;
    return (root / name).string();
  }
};

std::string error_of(const std::string& path) {
  try {
    read_cases_file(path);
  } catch (const CasesError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("paths are resolved against the cases file's folder; a case's reference overrides the file's") {
  Folder f;
  const std::string path = f.write("t.cases.json", R"({"reference": "ref", "cases": [
    {"name": "a", "submission": "subs/a", "verdict": "pass", "criteria": {"x": "FAIL", "y": "inconclusive"}, "why": "w"},
    {"name": "b", "submission": "subs/b", "verdict": "INCOMPLETE", "reference": "subs/a"}]})");
  const CasesFile c = read_cases_file(path);
  REQUIRE(c.cases.size() == 2);
  CHECK(fs::equivalent(c.cases[0].submission, f.root / "subs" / "a"));
  CHECK(c.cases[0].submission_given == "subs/a");
  CHECK(c.cases[0].reference_given == "ref");
  CHECK(c.cases[1].reference_given == "subs/a");
  CHECK(fs::equivalent(c.cases[0].reference, f.root / "ref"));
  CHECK(fs::equivalent(c.cases[1].reference, f.root / "subs" / "a"));
  CHECK(c.cases[0].verdict == OverallVerdict::pass);
  CHECK(c.cases[1].verdict == OverallVerdict::incomplete);
  REQUIRE(c.cases[0].criteria.size() == 2);
  CHECK(c.cases[0].criteria[0].id == "x");
  CHECK(c.cases[0].criteria[0].verdict == Verdict::fail);
  CHECK(c.cases[0].criteria[1].verdict == Verdict::inconclusive);
  CHECK(c.cases[0].why == "w");
}

TEST_CASE("without a reference the case's reference is empty: the rubric's folder, as rubric check does") {
  Folder f;
  const CasesFile c = read_cases_file(f.write("c.json", R"({"cases": [{"name": "a", "submission": "subs/a", "verdict": "FAIL"}]})"));
  CHECK(c.cases[0].reference.empty());
}

TEST_CASE("each schema mistake names the file and the field") {
  Folder f;
  auto check = [&](const std::string& text, const std::string& field, const std::string& what) {
    const std::string m = error_of(f.write("bad.json", text));
    CAPTURE(text);
    CAPTURE(m);
    CHECK(m.find("bad.json") != std::string::npos);
    CHECK(m.find(field) != std::string::npos);
    CHECK(m.find(what) != std::string::npos);
  };
  check(R"({"cases": []})", "cases", "no case");
  check(R"({"case": []})", "case", "unknown field");
  check(R"([1])", "bad.json", "expected an object");
  check(R"({"cases": [{"submission": "subs/a", "verdict": "PASS"}]})", "cases[0]", "no \"name\"");
  check(R"({"cases": [{"name": "a", "verdict": "PASS"}]})", "cases[0] ('a')", "no \"submission\"");
  check(R"({"cases": [{"name": "a", "submission": "subs/a"}]})", "cases[0] ('a')", "no expected \"verdict\"");
  check(R"({"cases": [{"name": "a", "submission": "subs/a", "verdict": "SKIP"}]})", "verdict", "'SKIP' is not PASS, FAIL");
  check(R"({"cases": [{"name": "a", "submission": "subs/a", "verdict": "PASS", "criteria": {"x": "MAYBE"}}]})",
        "criteria.x", "'MAYBE'");
  check(R"({"cases": [{"name": "a", "submission": "subs/a", "verdict": "PASS", "criteria": ["x"]}]})", "criteria",
        "expected an object");
  check(R"({"cases": [{"name": "a", "submission": "subs/zz", "verdict": "PASS"}]})", "submission", "does not exist");
  check(R"({"cases": [{"name": "a", "submission": "subs/a", "verdict": "PASS"}, {"name": "a", "submission": "subs/b", "verdict": "FAIL"}]})",
        "cases[1] ('a').name", "a second case");
  check(R"({"cases": [{"name": "a", "submission": 3, "verdict": "PASS"}]})", "submission", "expected a string, found number");
  check(R"({"cases": [{"name": "a", "submission": "subs/a", "verdict": "PASS",}]})", "bad.json:1:", "");
}

TEST_CASE("an unreadable cases file is an error naming it") {
  CHECK(error_of("/nonexistent/x.cases.json").find("/nonexistent/x.cases.json") != std::string::npos);
}

TEST_CASE("the default cases file is <stem>.cases.json beside the rubric, else cases.json") {
  Folder f;
  const std::string rubric = f.write("task.rubric", "");
  CHECK_FALSE(find_default_cases_file(rubric).has_value());
  f.write("cases.json", "{}");
  CHECK(fs::path(*find_default_cases_file(rubric)).filename() == "cases.json");
  f.write("task.cases.json", "{}");
  CHECK(fs::path(*find_default_cases_file(rubric)).filename() == "task.cases.json");
}
