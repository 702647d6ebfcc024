// A module runs inside the worker and shares its channel to the grader: it can write replies of
// its own and read the worker's memory. Each probe here does one of the things a hostile module
// was seen to do, and each must end as the module's FAIL with the reason that caught it.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "operators/cuda/worker_reply.hpp"
#include "worker_fixture.hpp"

namespace {

TimingOptions short_timing() {
  TimingOptions o;
  o.min_time_s = 0.05;
  o.max_time_s = 1;
  return o;
}

std::vector<float> ones(std::size_t n) { return std::vector<float>(n, 1.f); }

}  // namespace

TEST_CASE("forged replies: a reply written by the module without the request's nonce is a forgery") {
  Fixture f;
  CompiledModule m = f.build("add_forges_reply.cpp");
  auto a = ones(256);
  TimeOutcome t = f.session.time(m, add_args(a, a), short_timing());
  INFO(t.failure);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.grader_environment);
  CHECK(t.samples.empty());
  CHECK(t.failure.find("forged reply: a message on the worker's channel did not carry this request's nonce") == 0);
}

TEST_CASE("forged replies: with the nonce read from the worker's memory, the grader's clock refutes the figures") {
  Fixture f;
  CompiledModule m = f.build("add_forges_signed_reply.cpp");
  auto a = ones(256);
  TimeOutcome t = f.session.time(m, add_args(a, a), short_timing());
  INFO(t.failure);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.grader_environment);
  CHECK(t.failure.find("the timing figures cannot be true: the worker stopped after 10 samples measuring 1 ms") == 0);
}

TEST_CASE("forged replies: a claimed first call of 100,000 s does not stretch the budget") {
  Fixture f;
  CompiledModule m = f.build("add_forges_progress.cpp");
  auto a = ones(64);
  auto start = std::chrono::steady_clock::now();
  TimeOutcome t = f.session.time(m, add_args(a, a), short_timing());
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(t.failure);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.grader_environment);
  CHECK(t.failure.find("timed out after") == 0);
  // The budget is max_time (1 s) + warm-up + 10 × the first call the grader saw + 5 s; the claim
  // would have made it 10 × 100,000 s. (A bound on the wait, not a timing of the machine.)
  CHECK(waited < 60);
}

TEST_CASE("forged replies: blame on the machine is the module's FAIL unless a worker without candidate code confirms it") {
  Fixture f;
  CompiledModule m = f.build("add_forges_blame.cpp");
  auto a = ones(16);
  CallOutcome c = f.session.call(m, add_args(a, a));
  INFO(c.failure);
  CHECK_FALSE(c.ok);
  CHECK_FALSE(c.grader_environment);
  CHECK(c.failure.find("the worker running the candidate's code blamed the grading machine (cudaErrorNoDevice") == 0);
  CHECK(c.failure.find("found the device working") != std::string::npos);
}

TEST_CASE("forged replies: a malformed figure is the module's FAIL, not the rubric's error") {
  Fixture f;
  CompiledModule m = f.build("add_forges_malformed.cpp");
  auto a = ones(64);
  TimeOutcome t = f.session.time(m, add_args(a, a), short_timing());
  INFO(t.failure);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.grader_environment);
  CHECK(t.failure == "malformed reply from the worker running the candidate's code: field 'samples' = 'abc' is not a "
                     "finite number");
}

TEST_CASE("forged replies: the worker's log keeps 8 MiB of a module's output and says what it dropped") {
  Fixture f;
  CompiledModule m = f.build("add_floods_log.cpp");
  auto a = ones(8);
  CallOutcome c = f.session.call(m, add_args(a, a));
  INFO(c.failure);
  REQUIRE(c.ok);
  CHECK(floats(c.outputs[0]) == std::vector<float>(8, 2.f));
  f.session.worker(m).stop();
  std::uintmax_t size = 0;
  std::string tail;
  for (const auto& e : std::filesystem::directory_iterator(f.session.scratch_dir())) {
    if (e.path().filename().string().rfind("worker-cpu-", 0) != 0) continue;
    size = e.file_size();
    std::ifstream in(e.path(), std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    tail = all.substr(all.size() > 200 ? all.size() - 200 : 0);
  }
  CHECK(size >= (8u << 20));
  CHECK(size < (8u << 20) + 4096);
  // The checked call runs the function twice (two poison patterns): 48 MiB written, 40 MiB dropped.
  CHECK(tail.find("[rubric: the worker wrote 41943040 more bytes; this log keeps the first 8 MiB]") != std::string::npos);
}

TEST_CASE("timing claims: what an honest loop can report, by the grader's clock") {
  TimingRules rules{10, 0.5, 15, 1000000};
  std::vector<double> ten_fast(10, 1e-4), many(6000, 1e-4);
  // Ten samples of 100 µs cannot be what a loop that stops at 0.5 s of measured time measured.
  CHECK(timing_claim_problem({ten_fast, 0, 0, 0.001, 1e-4}, rules, 0.004).find("stopped after 10 samples") != std::string::npos);
  // ... unless the loop ran into its time limit, which the grader's clock must have seen.
  CHECK(timing_claim_problem({ten_fast, 0, 0, 15, 1e-4}, rules, 16).empty());
  // Enough samples and measured time: fine, when the request took at least that long.
  CHECK(timing_claim_problem({many, 0, 0, 0.6, 1e-4}, rules, 0.7).empty());
  CHECK(timing_claim_problem({many, 0, 0, 0.6, 1e-4}, rules, 0.3).find("claims 600 ms of samples") != std::string::npos);
  // One sample longer than the whole request.
  CHECK(timing_claim_problem({{2.0}, 0, 0, 2, 0}, rules, 1.0).find("sample 1 claims 2 s") == 0);
  // The sample limit counts every sample taken, kept or not.
  CHECK(timing_claim_problem({ten_fast, 999990, 0, 0.2, 0}, rules, 0.5).empty());
  CHECK(timing_claim_problem({ten_fast, 2000000, 0, 0.2, 0}, rules, 0.5).find("more than the loop's limit") !=
        std::string::npos);
}

TEST_CASE("reply fields are parsed strictly") {
  Message m;
  m.set("x", "1e999").set("y", "12abc").set("z", "-1").set("s", "0.1,0.2").set("bad", "0.1,,0.2").set("neg", "0.1,-1");
  CHECK_THROWS_AS(reply_number(m, "x", 0, 1), MalformedReply);
  CHECK_THROWS_AS(reply_number(m, "y", 0, 100), MalformedReply);
  CHECK_THROWS_AS(reply_number(m, "z", 0, 1), MalformedReply);
  CHECK_THROWS_AS(reply_number(m, "missing", 0, 1), MalformedReply);
  CHECK(reply_seconds_list(m, "s") == std::vector<double>{0.1, 0.2});
  CHECK_THROWS_AS(reply_seconds_list(m, "bad"), MalformedReply);
  CHECK_THROWS_AS(reply_seconds_list(m, "neg"), MalformedReply);
  m.set("libs", "libcublas.so.13,libz.so.1").set("empty_name", "libz.so.1,,x").set("spaced", "lib z.so")
      .set("path", "../../etc/passwd");
  CHECK(reply_library_list(m, "libs") == std::vector<std::string>{"libcublas.so.13", "libz.so.1"});
  CHECK(reply_library_list(m, "missing").empty());
  CHECK_THROWS_AS(reply_library_list(m, "empty_name"), MalformedReply);
  CHECK_THROWS_AS(reply_library_list(m, "spaced"), MalformedReply);
  CHECK_THROWS_AS(reply_library_list(m, "path"), MalformedReply);
  std::string many;
  for (int i = 0; i < 300; ++i) many += (i ? ",lib" : "lib") + std::to_string(i) + ".so";
  m.set("many", many);
  CHECK_THROWS_AS(reply_library_list(m, "many"), MalformedReply);
}

TEST_CASE("cheats: results that drift after the first calls are caught by the check after the timed loop") {
  Fixture f;
  CompiledModule m = f.build("add_drifts.cpp");
  auto a = ones(256);
  TimingOptions o = short_timing();
  o.fresh = true;
  TimeOutcome t = f.session.time(m, add_args(a, a), o);
  INFO(t.failure);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.grader_environment);
  CHECK(t.failure.find("differs") != std::string::npos);
}

TEST_CASE("cheats: work handed to a new thread that finishes after the call returned") {
  Fixture f;
  CompiledModule m = f.build("add_hands_off_to_thread.cpp");
  auto a = ones(256);
  // Its outputs still hold the poison when the call returns: the checked call sees them unwritten.
  CallOutcome c = f.session.call(m, add_args(a, a));
  CHECK_FALSE(c.ok);
  CHECK((c.failure.find("elements were never written") != std::string::npos ||
         c.failure.find("worker killed by SIG") != std::string::npos));
  // The thread may outlive the request and write into freed buffers: a crash of the worker is
  // then the reason, equally the candidate's. Which check sees the cheat first depends on how the
  // scheduler runs the thread (on a loaded machine it is often still alive when the sample ends).
  TimeOutcome t = f.session.time(m, add_args(a, a), short_timing());
  INFO(t.failure);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.grader_environment);
  CHECK((t.failure.find("were never written") != std::string::npos ||
         t.failure.find("new host thread running after it returned") != std::string::npos ||
         t.failure.find("worker killed by SIG") != std::string::npos));
}

TEST_CASE("cheats: work handed to a thread kept from the first calls is a deferred write, off the clock") {
  Fixture f;
  CompiledModule m = f.build("add_defers_to_pool.cpp");
  auto a = ones(256);
  TimeOutcome t = f.session.time(m, add_args(a, a), short_timing());
  INFO(t.failure);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.grader_environment);
  CHECK(t.failure.find("its outputs were wrong when the call returned and right 50 ms later") != std::string::npos);
}

TEST_CASE("cheats: a library the module brings in is named (baseline passthrough to cuBLAS or the reference)") {
  Fixture f;
  auto a = ones(8);
  CompiledModule honest = f.build("add_good.cpp");
  LibrariesOutcome none = f.session.libraries(honest);
  INFO(none.failure);
  REQUIRE(none.ok);
  CHECK(none.libraries.empty());
  CompiledModule m = f.build("add_opens_library.cpp");
  LibrariesOutcome before = f.session.libraries(m);
  REQUIRE(before.ok);
  CHECK(before.libraries.empty());  // opened only when the function runs
  CallOutcome c = f.session.call(m, add_args(a, a));
  INFO(c.failure);
  REQUIRE(c.ok);
  CHECK(c.libraries == std::vector<std::string>{"libz.so.1"});
  CHECK(f.session.libraries(m).libraries == std::vector<std::string>{"libz.so.1"});
  TimeOutcome t = f.session.time(m, add_args(a, a), short_timing());
  INFO(t.failure);
  REQUIRE(t.ok);
  CHECK(t.libraries == std::vector<std::string>{"libz.so.1"});
}
