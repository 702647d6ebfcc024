// The linear engine must mean what the backtracking one means: the same matches, groups and
// empty-match steps on every pattern it takes, and no blow-up on text that makes backtracking
// explode.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <string>
#include <vector>

#include "operators/regex/regex.hpp"

using rubric::regex::Match;
using rubric::regex::Regex;

namespace {

std::vector<std::vector<std::string>> all_matches(const Regex& re, std::string_view text) {
  std::vector<std::vector<std::string>> out;
  re.for_each_match(text, [&](const Match& m) {
    std::vector<std::string> groups;
    for (const auto& g : m) groups.push_back(g ? std::string(*g) : std::string("<none>"));
    out.push_back(groups);
    return true;
  });
  return out;
}

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_THREAD, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

}  // namespace

TEST_CASE("where RE2 takes a pattern, it finds what Boost finds") {
  const std::vector<std::string> patterns = {
      R"(\d+ tok/s)", R"(bank.*conflict)", R"((?i)bank\s+conflicts?)", R"(line.bank)", R"(z\sq)", R"(x*)",
      R"(([a-z])(\d+)?)", R"(a|ab)", R"(\bTTFT\b[^\n]*?(\d+(?:\.\d+)?)\s*ms)", R"([\s,]+)", R"(\S+)",
      R"((?<num>\d+)\.(\d+))", R"(colou?r|gr[ae]y)", R"([^\]a]+)", R"(\w+@\w+\.\w{2,})", R"(a{2,3}?)", R"(é+)",
      R"((?-s)line.bank)", R"((?i-s)BANK.x)", R"((?i:sink)s)"};
  const std::vector<std::string> texts = {
      "first line\nbank x\r\nthird\tz\vq\n", "abc", "a1b22", "TTFT 12.5 ms; ttft 3 ms\nTTFT: 40 ms", "",
      "bank  Conflicts and BANK CONFLICT", "colour gray grey color", "aaaa aa a", "mail me@x.org, you@y.io",
      "1.25 and 3.5", "caf\xc3\xa9\xc3\xa9 \xff\xfe", "]]x]]"};
  for (const auto& p : patterns) {
    Regex linear(p), backtracking(p, Regex::Engine::backtracking);
    INFO(p);
    CHECK(linear.linear());
    for (const auto& t : texts) {
      INFO(t);
      CHECK(linear.search(t) == backtracking.search(t));
      CHECK(all_matches(linear, t) == all_matches(backtracking, t));
    }
  }
}

TEST_CASE("patterns whose meaning RE2 lacks stay with Boost") {
  for (const char* p : {R"(^bank)", R"(x$)", R"((a)\1)", R"(foo(?=bar))", R"((?<!x)y)", R"(\u0041)"}) {
    INFO(p);
    CHECK_FALSE(Regex(p).linear());
  }
  CHECK(Regex("^bank").search("first\nbank"));  // Boost's line anchors, as before
  CHECK_THROWS_AS(Regex("(unclosed"), rubric::regex::RegexError);
}

TEST_CASE("an ordinary pattern stays linear on text that makes backtracking explode") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "bank ";  // 100 KB, no "conflict"
  const double before = cpu_seconds();
  CHECK_FALSE(Regex("(?i)bank.*conflict").search(text));
  CHECK(all_matches(Regex("(?i)bank.*conflict"), text).empty());
  CHECK(cpu_seconds() - before < 2.0);  // linear: milliseconds; a bound on CPU, not wall time
  // The backtracking engine on the same text gives up instead of running on.
  CHECK_THROWS_AS(Regex("(?i)bank.*conflict", Regex::Engine::backtracking).search(text), rubric::regex::RegexTooCostly);
}
