// The language's readers on hostile submission files: a FAIL naming the file, never a hang, an
// ERROR blamed on the rubric, or the grader's memory.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include "helpers.hpp"

using namespace rubric;

namespace {

std::string checks(const std::string& body, const rubric::test::TempDir& t) {
  Report r = rubric::test::run_text("rubric \"b\" {}\ncriterion c \"c\" {\n" + body + "\n}\n", t.path + "/sub", t.path + "/ref");
  if (r.criteria.empty()) return r.title;
  std::string out;
  for (const auto& c : r.criteria[0].checks)
    out += fmt::format("[{}] {} {}\n", verdict_name(c.verdict), c.explanation, c.evidence.empty() ? "" : c.evidence[0]);
  return out;
}

}  // namespace

TEST_CASE("a FIFO where text, json, csv or load expects a file FAILs naming it") {
  rubric::test::TempDir t;
  t.dir("ref");
  t.dir("sub");
  for (const char* name : {"answer.md", "r.json", "r.csv", "out.npy"})
    REQUIRE(::mkfifo((t.path + "/sub/" + name).c_str(), 0644) == 0);
  for (const char* call : {"text(submission / \"answer.md\") == \"x\"", "json(submission / \"r.json\").a == 1",
                           "len(csv(submission / \"r.csv\")) == 1", "load(submission / \"out.npy\").shape == [1]"}) {
    std::string out = checks(std::string("expect ") + call, t);
    CAPTURE(out);
    CHECK(out.rfind("[FAIL]", 0) == 0);
    CHECK(out.find("is a named pipe (FIFO), not a regular file") != std::string::npos);
    CHECK(out.find(t.path) == std::string::npos);  // named by its root, not where it lies
  }
}

TEST_CASE("text past its limit FAILs before it is read; the limit is configurable") {
  rubric::test::TempDir t;
  t.dir("ref");
  t.write("sub/answer.md", std::string(17u << 20, 'a'));
  std::string out = checks("expect text(submission / \"answer.md\") != \"\"", t);
  CAPTURE(out);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("submission/answer.md: 17 MiB is more than the 16 MiB limit for text") != std::string::npos);
  CHECK(checks("expect len(text(submission / \"answer.md\", limit = 32 MiB)) == 17825792", t).rfind("[PASS]", 0) == 0);
  CHECK(checks("expect text(submission / \"answer.md\", limit = 3 s) == \"\"", t).find("expected a size") !=
        std::string::npos);
}

TEST_CASE("more than 100,000 entries under a submission folder FAILs files()") {
  rubric::test::TempDir t;
  t.dir("ref");
  t.dir("sub/many");
  for (int d = 0; d < 101; ++d) {
    std::string dir = t.dir(fmt::format("sub/many/d{}", d));
    for (int i = 0; i < 1000; ++i) {
      std::string p = fmt::format("{}/{}", dir, i);
      std::FILE* f = std::fopen(p.c_str(), "w");
      if (f) std::fclose(f);
    }
  }
  std::string out = checks("expect len(files(submission / \"many\")) > 0", t);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("more than 100000 files and folders (the limit for files())") != std::string::npos);
}

TEST_CASE("a CSV of more than 2,000,000 fields FAILs before its records are built") {
  // A 64 MiB file of "1\n" lines read into records took 11 GiB (a few hundred bytes a field).
  rubric::test::TempDir t;
  t.dir("ref");
  std::string tall = "a\n";
  for (int i = 0; i < 2'000'000; ++i) tall += "1\n";
  t.write("sub/tall.csv", tall);
  std::string out = checks("expect len(csv(submission / \"tall.csv\")) > 0", t);
  CAPTURE(out);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("submission/tall.csv:2000001: more than 2000000 fields (the limit for reading a CSV)") != std::string::npos);
  // parse_csv of a program's output has the same bound; within it, a read is whole.
  t.write("sub/ok.csv", "a,b\n" + std::string("1,2\n") + "3,4\n");
  CHECK(checks("expect len(csv(submission / \"ok.csv\")) == 2", t).rfind("[PASS]", 0) == 0);
  std::string wide = "x";
  for (int i = 0; i < 999'999; ++i) wide += fmt::format(",c{}", i);
  t.write("sub/wide.csv", wide + "\n" + std::string(1'999'999, ',') + "\n");
  CHECK(checks("expect len(csv(submission / \"wide.csv\")) == 1", t).find("more than 2000000 fields") != std::string::npos);
}

TEST_CASE("JSON and JSON Lines of more than 8,000,000 values FAIL before they fill the grader's memory") {
  // A 64 MiB array of "1," read into values took 2.5 GB (about 80 bytes a value).
  rubric::test::TempDir t;
  t.dir("ref");
  std::string array = "[";
  for (int i = 0; i < 8'000'000; ++i) array += "1,";
  t.write("sub/big.json", array + "1]");
  std::string out = checks("expect len(json(submission / \"big.json\")) > 0", t);
  CAPTURE(out);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("submission/big.json:1:16000000: more than 8000000 values (the limit for reading JSON)") !=
        std::string::npos);
  // The lines of a JSON Lines file share the bound.
  std::string lines;
  for (int i = 0; i < 4'000'001; ++i) lines += "[1]\n";
  t.write("sub/big.jsonl", lines);
  out = checks("expect len(jsonl(submission / \"big.jsonl\")) > 0", t);
  CAPTURE(out);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("submission/big.jsonl:4000001:1: more than 8000000 values") != std::string::npos);
  t.write("sub/ok.json", "[1, [2, 3], {\"a\": 4}]");
  CHECK(checks("expect len(json(submission / \"ok.json\")) == 3", t).rfind("[PASS]", 0) == 0);
}

TEST_CASE("ncu and prometheus files past their limits FAIL naming the file and the limit") {
  // An 80 MiB kernel name peaked at 1.3 GB read by ncu(), which had no limit; a Prometheus
  // exposition of 500,000 buckets at 737 MiB.
  rubric::test::TempDir t;
  t.dir("ref");
  const std::string header = "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  t.write("sub/ncu.csv", header + "\"0\",\"" + std::string(65u << 20, 'k') + "\",\"S\",\"Duration\",\"ns\",\"5\"\n");
  std::string out = checks("expect len(ncu(submission / \"ncu.csv\")) == 1", t);
  CAPTURE(out);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("submission/ncu.csv: 65.0 MiB is more than the 64 MiB limit for ncu CSV (ncu(p, limit = ...) raises it)") !=
        std::string::npos);
  // Under a raised limit the name is read whole: kernel, function and name are one string.
  t.write("sub/long.csv", header + "\"0\",\"" + std::string(2u << 20, 'k') + "\",\"S\",\"Duration\",\"ns\",\"5\"\n");
  CHECK(checks("let l = ncu(submission / \"long.csv\", limit = 3 MiB)[0]\nexpect len(l.name) == 2097152 and "
               "l.kernel == l.name and l.function == l.name",
               t)
            .rfind("[PASS]", 0) == 0);
  // ncu shares csv()'s bound on fields.
  std::string rows = header;
  for (int i = 0; i < 340'000; ++i) rows += "\"0\",\"k\",\"S\",\"m" + std::to_string(i) + "\",\"ns\",\"5\"\n";
  t.write("sub/tall.csv", rows);
  out = checks("expect len(ncu(submission / \"tall.csv\")) == 1", t);
  CAPTURE(out);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("submission/tall.csv:333334: more than 2000000 fields (the limit for reading a CSV)") != std::string::npos);

  std::string scrape = "# TYPE h histogram\n";
  for (int i = 0; i < 250'000; ++i) scrape += "h_bucket{le=\"" + std::to_string(i) + "\"} " + std::to_string(i) + "\n";
  t.write("sub/metrics.txt", scrape + "h_bucket{le=\"+Inf\"} 250000\n");
  out = checks("expect len(prometheus(submission / \"metrics.txt\").h.series) == 1", t);
  CAPTURE(out);
  CHECK(out.rfind("[FAIL]", 0) == 0);
  CHECK(out.find("submission/metrics.txt:250002: more than 250000 samples (the limit for reading a Prometheus exposition)") !=
        std::string::npos);
  t.write("sub/small.txt", "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\n");
  CHECK(checks("expect len(prometheus(submission / \"small.txt\", limit = 1 KiB).h.series[0].buckets) == 2", t)
            .rfind("[PASS]", 0) == 0);
  out = checks("expect len(prometheus(submission / \"small.txt\", limit = 16 B).h.series) == 1", t);
  CHECK(out.find("60 bytes is more than the 16 bytes limit for Prometheus exposition (prometheus(p, limit = ...) raises it)") !=
        std::string::npos);
}
