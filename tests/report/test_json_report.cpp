#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include <fmt/format.h>
#include <unistd.h>

#include "grammar/source.hpp"
#include "operators/json/json_reader.hpp"
#include "report/json_report.hpp"
#include "report/json_writer.hpp"
#include "sample_reports.hpp"
#include "tests/shell_quote.hpp"

namespace fs = std::filesystem;
using namespace rubric;

TEST_CASE("json strings: quotes, backslashes, control characters, UTF-8") {
  using report::json_quote;
  CHECK(json_quote("plain") == "\"plain\"");
  CHECK(json_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_quote("l1\nl2\tx\r") == "\"l1\\nl2\\tx\\r\"");
  CHECK(json_quote(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
  CHECK(json_quote(std::string("nul\0x", 5)) == "\"nul\\u0000x\"");
  CHECK(json_quote("µs × 🚀") == "\"µs × 🚀\"");
  // A byte that is not UTF-8 is escaped as Python's surrogateescape writes it, so two names that
  // differ only there stay distinct, and reading the JSON back gives the bytes again.
  CHECK(json_quote("\xff") == "\"\\udcff\"");
  CHECK(json_quote("\xC0\xAF") == "\"\\udcc0\\udcaf\"");  // overlong '/' is not UTF-8
  for (std::string raw : {std::string("x\xff"), std::string("x\xfe"), std::string("caf\xe9 \xC0\xAF ok \xF0\x9F\x9A\x80")})
    CHECK(json::parse(json_quote(raw), "test").as_string() == raw);
  CHECK_THROWS(json::parse("\"\\udc20\"", "test"));  // not an escaped byte: a lone surrogate stays an error
}

TEST_CASE("json writer: nesting, empty containers, non-finite numbers") {
  report::JsonWriter w;
  w.begin_object();
  w.key("a");
  w.begin_array();
  w.end_array();
  w.key("b");
  w.value(std::numeric_limits<double>::quiet_NaN());
  w.key("c");
  w.value(0.1);
  w.key("d");
  w.value(std::optional<double>{});
  w.end_object();
  CHECK(w.str() == "{\n  \"a\": [],\n  \"b\": null,\n  \"c\": 0.1,\n  \"d\": null\n}\n");
}

TEST_CASE("json report parses with Python's json module and follows the documented schema") {
  Report r = test::kv_cache_report();
  CheckResult tricky = test::make_check("x == \"a\tb\"\n  and y", Verdict::fail, 41,
                                        {std::string("ctl \x01\x1f\x7f end"), "bad \xff byte", "emoji 🚀 ok",
                                         "back\\slash \"q\""});
  r.criteria[3].checks.push_back(tricky);
  auto source = std::make_shared<const SourceFile>("kv.rubric", "rubric \"x\" {}\nlet unused = 1\n");
  Diagnostic warning;
  warning.severity = Severity::warning;
  warning.source = source;
  warning.range = {18, 24};
  warning.message = "'unused' is never used";
  r.warnings.push_back(warning);

  const fs::path dir = fs::temp_directory_path() / fmt::format("rubric-json-{}", getpid());
  fs::create_directories(dir);
  const fs::path file = dir / "report.json";
  {
    std::ofstream out(file, std::ios::binary);
    out << report::format_json(r);
  }
  const std::string command =
      fmt::format("/usr/bin/python3 {} {} > {} 2>&1", rubric::test::shell_quote(RUBRIC_REPORT_TEST_DIR "/check_json_report.py"),
                  rubric::test::shell_quote(file.string()), rubric::test::shell_quote((dir / "py.txt").string()));
  const int status = std::system(command.c_str());
  std::ifstream py(dir / "py.txt");
  const std::string py_output((std::istreambuf_iterator<char>(py)), std::istreambuf_iterator<char>());
  INFO(py_output);
  CHECK(status == 0);
  CHECK(py_output == "ok\n");
  fs::remove_all(dir);
}
