// The strict JSON reader: values, key order, dotted paths, and errors with line:column.
#include "operators/json/json_reader.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <fmt/format.h>

#include <time.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <fstream>

#include "operators/error.hpp"

namespace json = rubric::json;

TEST_CASE("parses every kind of value and keeps key order") {
  auto v = json::parse(R"( {"b": 1, "a": [true, false, null, -0.5e2, "x\u00e9\ud83d\ude00\n"], "c": {}} )", "t.json");
  REQUIRE(v.is_object());
  CHECK(json::key_list(v) == "b, a, c");
  const auto& arr = v.find("a")->as_array();
  REQUIRE(arr.size() == 5);
  CHECK(arr[0].as_bool());
  CHECK(arr[2].is_null());
  CHECK(arr[3].as_number() == -50.0);
  CHECK(arr[4].as_string() == "x\xc3\xa9\xf0\x9f\x98\x80\n");
  CHECK(v.find("c")->as_object().empty());
}

TEST_CASE("what only the careful reader takes reads the same as ever: NaN, -0, escaped and raw non-UTF-8 bytes") {
  auto v = json::parse("{\"a\": [NaN, -Infinity, -0, 0, -0.0, 18446744073709551617, 9007199254740993, 1e-320]}", "t.json");
  const auto& a = v.find("a")->as_array();
  CHECK(std::isnan(a[0].as_number()));
  CHECK(a[1].as_number() == -INFINITY);
  CHECK(std::signbit(a[2].as_number()));
  CHECK(!std::signbit(a[3].as_number()));
  CHECK(std::signbit(a[4].as_number()));
  CHECK(a[5].as_number() == 18446744073709551616.0);
  CHECK(a[6].as_number() == 9007199254740992.0);  // the nearest double, as strtod reads it
  CHECK(a[7].as_number() == 1e-320);
  CHECK(json::parse(R"(["\udc80x"])", "t.json").as_array()[0].as_string() == "\x80x");
  CHECK(json::parse("[\"caf\xe9\"]", "t.json").as_array()[0].as_string() == "caf\xe9");
  CHECK(std::signbit(json::parse("{\"label\": \"gpu-0 of the first node in the cluster\", \"n\": -0}", "t.json").find("n")->as_number()));
  // The same numbers read by the fast reader (no "-0" integer, 64 bytes and more).
  auto fast = json::parse("{\"label\": \"gpu-0\", \"a\": [-0.0, 18446744073709551617, 9007199254740993, 1e-320, 0]}", "t.json");
  const auto& b = fast.find("a")->as_array();
  CHECK(std::signbit(b[0].as_number()));
  CHECK(b[1].as_number() == 18446744073709551616.0);
  CHECK(b[2].as_number() == 9007199254740992.0);
  CHECK(b[3].as_number() == 1e-320);
  CHECK(!std::signbit(b[4].as_number()));
}

TEST_CASE("the value limit and the depth limit hold whichever reader reads the document") {
  std::string many = "[";
  for (int i = 0; i < 100; ++i) many += (i ? ",1" : "1");
  many += "]";
  CHECK(json::parse(many, "t.json", 101).as_array().size() == 100);
  CHECK_THROWS_WITH_AS(json::parse(many, "t.json", 100), doctest::Contains("more than 100 values"), rubric::OperatorError);
  const std::string deep = std::string(600, '[') + std::string(600, ']');
  CHECK_THROWS_WITH_AS(json::parse(deep, "deep.json"), doctest::Contains("deep.json:1:"), rubric::OperatorError);
  const std::string fine = std::string(400, '[') + std::string(400, ']');
  CHECK(json::parse(fine, "t.json").is_array());
  // Long enough (64 bytes) for the fast reader, which hands a duplicate to the careful one.
  CHECK_THROWS_WITH_AS(json::parse("{\"a\": 1, \"padding\": \"................................................\",\n \"a\": 2}", "d.json"),
                       doctest::Contains("d.json:2:2: duplicate key 'a'"), rubric::OperatorError);
}

TEST_CASE("dotted paths reach nested fields and array elements") {
  auto v = json::parse(R"({"metrics": {"output_throughput": 2210.5, "runs": [{"t": 1}, {"t": 2}]}})", "t.json");
  CHECK(json::find_path(v, "metrics.output_throughput")->as_number() == 2210.5);
  CHECK(json::find_path(v, "metrics.runs.1.t")->as_number() == 2.0);
  CHECK(json::find_path(v, "metrics.missing") == nullptr);
  CHECK(json::find_path(v, "metrics.runs.7") == nullptr);
}

TEST_CASE("malformed JSON names the source, line and column") {
  auto error_of = [](const char* text) {
    try {
      json::parse(text, "bench.json");
    } catch (const rubric::OperatorError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("{\"a\": 1,}") == "bench.json:1:9: expected a string key in object");
  CHECK(error_of("{\n  \"a\": 01\n}") == "bench.json:2:9: leading zero in number");
  CHECK(error_of("[1, 2") == "bench.json:1:6: expected ',' or ']' in array");
  CHECK(error_of("{\"a\": nan}") == "bench.json:1:7: invalid literal (expected 'null')");  // Python writes NaN, not nan
  CHECK(error_of("{\"a\": Nan}") == "bench.json:1:7: invalid literal (expected 'NaN')");
  CHECK(error_of("{\"a\": 1} x") == "bench.json:1:10: unexpected text after the JSON value");
  CHECK(error_of("\"tab\there\"") == "bench.json:1:5: control character in string (must be escaped)");
  CHECK(error_of("{\"a\": 1, \"a\": 2}") == "bench.json:1:10: duplicate key 'a'");
  CHECK(error_of("") == "bench.json:1:1: unexpected end of input, expected a value");
  CHECK(error_of("tru") == "bench.json:1:1: invalid literal (expected 'true')");
  CHECK(error_of("\"\\ud800\"") == "bench.json:1:8: high surrogate not followed by a low surrogate");
  CHECK(error_of("1e999") == "bench.json:1:1: number 1e999 out of range");
  CHECK(error_of(std::string(600, '[').c_str()).find("nesting deeper than 512 levels") != std::string::npos);
}

namespace {
std::string parse_error(const std::string& text) {
  try {
    json::parse(text, "bench.json");
  } catch (const rubric::OperatorError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a duplicate key in a large object is found where a scan per key would find it") {
  // Objects past 16 keys are checked once, sorted; the message must not change with the size.
  std::string text = "{";
  for (int i = 0; i < 40; ++i) text += fmt::format("{}\"k{}\": {}", i ? ", " : "", i, i);
  CHECK_NOTHROW(json::parse(text + "}", "big.json"));
  // k7 repeated, then k3, then k7 again: the first repeat in file order is reported.
  std::string dup = text + ", \"k7\": 0, \"k9\\u0030\": 1, \"k3\": 2, \"k7\": 3}";
  const std::size_t at = dup.find("\"k7\": 0");
  CHECK(parse_error(dup) == fmt::format("bench.json:1:{}: duplicate key 'k7'", at + 1));
  // Keys are compared decoded: "k9\\u0030" is "k90", not a duplicate of k9.
  CHECK_NOTHROW(json::parse(text + ", \"k9\\u0030\": 1}", "big.json"));
  CHECK(parse_error(text + ", \"k\\u0039\": 1}").find("duplicate key 'k9'") != std::string::npos);
}

TEST_CASE("an object of 400,000 keys parses in linear-logarithmic time") {
  // A submission's JSON (a bench file, a safetensors header, a program's stdout) with many keys:
  // a scan per key took 30 s for 200,000 keys and grows with the square; sorted, it takes
  // a fraction of a second. The bound is generous, and on this thread's CPU time: a loaded machine
  // stretches the wall time, not the work.
  std::string text = "{";
  for (int i = 0; i < 400000; ++i) text += fmt::format("{}\"key{}\":{}", i ? "," : "", i, i);
  text += "}";
  timespec t0{}, t1{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  json::Value v = json::parse(text, "many.json");
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  const double seconds = double(t1.tv_sec - t0.tv_sec) + double(t1.tv_nsec - t0.tv_nsec) / 1e9;
  MESSAGE("400,000 keys parsed in " << seconds << " s of CPU time");
  CHECK(v.as_object().size() == 400000);
  CHECK(seconds < 20.0);
  text.back() = ',';
  text += "\"key399999\":0}";
  CHECK(parse_error(text).find("duplicate key 'key399999'") != std::string::npos);
}

TEST_CASE("read_file parses a file and names an unreadable one") {
  const std::string path = "/tmp/rubric-json-test-" + std::to_string(::getpid()) + ".json";
  { std::ofstream(path) << "{\"duration\": 12.5}\n"; }
  CHECK(json::read_file(path).find("duration")->as_number() == 12.5);
  std::remove(path.c_str());
  CHECK_THROWS_WITH_AS(json::read_file("/nonexistent/x.json"), "/nonexistent/x.json: cannot be read: No such file or directory",
                       rubric::OperatorError);
}

TEST_CASE("accessors name the expected and actual kinds") {
  auto v = json::parse("[1]", "t");
  CHECK_THROWS_WITH_AS(v.as_object(), "expected a JSON object, found array", rubric::OperatorError);
}
