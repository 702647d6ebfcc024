// run() and the layout of the roots: a candidate's program never shares a folder with the
// reference answer. A reference inside the submission would be copied into the candidate's folder;
// a submission inside the reference (the default --reference is the rubric's folder) lives among
// the reference's files. Both are refused with an ERROR that explains the layout, whether or not
// the machine grants the whitelist sandbox, and also when only symbolic links make them nested.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <memory>

#include "helpers.hpp"

using namespace rubric;

namespace {

constexpr const char* kRunsEcho =
    "rubric \"b\" {}\ncriterion c \"c\" {\n  expect run([\"sh\", \"-c\", \"echo hi\"]).exit == 0\n}\n";

const CheckResult& only_check(const Report& r) {
  REQUIRE(r.criteria.size() == 1);
  REQUIRE(r.criteria[0].checks.size() == 1);
  return r.criteria[0].checks[0];
}

}  // namespace

TEST_CASE("a reference inside the submission (or the same folder) is an ERROR explaining the layout") {
  rubric::test::TempDir t;
  t.write("sub/ref/secret.txt", "the reference answer\n");
  t.write("sub/run.sh", "cat ref/secret.txt\n");
  for (const std::string& ref : {t.path + "/sub/ref", t.path + "/sub"}) {
    Report r = rubric::test::run_text(
        "rubric \"b\" {}\ncriterion c \"c\" {\n  expect run([\"sh\", \"run.sh\"]).exit == 0\n}\n", t.path + "/sub", ref);
    const auto& c = only_check(r);
    CAPTURE(c.explanation);
    CHECK(c.verdict == Verdict::error);
    CHECK(c.blame == Blame::rubric);
    CHECK(c.explanation.find("'run' refuses to run: the reference folder") != std::string::npos);
    CHECK(c.explanation.find("Keep the reference outside the submission") != std::string::npos);
  }
}

TEST_CASE("a submission inside the reference folder is an ERROR explaining the layout, sandbox or not") {
  rubric::test::TempDir t;
  t.write("ref/secret.txt", "the reference answer\n");
  t.write("ref/submissions/a/answer.md", "mine\n");
  Report r = rubric::test::run_text(kRunsEcho, t.path + "/ref/submissions/a", t.path + "/ref");
  const auto& c = only_check(r);
  CAPTURE(c.explanation);
  CHECK(c.verdict == Verdict::error);
  CHECK(c.blame == Blame::rubric);
  CHECK(c.explanation.find(fmt::format("'run' refuses to run: the submission folder {}/ref/submissions/a is inside the "
                                       "reference folder {}/ref",
                                       t.path, t.path)) != std::string::npos);
  CHECK(c.explanation.find("side by side") != std::string::npos);
}

TEST_CASE("the default reference (the rubric's folder) holding the submission is refused, and says so") {
  rubric::test::TempDir t;
  t.write("task/reference.npy", "secret");
  t.write("task/submissions/a/answer.md", "mine\n");
  Engine e;
  auto diags = e.load_source(std::make_shared<const SourceFile>(t.path + "/task/task.rubric", kRunsEcho));
  REQUIRE_MESSAGE(!has_errors(diags), rubric::test::all_messages(diags));
  Report r = e.check(t.path + "/task/submissions/a", "");  // --reference left at its default
  const auto& c = only_check(r);
  CAPTURE(c.explanation);
  CHECK(c.verdict == Verdict::error);
  CHECK(c.explanation.find("is inside the reference folder " + t.path + "/task") != std::string::npos);
  CHECK(c.explanation.find("without --reference, the reference folder is the rubric's own folder") != std::string::npos);
}

TEST_CASE("folders nested only through symbolic links are refused too, both ways") {
  rubric::test::TempDir t;
  t.write("ref/secret.txt", "the reference answer\n");
  t.write("ref/subs/a/answer.md", "mine\n");
  t.write("sub/hidden/secret.txt", "the reference answer\n");
  t.write("sub/run.sh", "echo hi\n");
  REQUIRE(::symlink((t.path + "/ref/subs/a").c_str(), (t.path + "/linked-sub").c_str()) == 0);
  REQUIRE(::symlink("sub/hidden", (t.path + "/linked-ref").c_str()) == 0);
  REQUIRE(::symlink((t.path + "/ref").c_str(), (t.path + "/sub/ref-link").c_str()) == 0);
  struct Case {
    std::string submission, reference, body, expected;
  };
  const std::string run_echo = "  expect run([\"sh\", \"-c\", \"echo hi\"]).exit == 0";
  for (const Case& k : {
           // The submission given as a link into the reference folder.
           Case{t.path + "/linked-sub", t.path + "/ref", run_echo,
                "the submission folder " + t.path + "/ref/subs/a is inside the reference folder " + t.path + "/ref"},
           // The reference given as a (relative) link to a folder inside the submission.
           Case{t.path + "/sub", t.path + "/linked-ref", run_echo,
                "the reference folder " + t.path + "/sub/hidden is inside the submission folder " + t.path + "/sub"},
           // A run folder inside the submission that is a link to the reference.
           Case{t.path + "/sub", t.path + "/ref", "  expect run([\"sh\", \"-c\", \"ls\"], cwd = submission / \"ref-link\").exit == 0",
                "the reference folder " + t.path + "/ref is the same as the run folder " + t.path + "/ref"},
       }) {
    Report r = rubric::test::run_text("rubric \"b\" {}\ncriterion c \"c\" {\n" + k.body + "\n}\n", k.submission, k.reference);
    const auto& c = only_check(r);
    CAPTURE(k.submission);
    CAPTURE(c.explanation);
    CHECK(c.verdict == Verdict::error);
    CHECK(c.explanation.find("'run' refuses to run") != std::string::npos);
    CHECK(c.explanation.find(k.expected) != std::string::npos);
  }
}

TEST_CASE("folders side by side run, also when one name is a prefix of the other") {
  rubric::test::TempDir t;
  t.write("ref/secret.txt", "the reference answer\n");
  t.write("ref2/answer.md", "mine\n");
  Report r = rubric::test::run_text(kRunsEcho, t.path + "/ref2", t.path + "/ref");
  const auto& c = only_check(r);
  CAPTURE(c.explanation);
  CHECK(c.verdict == Verdict::pass);
}
