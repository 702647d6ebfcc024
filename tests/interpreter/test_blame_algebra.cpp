// The blame algebra (docs/semantics.md): every connective × every state of its operands.
// States: T decided true, F decided false, D a failure of submission data, E a rubric error,
// S skipped (the grader lacks something), I inconclusive (statistics did not settle).
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "helpers.hpp"

using namespace rubric;
using rubric::test::TempDir;

namespace {

const char* const kStates = "TFDESI";

// An expression that evaluates to each state.
std::string state_expr(char s) {
  switch (s) {
    case 'T': return "(1 < 2)";
    case 'F': return "(2 < 1)";
    case 'D': return "(json(submission / \"missing.json\").copied == true)";
    case 'E': return "(json(reference / \"absent.json\").copied == true)";
    case 'S': return "(grader_lacks_gpu() == true)";
    case 'I': return "(samples([9, 10, 11, 9, 10, 11, 10, 10]) < 10)";
  }
  return "";
}

// The state a check ended in, as a letter.
char letter(const CheckResult& c) {
  switch (c.verdict) {
    case Verdict::pass: return 'T';
    case Verdict::fail: return c.explanation.find("missing.json") != std::string::npos ? 'D' : 'F';
    case Verdict::error: return 'E';
    case Verdict::skip: return 'S';
    case Verdict::inconclusive: return 'I';
  }
  return '?';
}

// Runs one criterion per expression (each a single `expect`, or the statements given) and returns
// the letter of each criterion's only check.
std::vector<char> run_all(const std::vector<std::string>& bodies, const std::string& prelude = "") {
  TempDir t;
  std::string sub = t.dir("sub"), ref = t.dir("ref");
  std::string text = "rubric \"algebra\" {}\n" + prelude;
  for (std::size_t i = 0; i < bodies.size(); ++i) text += "criterion c" + std::to_string(i) + " \"\" {\n" + bodies[i] + "\n}\n";
  Engine e;
  e.register_operator({"grader_lacks_gpu", {}, "an operator whose device is missing",
                       [](CallContext& ctx, const std::vector<Value>&) {
                         return Value::undecided("no usable CUDA device", Verdict::skip, Blame::grader_environment, ctx.location());
                       }});
  auto diags = test::load_text(e, text);
  REQUIRE_MESSAGE(!has_errors(diags), test::all_messages(diags));
  Report r = e.check(sub, ref);
  std::vector<char> out;
  for (const auto& c : r.criteria) {
    REQUIRE_MESSAGE(c.checks.size() == 1, c.id);
    out.push_back(letter(c.checks[0]));
  }
  return out;
}

std::string as_string(const std::vector<char>& v) { return std::string(v.begin(), v.end()); }

}  // namespace

TEST_CASE("each state expression is what it claims") {
  std::vector<std::string> bodies;
  for (const char* s = kStates; *s; ++s) bodies.push_back("expect " + state_expr(*s));
  CHECK(as_string(run_all(bodies)) == "TFDESI");
}

TEST_CASE("not negates only a decided comparison") {
  std::vector<std::string> bodies;
  for (const char* s = kStates; *s; ++s) bodies.push_back("expect not " + state_expr(*s));
  CHECK(as_string(run_all(bodies)) == "FTDESI");
}

// Rows: the left operand's state (T F D E S I); columns: the right operand's. Left to right, a
// side settles the whole when it is a submission failure (D), a rubric error (E) or the absorbing
// value (F for and, T for or): a failure of submission data FAILs whatever surrounds it, and a
// left side that settles leaves the right unevaluated (the guard `not exists(f) or json(f).x > 1`).
// Otherwise inconclusive over skipped, else the identity.
const std::map<std::string, std::vector<std::string>> kBinaryTables = {
    {"and", {"TFDESI", "FFFFFF", "DDDDDD", "EEEEEE", "SFDESI", "IFDEII"}},
    {"or", {"TTTTTT", "TFDESI", "DDDDDD", "EEEEEE", "TSDESI", "TIDEII"}},
};

TEST_CASE("and / or: every pair of states, in an expect") {
  for (const auto& [op, table] : kBinaryTables) {
    std::vector<std::string> bodies;
    for (const char* l = kStates; *l; ++l)
      for (const char* r = kStates; *r; ++r) bodies.push_back("expect " + state_expr(*l) + " " + op + " " + state_expr(*r));
    std::string got = as_string(run_all(bodies));
    std::string want;
    for (const auto& row : table) want += row;
    CAPTURE(op);
    CHECK(got == want);
  }
}

TEST_CASE("and / or: every pair of states, as values (a let, then not)") {
  // The same algebra where the connective is evaluated as a value; `not` over it keeps every
  // undecided state.
  for (const auto& [op, table] : kBinaryTables) {
    std::vector<std::string> bodies;
    for (const char* l = kStates; *l; ++l)
      for (const char* r = kStates; *r; ++r)
        bodies.push_back("let v = " + state_expr(*l) + " " + op + " " + state_expr(*r) + "\nexpect not (v == false)");
    std::string got = as_string(run_all(bodies));
    std::string want;
    for (const auto& row : table) want += row;
    CAPTURE(op);
    CHECK(got == want);
  }
}

TEST_CASE("any / all with a predicate follow or / and") {
  const std::map<std::string, std::string> as = {{"any", "or"}, {"all", "and"}};
  for (const auto& [fn, op] : as) {
    std::vector<std::string> bodies;
    for (const char* l = kStates; *l; ++l)
      for (const char* r = kStates; *r; ++r)
        bodies.push_back("expect " + fn + "([1, 2], k => if k == 1 then " + state_expr(*l) + " else " + state_expr(*r) + ")");
    std::string got = as_string(run_all(bodies));
    std::string want;
    for (const auto& row : kBinaryTables.at(op)) want += row;
    CAPTURE(fn);
    CHECK(got == want);
  }
}

TEST_CASE("any / all over a list literal follow or / and (an undecided item stays in its slot)") {
  // `any([I, true])` is decided true as `I or true` is; `all([D, false])` FAILs on the data as `D and false` does.
  const std::map<std::string, std::string> as = {{"any", "or"}, {"all", "and"}};
  for (const auto& [fn, op] : as) {
    std::vector<std::string> bodies;
    for (const char* l = kStates; *l; ++l)
      for (const char* r = kStates; *r; ++r)
        bodies.push_back("expect " + fn + "([" + state_expr(*l) + ", " + state_expr(*r) + "])");
    std::string got = as_string(run_all(bodies));
    std::string want;
    for (const auto& row : kBinaryTables.at(op)) want += row;
    CAPTURE(fn);
    CHECK(got == want);
  }
}

TEST_CASE("any / all over map follow or / and (map keeps an item's undecided result in its slot)") {
  const std::map<std::string, std::string> as = {{"any", "or"}, {"all", "and"}};
  for (const auto& [fn, op] : as) {
    std::vector<std::string> bodies;
    for (const char* l = kStates; *l; ++l)
      for (const char* r = kStates; *r; ++r)
        bodies.push_back("expect " + fn + "(map([1, 2], k => if k == 1 then " + state_expr(*l) + " else " + state_expr(*r) + "))");
    std::string got = as_string(run_all(bodies));
    std::string want;
    for (const auto& row : kBinaryTables.at(op)) want += row;
    CAPTURE(fn);
    CHECK(got == want);
  }
}

TEST_CASE("any other use of a list holding undecided items yields the strongest of them") {
  // len, sum, ==, in, indexing the undecided item, interpolation, `as`: E > D > I > S; an item
  // that is decided can still be indexed.
  std::vector<std::string> bodies = {
      "expect len([" + state_expr('S') + ", " + state_expr('I') + "]) == 2",
      "expect len([" + state_expr('I') + ", " + state_expr('D') + ", " + state_expr('S') + "]) == 3",
      "expect [" + state_expr('D') + ", " + state_expr('E') + "] == [true, true]",
      "expect true in [" + state_expr('S') + ", true]",
      "expect [" + state_expr('S') + ", true][1]",
      "expect [" + state_expr('S') + ", true][0]",
      "expect \"{[" + state_expr('D') + "]}\" == \"x\"",
      "expect len([[" + state_expr('I') + "], 1]) == 2",
      "expect sum(map([0, 1], k => 1 / k)) > 0",
  };
  CHECK(as_string(run_all(bodies)) == "IDESTSDIE");
}

TEST_CASE("a top-level let keeps the state of its value (a skipped or inconclusive let is not an ERROR)") {
  std::string prelude;
  std::vector<std::string> bodies;
  for (const char* s = kStates; *s; ++s) {
    prelude += std::string("let v") + *s + " = " + state_expr(*s) + "\n";
    bodies.push_back(std::string("expect v") + *s);
  }
  CHECK(as_string(run_all(bodies, prelude)) == "TFDESI");
}

TEST_CASE("not over any / all keeps every undecided state") {
  std::vector<std::string> bodies;
  for (const char* s = kStates; *s; ++s) bodies.push_back("expect not any([" + state_expr(*s) + "])");
  for (const char* s = kStates; *s; ++s) bodies.push_back("expect not all([" + state_expr(*s) + "])");
  CHECK(as_string(run_all(bodies)) == "FTDESIFTDESI");
}

TEST_CASE("if (expression and statement) passes every undecided state on") {
  std::vector<std::string> bodies;
  for (const char* s = kStates; *s; ++s) bodies.push_back("expect (if " + state_expr(*s) + " then false else true)");
  for (const char* s = kStates; *s; ++s)
    bodies.push_back("if " + state_expr(*s) + " {\n  expect 1 < 2\n} else {\n  expect 2 < 1\n}");
  CHECK(as_string(run_all(bodies)) == "FTDESI" "TFDESI");
}

TEST_CASE("a run that cannot be set up (TMPDIR unusable) is the grading environment's ERROR, not a FAIL") {
  TempDir t;
  std::string sub = t.dir("sub");
  const char* old = std::getenv("TMPDIR");
  std::string saved = old ? old : "";
  ::setenv("TMPDIR", (t.path + "/no/such/dir").c_str(), 1);
  Report r = test::run_text("rubric \"tmp\" {}\ncriterion r \"runs\" {\n  expect run(\"true\").exit == 0\n}\n", sub, "");
  if (old) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
  REQUIRE(r.criteria.size() == 1);
  REQUIRE(r.criteria[0].checks.size() == 1);
  CHECK(r.criteria[0].checks[0].verdict == Verdict::error);
  CHECK(r.criteria[0].checks[0].blame == Blame::grader_environment);
}

TEST_CASE("a GPU operator without a device is SKIPPED wherever it is used, never a FAIL") {
  // The grader lacks a device: an undecided SKIP with blame grader_environment, through `not`,
  // `and`, `if` and a comparison alike.
  std::vector<std::string> bodies = {"expect grader_lacks_gpu() < 1 ms", "expect not (grader_lacks_gpu() == true)",
                                     "expect (1 < 2) and grader_lacks_gpu() == true",
                                     "if grader_lacks_gpu() == true {\n  expect 2 < 1\n}"};
  CHECK(as_string(run_all(bodies)) == "SSSS");
}
