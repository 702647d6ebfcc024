#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "report/terminal_progress.hpp"

using namespace rubric;

namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  for (int c; (c = std::fgetc(f)) != EOF;) out += static_cast<char>(c);
  return out;
}

}  // namespace

TEST_CASE("progress: one line redrawn with \\r, cleared at the end") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    report::TerminalProgress progress(f, true, 40);
    progress.rubric_started(12);
    progress.criterion_started("numerics", "logits match");
    progress.criterion_finished(CriterionResult{});
    progress.criterion_started("throughput", "within 5%");
    progress.activity("bench run 4/10");
    progress.activity(std::string(100, 'y'));
    progress.finish();
  }
  const std::string out = contents(f);
  CHECK(out.find("\r[1/12] numerics…\x1b[K") != std::string::npos);
  CHECK(out.find("\r[1/12] numerics: PASS\x1b[K") != std::string::npos);
  CHECK(out.find("\r[2/12] throughput: bench run 4/10…\x1b[K") != std::string::npos);
  CHECK(out.find('\n') == std::string::npos);  // never a second line
  CHECK(out.find(std::string(40, 'y')) == std::string::npos);  // truncated to the width
  CHECK(out.size() >= 4);
  CHECK(out.substr(out.size() - 4) == "\r\x1b[K");
  std::fclose(f);
}

TEST_CASE("progress: silent when not drawing on a terminal") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    report::TerminalProgress progress(f, false);
    progress.rubric_started(2);
    progress.criterion_started("a", "A");
    progress.activity("busy");
    progress.criterion_finished(CriterionResult{});
  }
  CHECK(contents(f).empty());
  std::fclose(f);
}
