// bench(): samples from repeated runs, and a failing run failing the whole bench with its reason.
#include "operators/process/bench_runs.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "operators/error.hpp"
#include "test_support.hpp"

using rubric::process::BenchSpec;
using rubric::process::RunSpec;
using rubric::process::bench;

namespace {
BenchSpec shell_bench(const std::string& command, int warmup, int repeat, std::string metric) {
  BenchSpec spec;
  spec.run = RunSpec::shell(command);
  spec.warmup = warmup;
  spec.repeat = repeat;
  spec.metric = std::move(metric);
  return spec;
}
}  // namespace

TEST_CASE("good JSON gives one sample per recorded run, warm-ups excluded") {
  auto spec = shell_bench("echo '{\"metrics\": {\"output_throughput\": 1000.5, \"n\": 1}, \"ok\": true}'", 2, 4,
                          "metrics.output_throughput");
  auto r = bench(spec);
  REQUIRE(r.ok);
  CHECK(r.failure.empty());
  CHECK(r.samples == std::vector<double>{1000.5, 1000.5, 1000.5, 1000.5});
  CHECK(r.runs.size() == 6);
  CHECK(r.unit.empty());
}

TEST_CASE("a bench keeps the output of its failing run only: a program printing megabytes a run cannot fill the grader") {
  // 4 MiB on each stream per run: kept for every run, 30 runs held 500 MB of the grader's memory.
  auto spec = shell_bench("head -c 4194304 /dev/zero | tr '\\0' e >&2; "
                          "printf '{\"t\": 2, \"pad\": \"'; head -c 4194304 /dev/zero | tr '\\0' x; printf '\"}'",
                          1, 3, "t");
  auto r = bench(spec);
  REQUIRE(r.ok);
  CHECK(r.samples == std::vector<double>{2, 2, 2});
  REQUIRE(r.runs.size() == 4);
  for (const auto& run : r.runs) {
    CHECK(run.stdout_text.capacity() < 4096);
    CHECK(run.stderr_text.capacity() < 4096);
    CHECK(run.succeeded());
  }
  // A failing run keeps what it printed, for the failure's stderr tail.
  auto failing = bench(shell_bench("echo '{\"t\": 1}'; echo 'boom' >&2; exit 4", 0, 2, "t"));
  CHECK_FALSE(failing.ok);
  REQUIRE(failing.runs.size() == 1);
  CHECK(failing.runs[0].stderr_text == "boom\n");
}

TEST_CASE("wall-time samples are in seconds") {
  auto r = bench(shell_bench("sleep 0.05", 1, 3, ""));
  REQUIRE(r.ok);
  CHECK(r.unit == "s");
  REQUIRE(r.samples.size() == 3);
  for (double s : r.samples) {
    CHECK(s >= 0.05);
    // Seconds, not milliseconds (50 or more). A sample is the whole isolated run: on a loaded
    // machine (ctest -j8 beside CPU hogs on 2 cores) one took 0.72 s, so the bound is ten times that.
    CHECK(s < 8.0);
  }
}

TEST_CASE("malformed JSON fails the bench with the run number and the parse position") {
  auto r = bench(shell_bench("echo '{\"output_throughput\": 12,}'; echo 'warning: cache cold' >&2", 1, 3,
                             "output_throughput"));
  CHECK_FALSE(r.ok);
  CHECK(r.failure.rfind("warm-up run 1 of 1: stdout is not valid JSON: stdout of warm-up run 1 of 1:1:26: ", 0) == 0);
  CHECK(r.failure.find("stderr tail:\nwarning: cache cold") != std::string::npos);
  CHECK(r.runs.size() == 1);
}

TEST_CASE("a missing field names the field and the keys present") {
  auto r = bench(shell_bench("echo '{\"duration\": 1, \"completed\": 5}'", 0, 2, "output_throughput"));
  CHECK_FALSE(r.ok);
  CHECK(r.failure.rfind("run 1 of 2: no field 'output_throughput' in its JSON output (top-level keys: duration, completed)", 0) == 0);
}

TEST_CASE("a non-numeric field is a failure") {
  auto r = bench(shell_bench("echo '{\"output_throughput\": \"fast\"}'", 0, 1, "output_throughput"));
  CHECK_FALSE(r.ok);
  CHECK(r.failure.find("field 'output_throughput' is a string, not a number") != std::string::npos);
}

TEST_CASE("a run that exits non-zero fails the bench at that run, with the stderr tail") {
  // The third process started (run 2 after one warm-up) fails: TMPDIR and /tmp are private per
  // run, so count in a shared directory.
  const std::string shared = rubric::process::testing::make_temp_dir();
  const std::string counter = shared + "/counter";
  auto spec = shell_bench("n=$(cat " + counter + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + counter +
                              "; if [ $n -eq 3 ]; then echo 'line one' >&2; echo 'CUDA error: out of memory' >&2; exit 2; fi; "
                              "echo '{\"x\": 1}'",
                          1, 5, "x");
  spec.run.isolation.read_write_paths = {shared};  // the whitelist shows nothing else of the machine
  auto r = bench(spec);
  CHECK_FALSE(r.ok);
  CHECK(r.failure == "run 2 of 5: exit code 2; stderr tail:\nline one\nCUDA error: out of memory");
  CHECK(r.runs.size() == 3);
}

TEST_CASE("a run that times out or crashes fails the bench") {
  auto spec = shell_bench("sleep 10", 0, 3, "");
  spec.run.timeout_seconds = 0.3;
  auto r = bench(spec);
  CHECK_FALSE(r.ok);
  CHECK(r.failure == "run 1 of 3: timed out after 0.3 s (killed); stderr was empty");
  auto crash = bench(shell_bench("kill -SEGV $$", 0, 2, ""));
  CHECK(crash.failure.rfind("run 1 of 2: killed by SIGSEGV (signal 11)", 0) == 0);
}

TEST_CASE("bad bench specs are OperatorErrors") {
  CHECK_THROWS_AS(bench(shell_bench("true", 0, 0, "")), rubric::OperatorError);
  CHECK_THROWS_AS(bench(shell_bench("true", -1, 1, "")), rubric::OperatorError);
}
