#include <algorithm>
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "helpers.hpp"
#include "interpreter/builtins/registry.hpp"

using namespace rubric;
using rubric::test::failures;

namespace {


}  // namespace

TEST_CASE("numbers family") {
  rubric::test::TempDir t;
  t.dir("sub");
  t.dir("ref");
  CHECK(failures(R"(
  expect abs(-2 ms) == 2 ms
  expect min([3, 1, 2]) == 1
  expect max(3 ms, 5 ms) == 5 ms
  expect clamp(7, 0, 5) == 5
  expect round(2.345, 2) == 2.35
  expect sqrt(16) == 4
  expect log(exp(2)) within 1e-12 of 2
  expect geomean([1, 4, 16]) within 1e-12 of 4
  expect f32 == "f32"
)",
                 t) == "");
  std::string bad = failures("expect sqrt(-1) == 1\n expect min([]) == 1\n expect abs(\"x\") == 1", t);
  CHECK(bad.find("'sqrt' needs a number >= 0, got -1") != std::string::npos);
  CHECK(bad.find("'min' of an empty list") != std::string::npos);
  CHECK(bad.find("bad argument #1 to 'abs' (expected a number, got string)") != std::string::npos);
}

TEST_CASE("lists family") {
  rubric::test::TempDir t;
  t.dir("sub");
  t.dir("ref");
  CHECK(failures(R"(
  expect len([1, 2, 3]) == 3
  expect len("abc") == 3
  expect sum([1 ms, 2 ms]) == 3 ms
  expect all([true, true]) and not all([true, false])
  expect any([1, 5], x => x > 4)
  expect count([1, 2, 3, 4], x => x > 2) == 2
  expect map([1, 2], x => x * 10) == [10, 20]
  expect filter(range(6), x => x > 3) == [4, 5]
  expect range(2, 8, 3) == [2, 5]
  expect sort([3, 1, 2]) == [1, 2, 3]
  expect sort(["b", "a"]) == ["a", "b"]
  expect sort([{n: 2}, {n: 1}], key = r => r.n)[0].n == 1
  expect keys({a: 1, b: 2}) == ["a", "b"]
  expect has({a: 1}, "a")
  expect [1, 2][-1] == 2
)",
                 t) == "");
  // NaN sorts last, as numpy's sort puts it, so the last item is the largest number or NaN.
  t.write("sub/errors.json", "[5.0, NaN, 0.0001, 2]");
  CHECK(failures(R"(
  let e = sort(json(submission / "errors.json"))
  expect e[0] == 0.0001 and e[1] == 2 and e[2] == 5
  expect "{e[3]}" == "nan"
)",
                 t) == "");
  std::string bad = failures("expect [1][3] == 1\n expect sort([1, \"a\"]) == []", t);
  CHECK(bad.find("index 3 out of range: the list has 1 item") != std::string::npos);
  CHECK(bad.find("'sort': cannot order") != std::string::npos);
}

TEST_CASE("text family") {
  rubric::test::TempDir t;
  t.dir("ref");
  t.write("sub/log.txt", "run 1: 1,234.5 tok/s\nrun 2: 1200 tok/s\r\n");
  CHECK(failures(R"X(
  let log = text(submission / "log.txt")
  expect regex(log, r"\d+ tok/s")
  expect not regex(log, "GB/s")
  expect find(log, r"run (\d): ([0-9.,]+)") == [["1", "1,234.5"], ["2", "1200"]]
  expect find(log, r"tok/s") == ["tok/s", "tok/s"]
  expect lines(log) == ["run 1: 1,234.5 tok/s", "run 2: 1200 tok/s"]
  expect numbers(log) == [1, 1234.5, 2, 1200]
  expect split("a,b", ",") == ["a", "b"]
  expect join([1, 2], "-") == "1-2"
  expect trim("  x ") == "x"
  expect lower("AbC") == "abc"
)X",
                 t) == "");
  CHECK(failures("expect regex(\"x\", \"(\")", t).find("invalid regular expression") != std::string::npos);
}

TEST_CASE("files family: json, text, csv, exists, files") {
  rubric::test::TempDir t;
  t.dir("ref");
  t.write("sub/r.csv", "name,tput,label\nbase,100,\"a, b\"\ncand,95.5,x\n");
  t.write("sub/bad.csv", "a,b\n1\n");
  t.write("sub/k/a.cu", "x");
  t.write("sub/k/b.cu", "y");
  t.write("sub/k/c.txt", "z");
  t.write("sub/bad.json", "{\"a\": 1,}");
  CHECK(failures(R"(
  let rows = csv(submission / "r.csv")
  expect len(rows) == 2
  expect rows[1].tput == 95.5
  expect rows[0].label == "a, b"
  expect exists(submission / "k")
  expect not exists(submission / "nope")
  expect map(files(submission / "k", "*.cu"), p => "{p}") == ["submission/k/a.cu", "submission/k/b.cu"]
)",
                 t) == "");
  std::string bad = failures("expect len(csv(submission / \"bad.csv\")) == 1\n expect json(submission / \"bad.json\").a == 1", t);
  CHECK(bad.find("bad.csv:2: row has 1 fields, the header (line 1) has 2") != std::string::npos);
  CHECK(bad.find("malformed JSON") != std::string::npos);
  CHECK(bad.find("[FAIL]") != std::string::npos);  // the submission's file: FAIL, not ERROR
}

TEST_CASE("csv: only finite numbers become numbers, so NaN cannot pass a negated comparison") {
  rubric::test::TempDir t;
  t.dir("ref");
  t.write("sub/e.csv", "name,err\na,NaN\nb,nan\nc,Inf\nd,-INFINITY\ne,1e999\nf,0x10\ng,0.5\n");
  std::string out = failures("for r in csv(submission / \"e.csv\") { expect not (r.err > 1e-3) }", t);
  // Every non-finite spelling stays text: the comparison is not decided and FAILs the submission;
  // 0.5 > 1e-3 is decided true, so its negation fails too.
  std::size_t texts = 0;
  for (std::size_t at = out.find("cannot compare a string with a number"); at != std::string::npos;
       at = out.find("cannot compare a string with a number", at + 1))
    ++texts;
  CHECK(texts == 6);
  CHECK(std::count(out.begin(), out.end(), '\n') == 7);
  CHECK(out.find("[PASS]") == std::string::npos);
}

TEST_CASE("units family and doc") {
  rubric::test::TempDir t;
  t.dir("sub");
  t.dir("ref");
  CHECK(failures("expect convert(2.5 ms, \"us\") == 2500\n expect unit_of(3 GB/s) == \"B/s\"", t) == "");
  Engine e;
  std::string d = e.doc();
  CHECK(d.find("- `clamp(x, lo, hi)`") != std::string::npos);
  CHECK(d.find("## std.serving") != std::string::npos);
  CHECK(d.find("vllm_bench(path)") != std::string::npos);
  CHECK(e.doc("std.text").find("answer_names(t, phrases, at_least = 1)") != std::string::npos);
  // A concept declaration is listed as a concept, with its `##` doc, not as a let.
  const std::string concepts = e.doc("std.concepts");
  CHECK(concepts.find("- concept `bank_conflict`\n    Shared-memory bank conflicts") != std::string::npos);
  CHECK(concepts.find("- let `") == std::string::npos);
  bool found = true;
  CHECK(e.doc("nothing", &found).find("no module or builtin family 'nothing'") != std::string::npos);
  CHECK_FALSE(found);
  CHECK(!e.doc("std.perf", &found).empty());
  CHECK(found);
}

TEST_CASE("doc of one builtin, of a name a standard module declares, and of a rubric file") {
  Engine e;
  bool found = false;
  const std::string samples = e.doc("samples", &found);
  CHECK(found);
  CHECK(samples.find("## builtin samples (statistics)") == 0);
  CHECK(samples.find("- `samples(xs, description = \"\")`") != std::string::npos);
  CHECK(e.doc("no_slowdown", &found).find("'no_slowdown' is in std.perf (use std.perf)") == 0);
  CHECK(found);
  rubric::test::TempDir t;
  const std::string task = t.write("task.rubric",
         "rubric \"t\" { version: \"1.0\" }\n## The candidate's result.\nlet r = json(submission / \"r.json\")\n"
         "group g \"all\" weight 2 {\n  criterion fast \"fast\" weight 3 required { expect r.x > 1 }\n}\n");
  const std::string file = e.doc(task, &found);
  CHECK(found);
  CHECK(file.find("- let `r`\n    The candidate's result.") != std::string::npos);
  CHECK(file.find("- group `g` \"all\" weight 2\n  - criterion `fast` \"fast\" weight 3 required\n") != std::string::npos);
  e.doc(t.path + "/absent.rubric", &found);
  CHECK_FALSE(found);
}

TEST_CASE("tool outputs are parsed once per run: ncu, prometheus, jsonl and csv return the cached value") {
  // A second call with the same path and options returns the very value the first one parsed
  // (the same payload), not a fresh parse; different options parse again.
  EngineOptions o;
  Engine e(o);
  e.register_operator({"same_parse", {"a", "b"}, "true when both values share one parsed payload",
                       [](CallContext&, const std::vector<Value>& a) {
                         if (a[0].is(ValueKind::list) && a[1].is(ValueKind::list))
                           return Value::boolean(&a[0].as_list() == &a[1].as_list());
                         if (a[0].is(ValueKind::record) && a[1].is(ValueKind::record))
                           return Value::boolean(&a[0].as_record() == &a[1].as_record());
                         return Value::boolean(false);
                       }});
  auto diags = test::load_text(e, R"(
rubric "cache" {}
let sub = submission
criterion once "each file parsed once" {
  expect same_parse(ncu(sub / "ncu_details.csv"), ncu(submission / "ncu_details.csv"))
  expect same_parse(prometheus(sub / "metrics.prom"), prometheus(submission / "metrics.prom"))
  expect same_parse(jsonl(sub / "sglang_bench.jsonl"), jsonl(submission / "sglang_bench.jsonl"))
  expect same_parse(csv(sub / "ncu_raw.csv", preamble = true), csv(submission / "ncu_raw.csv", preamble = true))
}
criterion again "a later criterion gets the same value" {
  expect len(ncu(submission / "ncu_details.csv")) > 0
}
criterion options "other options are another parse" {
  expect not same_parse(csv(sub / "ncu_raw.csv", preamble = true), csv(sub / "ncu_raw.csv", preamble = true, thousands = true))
}
)");
  REQUIRE_MESSAGE(!has_errors(diags), test::all_messages(diags));
  Report r = e.check("../golden/inputs/sub", "../golden/inputs/ref");
  REQUIRE(r.criteria.size() == 3);
  for (const auto& c : r.criteria)
    for (const auto& ch : c.checks) CHECK_MESSAGE(ch.verdict == Verdict::pass, c.id, ": ", ch.source_text, " → ", ch.explanation);
}

TEST_CASE("what a builtin declares it needs decides what a criterion calling it needs") {
  Engine e;
  auto host = [](const char* name, BuiltinNeeds needs) {
    Builtin b;
    b.name = name;
    b.family = "host";
    b.needs = needs;
    b.fn = [](CallContext&, const std::vector<Value>&) { return Value::boolean(true); };
    return b;
  };
  e.registry().add(host("on_device", BuiltinNeeds::device(BuiltinNeeds::Gpu::always)));
  e.registry().add(host("asks", BuiltinNeeds::the_judge()));
  e.registry().add(host("plain", BuiltinNeeds{}));
  auto diags = test::load_text(e, R"(rubric "needs" {}
def through_def() = on_device()
criterion direct "" { expect on_device() }
criterion indirect "" { expect through_def() }
criterion judged "" { expect asks() }
criterion neither "" { expect plain() }
)");
  REQUIRE_MESSAGE(!has_errors(diags), test::all_messages(diags));
  std::string gpu_notes;
  for (const auto& d : diags)
    if (d.severity == Severity::note) gpu_notes += d.message + "\n";
  CHECK(gpu_notes.find("criterion 'direct' uses the GPU (on_device)") != std::string::npos);
  CHECK(gpu_notes.find("criterion 'indirect' uses the GPU (on_device)") != std::string::npos);
  CHECK(gpu_notes.find("'judged'") == std::string::npos);
  CHECK(gpu_notes.find("'neither'") == std::string::npos);
  const auto judge_notes = e.needs_notes();
  REQUIRE(judge_notes.size() == 1);
  CHECK(judge_notes[0].message.rfind("criterion 'judged' asks a judge", 0) == 0);
}
