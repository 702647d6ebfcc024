#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "fixture.hpp"
#include "operators/error.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/tables/csv_reader.hpp"
#include "operators/tables/profiler_output.hpp"

using namespace rubric;
using namespace rubric::tables;

TEST_CASE("numbers with thousands separators are read only with whole groups of three") {
  CHECK(*parse_number("1,234,567.5", true) == 1234567.5);
  CHECK(*parse_number("-12,345", true) == -12345);
  CHECK(*parse_number("168449", true) == 168449);
  CHECK_FALSE(parse_number("1,234,567.5", false));
  CHECK_FALSE(parse_number("1,23", true));      // a decimal comma is not a thousands separator
  CHECK_FALSE(parse_number("12,3456", true));
  CHECK_FALSE(parse_number("1234,567", true));  // a first group longer than three
  CHECK_FALSE(parse_number(",123", true));
  CHECK_FALSE(parse_number("0x10", true));
  CHECK_FALSE(parse_number("12 ms", true));
  CHECK(*parse_number(" 2.5e3 ", false) == 2500);
  CHECK(std::isinf(*parse_number("-inf", false)));
  CHECK(std::isnan(*parse_number("NaN", false)));
}

TEST_CASE("the header is found after ncu's ==PROF== lines and the program's output") {
  std::string text =
      "==PROF== Connected to process 1 (/bin/app)\n"
      "result: 3, 4\n"
      "\"ID\",\"Kernel Name\",\"Metric Value\"\n"
      "==PROF== Disconnected from process 1\n"
      "\"0\",\"k(int, int)\",\"1,024\"\n";
  CsvOptions o;
  o.preamble = true;
  auto rows = split_rows(text, "p.csv", o);
  REQUIRE(rows.size() == 3);
  std::size_t h = header_index(rows);
  CHECK(h == 1);
  CHECK(rows[h].line == 3);
  CHECK(rows[h + 1].fields[1].text == "k(int, int)");
  CHECK(rows[h + 1].fields[2].quoted);
  CHECK(rows[h + 1].line == 5);
}

TEST_CASE("quotes: doubled quotes, separators and line breaks inside, errors with line and column") {
  CsvOptions o;
  auto rows = split_rows("a,b\n\"x \"\"y\"\", z\",\"two\nlines\"\n", "q.csv", o);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].fields[0].text == "x \"y\", z");
  CHECK(rows[1].fields[1].text == "two\nlines");
  CHECK_THROWS_WITH_AS(split_rows("a,b\n1,\"open\n", "q.csv", o), "q.csv:2:3: a quoted field is not closed", OperatorError);
  CHECK_THROWS_WITH_AS(split_rows("a,b\n\"1\"x,2\n", "q.csv", o), "q.csv:2:4: text after the closing quote of a field",
                       OperatorError);
  o.separator = '\t';
  CHECK(split_rows("a\tb\n1,5\t2\n", "t.tsv", o)[1].fields[0].text == "1,5");
}

TEST_CASE("JSON: Python's non-finite numbers, and JSON Lines with line numbers") {
  auto v = json::parse("{\"a\": NaN, \"b\": Infinity, \"c\": -Infinity, \"d\": [1, -2]}", "x.json");
  CHECK(std::isnan(v.find("a")->as_number()));
  CHECK(v.find("b")->as_number() == INFINITY);
  CHECK(v.find("c")->as_number() == -INFINITY);
  CHECK_THROWS_WITH_AS(json::parse("{\"a\": Inf}", "x.json"), "x.json:1:7: invalid literal (expected 'Infinity')",
                       OperatorError);
  CHECK_THROWS_AS(json::parse("-Inf", "x.json"), OperatorError);
  auto lines = json::parse_lines("{\"a\": 1}\n\n  \n{\"a\": 2}\r\n", "r.jsonl");
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].find("a")->as_number() == 2);
  CHECK_THROWS_WITH_AS(json::parse_lines("{\"a\": 1}\n\n{\"a\": 2,}\n", "r.jsonl"),
                       "r.jsonl:3:9: expected a string key in object", OperatorError);
  CHECK_THROWS_WITH_AS(json::parse_lines("{\"a\": 1} {\"b\": 2}\n", "r.jsonl"),
                       "r.jsonl:1:10: unexpected text after the JSON value", OperatorError);
}

TEST_CASE("a UTF-8 byte-order mark is skipped by every reader; CRLF ends rows") {
  auto rows = split_rows("\xEF\xBB\xBFname,value\r\n\"a, b\",1\r\n", "w.csv", CsvOptions{});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].fields[0].text == "name");
  CHECK(rows[1].fields[0].text == "a, b");
  auto quoted = split_rows("\xEF\xBB\xBF\"name\"\n\"x\"\n", "w.csv", CsvOptions{});
  CHECK(quoted[0].fields[0].text == "name");
  CHECK(quoted[0].fields[0].quoted);
  CHECK(json::parse("\xEF\xBB\xBF{\"a\": 1}\r\n", "w.json").find("a")->as_number() == 1);
  CHECK(json::parse_lines("\xEF\xBB\xBF{\"a\": 1}\r\n{\"a\": 2}\r\n", "w.jsonl").size() == 2);
  // Only at the start: a mark inside is data, and JSON rejects it there.
  CHECK_THROWS_AS(json::parse("{\"a\": 1}\xEF\xBB\xBF", "w.json"), OperatorError);
}

TEST_CASE("a profiler's output is recognised, to name the reader that takes it") {
  auto ncu = recognise_profiler_output(fixture("ncu_2025_b200_details.csv", "wild"));
  REQUIRE(ncu);
  CHECK(ncu->reader == "ncu(p)");
  CHECK(recognise_profiler_output("\"ID\",\"Process ID\",\"Kernel Name\"\n\"0\",\"1\",\"k\"\n")->reader == "ncu(p)");
  CHECK(recognise_profiler_output(fixture("ncu_2025_per_kernel_summary.csv", "wild"))->reader == "ncu(p)");
  auto nsys = recognise_profiler_output(fixture("nsys_stats_all.csv"));
  REQUIRE(nsys);
  CHECK(nsys->reader == "nsys(p, report)");
  CHECK_FALSE(recognise_profiler_output("a,b\n1,2\n"));
  CHECK_FALSE(recognise_profiler_output("ID,Kernel\n1,k\n"));
}
