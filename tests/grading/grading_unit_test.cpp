// The grading library's pieces that need no rubric process: shards, the results file's crash
// tolerance, folder hashes, the Slurm helpers.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "grading/batch_summary.hpp"
#include "grading/folder_hash.hpp"
#include "grading/review_queue.hpp"
#include "grading/results_file.hpp"
#include "grading/shard.hpp"
#include "grading/slurm.hpp"
#include "operators/json/json_reader.hpp"

namespace fs = std::filesystem;
using namespace rubric::grading;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/rubric-grading-unit-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string line(const std::string& sub, const std::string& verdict) {
  return "{\"submission\": \"" + sub + "\", \"verdict\": \"" + verdict +
         "\", \"key\": {\"rubric_sha256\": \"r\", \"submission_sha256\": \"s\", \"params_sha256\": \"p\", "
         "\"tool_version\": \"1\"}, \"reference_files\": [{\"path\": \"x.json\", \"xxh3_128\": \"h\"}]}";
}

}  // namespace

TEST_CASE("shards: I/N is 1-based and checked") {
  CHECK(parse_shard("2/4").index == 2);
  CHECK(parse_shard("2/4").count == 4);
  CHECK(parse_shard("1/1").count == 1);
  CHECK_THROWS_WITH_AS(parse_shard("0/4"), doctest::Contains("numbered 1..4"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_shard("5/4"), doctest::Contains("numbered 1..4"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shard("2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shard("a/4"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shard("1/0"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shard("-1/4"), std::invalid_argument);
}

TEST_CASE("shards: a submission's shard depends on its path only, spelled any way") {
  CHECK(normalized_submission_path("./a//b/") == "a/b");
  CHECK(shard_of("a/b", 7) == shard_of("./a/b/", 7));
  std::map<std::uint32_t, int> sizes;
  for (int i = 0; i < 4000; ++i) {
    const std::uint32_t s = shard_of("subs/sample-" + std::to_string(i), 4);
    REQUIRE(s >= 1);
    REQUIRE(s <= 4);
    ++sizes[s];
  }
  for (const auto& [shard, n] : sizes) CHECK(n > 800);  // roughly even: 1000 expected each
}

TEST_CASE("results file: a torn last line is dropped and cut off before appending") {
  TempDir t;
  const fs::path p = t.path / "results.jsonl";
  write(p, line("a", "PASS") + "\n" + line("b", "FAIL") + "\n{\"submission\": \"c\", \"verd");
  LoadedResults loaded = load_results(p.string());
  CHECK(loaded.latest.size() == 2);
  CHECK(loaded.dropped_lines == 1);
  CHECK(loaded.latest.at("b").verdict == "FAIL");
  CHECK(loaded.latest.at("a").reference_files.size() == 1);
  CHECK(loaded.latest.at("a").key.submission_sha256 == "s");
  {
    ResultsAppender appender(p.string(), loaded.valid_bytes);
    appender.append(line("c", "ERROR"));
    appender.sync();
  }
  loaded = load_results(p.string());
  CHECK(loaded.dropped_lines == 0);
  CHECK(loaded.latest.size() == 3);
  CHECK(read(p).find("verd\n") == std::string::npos);
}

TEST_CASE("results file: a later line for a submission replaces the earlier; rewriting keeps chosen lines") {
  TempDir t;
  const fs::path p = t.path / "results.jsonl";
  write(p, line("a", "ERROR") + "\n" + line("b", "PASS") + "\n" + line("a", "PASS") + "\n");
  const LoadedResults loaded = load_results(p.string());
  CHECK(loaded.latest.at("a").verdict == "PASS");
  rewrite_lines({p.string()},
                {LineSpan{0, loaded.latest.at("a").offset, loaded.latest.at("a").length},
                 LineSpan{0, loaded.latest.at("b").offset, loaded.latest.at("b").length}},
                p.string());
  CHECK(read(p) == line("a", "PASS") + "\n" + line("b", "PASS") + "\n");
  CHECK(!fs::exists(t.path / ("results.jsonl.tmp." + std::to_string(::getpid()))));
}

TEST_CASE("results file: a missing file is empty, an unparsable middle line is skipped") {
  TempDir t;
  CHECK(load_results((t.path / "none.jsonl").string()).latest.empty());
  const fs::path p = t.path / "r.jsonl";
  write(p, line("a", "PASS") + "\nnot json\n" + line("b", "PASS") + "\n");
  const LoadedResults loaded = load_results(p.string());
  CHECK(loaded.latest.size() == 2);
  CHECK(loaded.dropped_lines == 1);
  CHECK(loaded.valid_bytes == fs::file_size(p));
}

TEST_CASE("folder hash: content, names and links count; nothing is followed") {
  TempDir t;
  write(t.path / "a" / "x.txt", "hello");
  write(t.path / "a" / "d" / "y.txt", "world");
  const std::string h1 = hash_folder((t.path / "a").string());
  CHECK(h1.size() == 64);
  CHECK(hash_folder((t.path / "a").string()) == h1);
  write(t.path / "a" / "x.txt", "hellp");
  const std::string h2 = hash_folder((t.path / "a").string());
  CHECK(h2 != h1);
  fs::rename(t.path / "a" / "x.txt", t.path / "a" / "z.txt");
  CHECK(hash_folder((t.path / "a").string()) != h2);
  fs::create_symlink("/dev/zero", t.path / "a" / "link");
  const std::string h3 = hash_folder((t.path / "a").string());  // would never end if followed
  fs::remove(t.path / "a" / "link");
  fs::create_symlink("/dev/null", t.path / "a" / "link");
  CHECK(hash_folder((t.path / "a").string()) != h3);
  REQUIRE(::mkfifo((t.path / "a" / "fifo").c_str(), 0644) == 0);
  CHECK(hash_folder((t.path / "a").string()).size() == 64);  // a FIFO is never opened
}

TEST_CASE("slurm: --slurm-args split like a shell") {
  CHECK(split_arguments("--gres=gpu:1 --time=1:00:00") == std::vector<std::string>{"--gres=gpu:1", "--time=1:00:00"});
  CHECK(split_arguments("  --comment='a b'  -J \"x y\" z\\ w ") ==
        std::vector<std::string>{"--comment=a b", "-J", "x y", "z w"});
  CHECK(split_arguments("").empty());
  CHECK_THROWS_AS(split_arguments("--comment='a"), std::invalid_argument);
}

TEST_CASE("slurm: scontrol's lines give each task's state, pending ranges included") {
  const std::string out =
      "JobId=12 ArrayJobId=10 ArrayTaskId=2 JobName=g UserId=root(0) JobState=COMPLETED Reason=None ExitCode=0:0\n"
      "JobId=13 ArrayJobId=10 ArrayTaskId=3 JobName=g JobState=FAILED Reason=NonZeroExitCode ExitCode=2:0\n"
      "JobId=14 ArrayJobId=10 ArrayTaskId=1 JobName=g JobState=NODE_FAIL ExitCode=0:9\n"
      "JobId=10 ArrayJobId=10 ArrayTaskId=4-6,8%2 JobName=g JobState=PENDING Reason=JobArrayTaskLimit ExitCode=0:0\n";
  const auto tasks = parse_scontrol_tasks(out);
  CHECK(tasks.size() == 7);
  CHECK(tasks.at(2).state == "COMPLETED");
  CHECK(tasks.at(3).exit_code == 2);
  CHECK(tasks.at(1).state == "NODE_FAIL");
  CHECK(tasks.at(1).signal == 9);
  CHECK(tasks.at(5).state == "PENDING");
  CHECK(tasks.at(8).state == "PENDING");
  CHECK(tasks.count(7) == 0);
}

TEST_CASE("summary: verdicts marked for review are counted and listed per criterion") {
  BatchSummary s;
  auto add = [&](const std::string& sub, const std::string& review) {
    s.add(rubric::json::parse("{\"submission\": \"" + sub + "\", \"verdict\": \"FAIL\", \"criteria\": [{\"id\": \"cause\", "
                              "\"title\": \"names the cause\", \"kind\": \"criterion\", \"verdict\": \"FAIL\", \"review\": \"" +
                                  review + "\"}, {\"id\": \"speed\", \"kind\": \"criterion\", \"verdict\": \"PASS\", \"review\": \"\"}]}",
                              "line"));
  };
  add("sub/a", "");
  BatchProvenance p;
  // Nothing marked: the table has no REVIEW column.
  CHECK(s.to_text(p, "out", false).find("REVIEW") == std::string::npos);
  add("sub/b", "a question");
  add("sub/c", "a quotation");
  auto summary = rubric::json::parse(s.to_json(p), "summary.json");
  const auto& criteria = summary.find("criteria")->as_array();
  REQUIRE(criteria.size() == 2);
  const auto* review = criteria[0].find("review");
  REQUIRE(review);
  CHECK(review->find("count")->as_number() == 2);
  REQUIRE(review->find("submissions")->as_array().size() == 2);
  CHECK(review->find("submissions")->as_array()[0].as_string() == "sub/b");
  CHECK(criteria[1].find("review")->find("count")->as_number() == 0);
  const std::string table = s.to_text(p, "out", false);
  CHECK(table.find("REVIEW") != std::string::npos);
  CHECK(table.find("cause marked for review (verdict kept, it rests on an ambiguous reading): sub/b, sub/c") != std::string::npos);
}

TEST_CASE("review queue: a verdict resting on an ambiguous reading comes first") {
  std::map<std::string, rubric::json::Value> lines;
  lines["a"] = rubric::json::parse(R"({"verdict": "PASS", "score": 1, "pass_mark": 0.6, "criteria": [{"id": "cause", "verdict": "PASS", "review": "\"cache\": a question"}]})", "a");
  lines["b"] = rubric::json::parse(R"({"verdict": "ERROR", "score": null, "pass_mark": 0.6, "criteria": [{"id": "cause", "verdict": "ERROR", "review": ""}]})", "b");
  lines["c"] = rubric::json::parse(R"({"verdict": "PASS", "score": 1, "pass_mark": 0.6, "criteria": [{"id": "cause", "verdict": "PASS", "review": ""}]})", "c");
  auto groups = rubric::grading::review_queue(lines, 5, 1);
  REQUIRE(groups.size() >= 2);
  CHECK(groups[0].name == "marked for review");
  CHECK(groups[0].submissions == std::vector<std::string>{"a"});
  CHECK(groups[1].name == "ERROR");
  CHECK(groups[1].submissions == std::vector<std::string>{"b"});
  CHECK(groups.back().submissions == std::vector<std::string>{"c"});
}
