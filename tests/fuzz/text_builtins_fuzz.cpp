// The text builtins over hostile submission text: random and adversarial strings through numbers,
// find, regex, mentions, lines, split and word counting, each evaluation under a bound on CPU time
// (not wall time, which a loaded machine stretches: the slowest input takes about 0.3 s of CPU).
// A builtin that looped (as numbers("EAGLE-3") once did) fails the bound instead of hanging ctest.
#include <doctest/doctest.h>

#include <time.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "interpreter/text_match.hpp"
#include "tests/interpreter/helpers.hpp"

namespace {

const char* const kRubric = R"RUBRIC(
rubric "text fuzz" {}
use std.text
use std.concepts
criterion text "text builtins finish" {
  let t = text(submission / "t.txt")
  expect len(numbers(t)) >= 0
  expect len(find(t, r"[0-9]+(\.[0-9]+)?\s*(ms|x|GB/s)")) >= 0
  expect regex(t, r"\bfp(16|32)\b") or true
  expect len(lines(t)) >= 1 or t == ""
  expect len(split(t, "-")) >= 1
  expect word_count(t) >= 0
  expect (t mentions any ["bank conflict", "EAGLE-3", "a-"]) or true
  expect len(quoted_numbers(t, "tok/s")) >= 0
  expect len(lower(t)) == len(t)
  expect polarity(t, "bank conflict") in ["affirmed", "negated", "hedged", "absent"]
  expect (t affirms any [bank_conflict, prefix_caching, "collide" near(3) "bank"]) or true
  expect (t denies all [register_spill, "a-"]) or true
  expect len(claims(t)) >= 0
  expect len(code_of(t)) >= 0
}
)RUBRIC";

// Texts built to hit every branch of the scanners many times over.
std::vector<std::string> adversarial() {
  auto rep = [](const std::string& s, std::size_t n) {
    std::string o;
    o.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) o += s;
    return o;
  };
  return {"EAGLE-3", "Llama-3.1-8B", "H-100", "a-3", "1-3", "a-", "-", "--3", "+-+-1", "1e", "1e-", ".", "..5", "5..",
          rep("a-3", 200000), rep("EAGLE-3 ", 100000), rep("1-", 300000), rep("-", 500000), rep("1,", 300000),
          rep("1,234,", 100000), rep("e-", 300000), rep("1.", 300000), rep(".5", 300000), rep("a", 1 << 20),
          rep("9", 1 << 20), rep("x-1e-3", 100000), rep("\xff\xfe", 200000), std::string(100000, '\0'),
          rep("`", 300000), rep("` ``", 100000), rep("```\n", 100000), rep("](", 200000), rep("[a](b", 100000),
          rep("not ", 200000) + "bank conflict", rep("bank ", 100000) + rep("collide ", 100000), rep("e.g. ", 100000),
          rep("- ", 200000), rep("#", 300000), rep("|", 300000), rep("n't ", 100000), rep("1.5x ", 100000),
          rep("\xe2\x80\x99", 100000), rep("bank-", 200000),
          rep("bank ", 200000) + "conflict", rep("\n", 500000), rep("\r\n", 300000), rep("3x-4x ", 100000),
          // Struck and retracted text never closed: each opening must not search the rest again.
          rep("<s>", 87381) + " a bank conflict is the cause.", rep("<del>", 200000) + " a bank conflict is the cause.",
          rep("<strike>x", 100000), rep("~~x", 300000), rep("~~x\n\n", 100000) + "~~",
          // Deep Markdown nesting, tables, comments and punctuation runs, each a MiB or so.
          rep(">", 1 << 20), rep("> > > > x.\n", 100000), rep("- ", 500000), rep("| a |\n", 200000),
          rep("<!-- ", 200000), rep("!?", 500000), rep("a.", 500000), rep("Bank.conflict.", 80000),
          // HTML as rendered: hidden elements never closed, glued tags, character references, link definitions.
          rep("<div hidden>", 80000), rep("a<span hidden>x</span>b", 40000), rep("n<b>o</b>t ", 90000),
          rep("&#110;ot ", 110000), rep("[x]: # (y)\n", 90000), rep("<h2>", 200000),
          "<style>" + rep(".a{display:none}", 30000) + "</style>" + rep("<i class=\"a b\">x</i>", 30000)};
}

// CPU time of the whole process: the engine may finish work on a thread of its own.
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

std::string random_text(std::mt19937_64& rng, std::size_t n) {
  static const std::string alphabet = "0123456789-+.,eE aZx_\n\r\t`*[]()/%:;?!#|~>\xc3\xa9\xff\xe2\x80\x99";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string s(n, ' ');
  for (char& c : s) c = alphabet[pick(rng)];
  return s;
}

}  // namespace

TEST_CASE("scan_numbers: names with hyphens and ranges") {
  using rubric::scan_numbers;
  CHECK(scan_numbers("EAGLE-3").empty());
  CHECK(scan_numbers("Llama-3.1-8B on an H-100").empty());
  CHECK(scan_numbers("a-3").empty());
  CHECK(scan_numbers("1-3") == std::vector<double>{1, 3});
  CHECK(scan_numbers("2x-3x faster") == std::vector<double>{2, 3});
  CHECK(scan_numbers("x = -3, (-2) and 1e-3") == std::vector<double>{-3, -2, 0.001});
  CHECK(scan_numbers("pages 10-12: 5 ms") == std::vector<double>{10, 12, 5});
}

TEST_CASE("text builtins finish on hostile text") {
  rubric::test::TempDir dir;
  dir.dir("ref");
  std::mt19937_64 rng(20261201);
  std::vector<std::string> inputs = adversarial();
  for (int i = 0; i < 60; ++i) inputs.push_back(random_text(rng, std::size_t{1} << (8 + i % 13)));
  rubric::Engine engine;
  auto diags = rubric::test::load_text(engine, kRubric);
  REQUIRE_MESSAGE(!rubric::has_errors(diags), rubric::test::all_messages(diags));
  double slowest = 0;
  for (const auto& text : inputs) {
    dir.write("sub/t.txt", text);
    const double start = process_cpu_seconds();
    rubric::Report r = engine.check(dir.path + "/sub", dir.path + "/ref");
    double seconds = process_cpu_seconds() - start;
    slowest = std::max(slowest, seconds);
    INFO("input of ", text.size(), " bytes starting '", text.substr(0, 20), "'");
    // A generous bound: every scan is linear, a megabyte takes milliseconds; a loop takes forever.
    CHECK(seconds < 10.0);
    std::string why;
    for (const auto& c : r.criteria)
      for (const auto& k : c.checks)
        if (k.verdict == rubric::Verdict::error) why += k.source_text + ": " + k.explanation + "\n";
    INFO(why);
    CHECK(r.verdict != rubric::OverallVerdict::error);
  }
  MESSAGE("slowest input: " << slowest << " s of CPU time");
}

TEST_CASE("text builtins count against the step budget") {
  rubric::test::TempDir dir;
  dir.dir("ref");
  dir.write("sub/t.txt", std::string(1 << 20, '7') + " 1 2 3");
  rubric::EngineOptions opts;
  opts.step_budget = 100000;  // each numbers() over the 1 MiB text costs about 1,000 steps
  rubric::Report r = rubric::test::run_text(R"(
rubric "budget" {}
criterion loop "numbers in a loop" {
  let t = text(submission / "t.txt")
  expect count(range(500), i => len(numbers(t)) > 0) == 500
}
)",
                                            dir.path + "/sub", dir.path + "/ref", opts);
  REQUIRE(r.criteria.size() == 1);
  CHECK(r.criteria[0].verdict == rubric::Verdict::error);
  std::string all;
  all += r.criteria[0].reason + "\n";
  for (const auto& c : r.criteria[0].checks) all += c.explanation + "\n";
  CHECK(all.find("step budget exceeded") != std::string::npos);
}
