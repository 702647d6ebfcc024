// The grading library's pieces that need no rubric process: shards, the results file's crash
// tolerance, folder hashes, the Slurm helpers.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <csignal>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>
#include <string>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grading/batch_summary.hpp"
#include "grading/folder_hash.hpp"
#include "grading/process_pool.hpp"
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
  CHECK(loaded.latest.at("a").reference_files().size() == 1);
  CHECK(loaded.latest.at("a").key().submission_sha256 == "s");
  // Lines of one run share one copy of what they have in common.
  CHECK(loaded.latest.at("a").run == loaded.latest.at("b").run);
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

TEST_CASE("results file: temporary files a killed rewrite left are removed, nothing else") {
  TempDir t;
  const fs::path p = t.path / "results.jsonl";
  write(p, line("a", "PASS") + "\n");
  for (const char* name : {"results.jsonl.tmp.4242", "results.jsonl.tmp.7", "results.jsonl.tmp.notes", "results.jsonl.tmp.",
                           "summary.json.tmp.4242", "other.tmp.4242"})
    write(t.path / name, "x");
  remove_stale_temporaries(p.string());
  CHECK(!fs::exists(t.path / "results.jsonl.tmp.4242"));
  CHECK(!fs::exists(t.path / "results.jsonl.tmp.7"));
  for (const char* kept : {"results.jsonl", "results.jsonl.tmp.notes", "results.jsonl.tmp.", "summary.json.tmp.4242", "other.tmp.4242"})
    CHECK(fs::exists(t.path / kept));
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
  REQUIRE(groups.size() >= 3);
  CHECK(groups[0].name == "orders the grader");
  CHECK(groups[0].submissions.empty());
  CHECK(groups[1].name == "marked for review");
  CHECK(groups[1].submissions == std::vector<std::string>{"a"});
  CHECK(groups[2].name == "ERROR");
  CHECK(groups[2].submissions == std::vector<std::string>{"b"});
  CHECK(groups.back().submissions == std::vector<std::string>{"c"});
}

// The warning `rubric check` writes when an answer's prose orders whoever grades it.
const char* const kOrdersWarning =
    R"("warnings": [{"severity": "warning", "message": "submission/answer.md addresses whoever grades it: 1 sentence is an order to the reader", "location": null, "notes": []}])";

TEST_CASE("an answer that orders the grader is counted, listed and queued first, whatever its verdicts") {
  BatchSummary s;
  s.add(rubric::json::parse(std::string(R"({"submission": "sub/a", "verdict": "PASS", "score": 1, "criteria": [], )") +
                                kOrdersWarning + "}",
                            "line"));
  s.add(rubric::json::parse(R"({"submission": "sub/b", "verdict": "PASS", "score": 1, "criteria": [], "warnings": [{"severity": "warning", "message": "an unused let", "location": null, "notes": []}]})",
                            "line"));
  BatchProvenance p;
  auto summary = rubric::json::parse(s.to_json(p), "summary.json");
  const auto* ordered = summary.find("addressed_reader");
  REQUIRE(ordered);
  CHECK(ordered->find("count")->as_number() == 1);
  REQUIRE(ordered->find("submissions")->as_array().size() == 1);
  CHECK(ordered->find("submissions")->as_array()[0].as_string() == "sub/a");
  CHECK(s.to_text(p, "out", false).find("1 submission orders whoever grades it, read it yourself") != std::string::npos);

  std::map<std::string, rubric::json::Value> lines;
  lines["a"] = rubric::json::parse(std::string(R"({"verdict": "PASS", "score": 1, "pass_mark": 0.6, "criteria": [{"id": "cause", "verdict": "PASS", "review": "\"cache\": a question"}], )") +
                                       kOrdersWarning + "}",
                                   "a");
  lines["b"] = rubric::json::parse(R"({"verdict": "PASS", "score": 1, "pass_mark": 0.6, "criteria": [{"id": "cause", "verdict": "PASS", "review": "\"cache\": a question"}]})", "b");
  auto groups = rubric::grading::review_queue(lines, 5, 1);
  CHECK(groups[0].name == "orders the grader");
  CHECK(groups[0].submissions == std::vector<std::string>{"a"});
  CHECK(groups[1].submissions == std::vector<std::string>{"b"});
}

namespace {

// Runs `count` pieces; piece i answers "PID" of the worker that ran it, after `act(i)`.
std::map<std::size_t, PieceOutcome> run_all(std::size_t count, PoolSettings settings, const std::function<void(std::size_t)>& act) {
  std::map<std::size_t, PieceOutcome> out;
  run_pieces(
      count, settings,
      [&](std::size_t i) {
        act(i);
        return std::to_string(::getpid());
      },
      [&](PieceOutcome&& o) { out[o.index] = std::move(o); });
  return out;
}

}  // namespace

TEST_CASE("pool: a worker grades many pieces and is replaced after its quota") {
  PoolSettings settings;
  settings.jobs = 1;
  settings.pieces_per_worker = 3;
  const auto out = run_all(7, settings, [](std::size_t) {});
  REQUIRE(out.size() == 7);
  std::set<std::string> pids;
  for (const auto& [i, o] : out) {
    CHECK(o.ok);
    pids.insert(o.output);
  }
  CHECK(pids.size() == 3);  // 3 + 3 + 1
  CHECK(pids.count(std::to_string(::getpid())) == 0);
  settings.pieces_per_worker = 500;
  settings.jobs = 2;
  std::set<std::string> two;
  for (const auto& [i, o] : run_all(40, settings, [](std::size_t) {})) two.insert(o.output);
  CHECK(two.size() <= 2);
}

TEST_CASE("pool: a crash, a throw or a hang fails that piece alone; the next runs in a fresh worker") {
  PoolSettings settings;
  settings.jobs = 1;  // one worker at a time: which pieces share one is known
  settings.timeout_seconds = 1;
  const auto out = run_all(12, settings, [](std::size_t i) {
    if (i == 3) {
      std::signal(SIGSEGV, SIG_DFL);  // doctest's crash report is the test's, not the worker's
      std::raise(SIGSEGV);
    }
    if (i == 5) throw std::runtime_error("the rubric's fault");
    if (i == 8) ::pause();  // until killed at the time limit
  });
  REQUIRE(out.size() == 12);
  for (const auto& [i, o] : out) {
    CAPTURE(i);
    CHECK(o.ok == (i != 3 && i != 5 && i != 8));
  }
  CHECK(out.at(3).failure.find("killed by signal 11") != std::string::npos);
  CHECK(out.at(5).failure.find("the rubric's fault") != std::string::npos);
  CHECK(out.at(8).failure.find("time limit of 1 s") != std::string::npos);
  // A piece that threw leaves its worker running; a crash and a hang end theirs.
  CHECK(out.at(6).output == out.at(4).output);
  // No worker is left behind.
  CHECK(::waitpid(-1, nullptr, WNOHANG) == -1);
}

TEST_CASE("pool: workers start and end through the hooks, once each") {
  TempDir tmp;
  const fs::path log = tmp.path / "log";
  PoolSettings settings;
  settings.jobs = 2;
  settings.pieces_per_worker = 4;
  settings.worker_started = [&](unsigned slot) {
    std::ofstream(log, std::ios::app) << "start " << slot << " " << ::getpid() << "\n";
  };
  settings.worker_ending = [&] { std::ofstream(log, std::ios::app) << "end " << ::getpid() << "\n"; };
  const auto out = run_all(16, settings, [](std::size_t) {});
  REQUIRE(out.size() == 16);
  std::ifstream in(log);
  std::map<std::string, int> starts, ends;
  std::string what, a, b;
  while (in >> what) {
    if (what == "start") {
      in >> a >> b;
      CHECK((a == "0" || a == "1"));
      ++starts[b];
    } else {
      in >> b;
      ++ends[b];
    }
  }
  CHECK(starts.size() >= 4);  // 16 pieces, at most 4 a worker
  for (const auto& [pid, n] : starts) CHECK(n == 1);
  CHECK(starts == ends);
}

TEST_CASE("summary: a large corpus streams out the same summary.json, its rows read back from the spool") {
  BatchSummary s;
  // 5,000 rows (past the spool's and the writer's 64 KiB pieces), ERRORs among them under two reasons.
  for (int i = 0; i < 5000; ++i) {
    const bool error = i % 97 == 0;
    const std::string verdict = error ? "ERROR" : (i % 3 == 0 ? "PASS" : "FAIL");
    const std::string reason = error ? (i % 2 ? "the rubric broke" : "") : "score " + std::to_string(i % 4 * 25) + "%";
    s.add(rubric::json::parse("{\"submission\": \"sub/" + std::to_string(i) + "\", \"verdict\": \"" + verdict +
                                  "\", \"score\": " + std::to_string((i % 4) * 0.25) + ", \"seconds\": " +
                                  std::to_string(i % 13) + ", \"reason\": \"" + reason + "\"}",
                              "line"));
  }
  BatchProvenance p;
  const std::string whole = s.to_json(p);
  std::string streamed;
  std::size_t pieces = 0;
  s.write_json(p, [&](std::string_view piece) {
    streamed += piece;
    ++pieces;
  });
  CHECK(pieces > 2);
  CHECK(streamed == whole);
  const auto summary = rubric::json::parse(whole, "summary.json");
  const auto& rows = summary.find("submission_list")->as_array();
  REQUIRE(rows.size() == 5000);
  CHECK(rows[4999].find("submission")->as_string() == "sub/4999");
  CHECK(rows[1].find("score")->as_number() == 0.25);
  const auto& errors = summary.find("errors")->as_array();
  REQUIRE(errors.size() == 52);  // 0, 97, ..., 4947
  CHECK(errors[0].find("reason")->as_string() == "no reason recorded");
  CHECK(errors[1].find("reason")->as_string() == "the rubric broke");
  // The score distribution leaves the ERRORs out; quartiles as numpy computes them.
  const auto* score = summary.find("score");
  CHECK(score->find("count")->as_number() == 5000 - 52);
  CHECK(score->find("min")->as_number() == 0);
  CHECK(score->find("max")->as_number() == 0.75);
  const std::string table = s.to_text(p, "out", false);
  CHECK(table.find("52 submissions ERRORED") != std::string::npos);
  CHECK(table.find("26 submissions: the rubric broke") != std::string::npos);
  CHECK(table.find("... (21 more)") != std::string::npos);
  CHECK(table.find("... and 4950 more") != std::string::npos);
}
