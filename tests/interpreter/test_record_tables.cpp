// A JSON list of records of one shape is held as a table (RecordTable): whatever a rubric does
// with it must give what the records themselves would.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>

#include "helpers.hpp"
#include "interpreter/builtins/json_value.hpp"
#include "operators/json/json_reader.hpp"

using namespace rubric;
using rubric::test::failures;

namespace {

// Every list and record of `v`, recursively, as text with its origin and marks: two values that
// print the same here are the same to every check and message.
std::string spelled_out(const Value& v) {
  std::string marks = v.from_submission() ? "*" : "";
  if (v.is(ValueKind::list)) {
    std::string s = "[" + v.list_what() + "|" + v.list_none() + marks + ":";
    for (const Value& x : v.as_list()) s += spelled_out(x) + ",";
    return s + "]";
  }
  if (v.is(ValueKind::record)) {
    std::string s = "{" + v.as_record().origin.str() + marks + ":";
    for (const auto& f : v.as_record().fields) s += f.first + "=" + spelled_out(f.second) + ",";
    return s + "}";
  }
  return v.repr() + marks;
}

// The value the fast reader builds (tables where it can) against the one the plain reader builds.
void same_as_plain_reader(const std::string& text, bool expect_table) {
  CAPTURE(text);
  for (const std::string origin : {"submission/r.json", "reference/r.json"}) {
    auto fast = builtins::value_from_json_text(text, origin, 0);
    REQUIRE(fast);
    Value plain = builtins::value_from_json(json::parse(text, origin), origin);
    CHECK(spelled_out(*fast) == spelled_out(plain));
    CHECK(structurally_equal(*fast, plain));
    CHECK(fast->to_string() == plain.to_string());
    const Value& rows = fast->is(ValueKind::record) ? *fast->as_record().find("rows") : *fast;
    CHECK(static_cast<bool>(rows.table_view()) == expect_table);
  }
}


// Padding past 64 bytes: shorter documents are read by the plain reader.
const std::string kPad = R"(, "padding": "................................................................")";

}  // namespace

TEST_CASE("a list of records of one shape reads as a table that is the same value as its records") {
  same_as_plain_reader(R"({"rows": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, {"a": 3, "b": "x"}])" + kPad + "}", true);
  same_as_plain_reader(R"([{"a": 1, "m": {"k": [1, 2]}}, {"a": 2, "m": {"k": []}}, {"a": 3, "m": null}])", true);
  same_as_plain_reader(R"([{}, {}, {}, {"padding": "................................................................"}])", false);
  same_as_plain_reader(R"({"rows": [{}, {}, {}])" + kPad + "}", true);
}

TEST_CASE("a record that breaks the shape turns the table back into the records read so far") {
  // A key renamed, reordered, added or left out, in the first row or a later one; an item that is
  // no record; a record nested in a row that breaks nothing.
  for (const std::string rows : {
           R"([{"a": 1, "b": 2}, {"a": 3, "c": 4}, {"a": 5, "b": 6}])",
           R"([{"a": 1, "b": 2}, {"b": 3, "a": 4}])",
           R"([{"a": 1, "b": 2}, {"a": 3, "b": 4, "c": 5}, {"a": 5, "b": 6}])",
           R"([{"a": 1, "b": 2}, {"a": 3}, {"a": 5, "b": 6}])",
           R"([{"a": 1, "b": 2}, {}, {"a": 5, "b": 6}])",
           R"([{"a": 1, "b": 2}, 7, {"a": 5, "b": 6}])",
           R"([7, {"a": 1, "b": 2}, {"a": 5, "b": 6}])",
           R"([{"a": 1, "b": 2}, {"a": 3, "b": {"a": 1, "c": [{"x": 1}, {"y": 2}]}}, [1]])",
       })
    same_as_plain_reader(R"({"rows": )" + rows + kPad + "}", false);
  // A nested list that breaks its own shape leaves the outer table whole.
  same_as_plain_reader(R"({"rows": [{"a": {"b": [{"c": 1}, {"c": 2}]}}, {"a": {"b": [{"c": 3}, {"d": 4}]}}])" + kPad + "}", true);
  same_as_plain_reader(R"({"rows": [{"a": {"b": [{"c": 1}, {"c": 2}]}}, {"a": {"b": [{"c": 3}]}}])" + kPad + "}", true);
}

TEST_CASE("checks over a table: fields in place, records whole where needed, messages as before") {
  rubric::test::TempDir t;
  t.dir("ref");
  t.write("sub/r.json", R"({"rows": [{"id": 0, "ms": 12.5, "ok": true, "model": "a"},
                                     {"id": 1, "ms": 40, "ok": false, "model": "b"},
                                     {"id": 2, "ms": 7, "ok": true, "model": "a"}]})");
  t.write("ref/r.json", R"({"rows": [{"id": 0, "ms": 10}, {"id": 1, "ms": 30}, {"id": 2, "ms": 8}]})");
  CHECK(failures(R"(
  let rows = json(submission / "r.json").rows
  let base = json(reference / "r.json").rows
  expect len(rows) == 3 and count(rows, r => r.ok) == 2
  expect map(rows, r => r.ms) == [12.5, 40, 7]
  expect len(filter(rows, r => r.ms < 20)) == 2
  expect filter(rows, r => r.model == "a")[1].id == 2
  expect map(filter(rows, r => not r.ok), r => r) == [{id: 1, ms: 40, ok: false, model: "b"}]
  expect rows[1] == {id: 1, ms: 40, ok: false, model: "b"}
  expect all(rows, r => has(r, "model")) and any(rows, r => r.ms > 30)
  expect sort(rows, key = r => r.ms)[0].id == 2
  expect keys(rows[0]) == ["id", "ms", "ok", "model"]
  expect map(map(rows, r => (() => r.id)), f => f()) == [0, 1, 2]
  expect sum(map(base, b => b.ms)) == 48
  expect count(base, b => b.ms < rows[0].ms) == 2
)",
                 t) == "");
  // A missing key names the row, as the record's message would; it is the submission's FAIL.
  std::string bad = failures("expect count(json(submission / \"r.json\").rows, r => r.mss > 1) == 0", t);
  CHECK(bad.find("no key 'mss' in submission/r.json.rows[0] (did you mean 'ms'?)") != std::string::npos);
  CHECK(bad.find("[FAIL]") != std::string::npos);
  bad = failures("expect len(filter(json(reference / \"r.json\").rows, r => r.nope)) == 0", t);
  CHECK(bad.find("no key 'nope' in reference/r.json.rows[0]") != std::string::npos);
  CHECK(bad.find("[ERROR]") != std::string::npos);
  bad = failures("expect count(json(submission / \"r.json\").rows, r => r.ms) == 0", t);
  CHECK(bad.find("returned a number") != std::string::npos);
}

TEST_CASE("a wide first record before a long array reserves no more than the reader would read") {
  // 5,000 keys, then 2,000,000 numbers: room for every key in every row would be hundreds of GB.
  rubric::test::TempDir t;
  t.dir("ref");
  std::string text = "[{";
  for (int k = 0; k < 5000; ++k) text += fmt::format("{}\"k{}\": 0", k ? ", " : "", k);
  text += "}";
  for (int i = 0; i < 2'000'000; ++i) text += ", 0";
  t.write("sub/wide.json", text + "]");
  // Under an address-space limit, as a grading machine may set one: reserving that room fails.
  rlimit before{};
  REQUIRE(::getrlimit(RLIMIT_AS, &before) == 0);
  rlimit capped = before;
  capped.rlim_cur = std::min<rlim_t>(before.rlim_max, rlim_t{16} << 30);
  REQUIRE(::setrlimit(RLIMIT_AS, &capped) == 0);
  const std::string failed = failures("expect len(json(submission / \"wide.json\")) == 2000001\n expect json(submission / \"wide.json\")[0].k4999 == 0", t);
  ::setrlimit(RLIMIT_AS, &before);
  CHECK(failed == "");
}

TEST_CASE("reading a row's fields in place costs the steps and depth that evaluating them would") {
  // One file is a table; the other is the same rows with one more key in its last record, so it
  // stays a list of records. Whatever runs out of budget or depth must run out alike over both.
  rubric::test::TempDir t;
  const std::string sub = t.dir("sub"), ref = t.dir("ref");
  std::string table = "[", plain = "[";
  for (int i = 0; i < 20000; ++i) {
    const std::string row = fmt::format("{}{{\"a\": {}, \"b\": 2", i ? ", " : "", i % 5);
    table += row + "}";
    plain += row + (i == 19999 ? ", \"c\": 0}" : "}");
  }
  t.write("sub/table.json", table + "]");
  t.write("sub/plain.json", plain + "]");
  auto outcome = [&](const std::string& file, const std::string& check, std::uint64_t budget) {
    EngineOptions o;
    o.step_budget = budget;
    Report r = rubric::test::run_text("rubric \"b\" {}\nlet rows = json(submission / \"" + file + "\")\n" + check, sub, ref, o);
    REQUIRE(r.criteria.size() == 1);
    return fmt::format("{} {}", verdict_name(r.criteria[0].verdict), r.criteria[0].checks.back().explanation);
  };
  for (const char* lambda : {"r => r.a", "r => r.a + r.b", "r => { let x = r.a; x > 1 }"})
    for (std::uint64_t budget : {50000, 90000, 150000}) {
      CAPTURE(lambda);
      CAPTURE(budget);
      const std::string check = fmt::format("criterion c \"c\" {{ expect len(map(rows, {})) == 20000 }}\n", lambda);
      CHECK(outcome("table.json", check, budget) == outcome("plain.json", check, budget));
    }
  // A lambda nested just inside the expression depth limit (3000 levels) by a recursion.
  for (int inner = 25; inner <= 40; ++inner) {
    CAPTURE(inner);
    const std::string minus(static_cast<std::size_t>(inner), '-');
    const std::string check = "def f(n) = if n <= 0 then count(rows, r => " + minus + "r.a != 9) else " + std::string(50, '-') +
                              "f(n - 1)\ncriterion c \"c\" { expect f(57) > 0 }\n";
    CHECK(outcome("table.json", check, 20'000'000) == outcome("plain.json", check, 20'000'000));
  }
}
