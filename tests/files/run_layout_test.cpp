// run() and the layout of the roots: a reference inside the submission would be copied into the
// candidate's folder, so the run is refused with an ERROR that explains the layout.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "helpers.hpp"

using namespace rubric;

TEST_CASE("a reference inside the submission (or the same folder) is an ERROR explaining the layout") {
  rubric::test::TempDir t;
  t.write("sub/ref/secret.txt", "the reference answer\n");
  t.write("sub/run.sh", "cat ref/secret.txt\n");
  for (const std::string& ref : {t.path + "/sub/ref", t.path + "/sub"}) {
    Report r = rubric::test::run_text(
        "rubric \"b\" {}\ncriterion c \"c\" {\n  expect run([\"sh\", \"run.sh\"]).exit == 0\n}\n", t.path + "/sub", ref);
    REQUIRE(r.criteria.size() == 1);
    REQUIRE(r.criteria[0].checks.size() == 1);
    const auto& c = r.criteria[0].checks[0];
    CAPTURE(c.explanation);
    CHECK(c.verdict == Verdict::error);
    CHECK(c.explanation.find("'run' refuses to run: the reference folder") != std::string::npos);
    CHECK(c.explanation.find("Keep the reference outside the submission") != std::string::npos);
  }
}
