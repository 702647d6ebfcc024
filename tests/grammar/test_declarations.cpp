// Header, use, import, param, let, def, criterion (every modifier), group, ## docs.
#include "parse_helpers.hpp"

using rubric::test::file_sexpr;
using rubric::test::parse_text;

TEST_CASE("header") {
  CHECK(file_sexpr("rubric \"Softmax kernel\" { version: \"2.1\", pass: 80%, confidence: 95% }") ==
        "(rubric \"Softmax kernel\" (record version=\"2.1\" pass=0.8 confidence=0.95))\n");
  CHECK(file_sexpr("rubric \"t\"\nparam a = 1") == "(rubric \"t\" nil)\n(param a 1)\n");
  auto r = parse_text("rubric \"t\" {}\n");
  REQUIRE(r.file->header);
  CHECK(r.file->items.empty());
}

TEST_CASE("a module has no header") {
  auto r = parse_text("def f(x) = x\n");
  CHECK(r.ok());
  CHECK_FALSE(r.file->header);
}

TEST_CASE("use and import") {
  CHECK(file_sexpr("use std.serving\nuse std.numerics as num\nuse team.a.b") ==
        "(use std.serving)\n(use std.numerics :as num)\n(use team.a.b)\n");
  CHECK(file_sexpr("import \"lib/checks.rubric\"\nimport \"x.rubric\" as x") ==
        "(import \"lib/checks.rubric\")\n(import \"x.rubric\" :as x)\n");
}

TEST_CASE("param, let, def") {
  CHECK(file_sexpr("param context = 32Ki") == "(param context 32768)\n");
  CHECK(file_sexpr("let ref = load(reference / \"y.npy\")") == "(let ref (call load (/ reference \"y.npy\")))\n");
  CHECK(file_sexpr("def speedup(t_new, t_old) = t_old / t_new") == "(def speedup (t_new t_old) = (/ t_old t_new))\n");
  CHECK(file_sexpr("def f() = 1") == "(def f () = 1)\n");
  CHECK(file_sexpr("def no_regression(cand, base, tol = 5%) {\n  expect cand >= (1 - tol) * base\n}") ==
        "(def no_regression (cand base tol=0.05) ((expect (>= cand (* (- 1 tol) base)))))\n");
  auto r = parse_text("def c(a) { expect a }\ndef f(a) = a");
  REQUIRE(r.file->items.size() == 2);
  CHECK(std::get<rubric::ast::Def>(r.file->items[0]).is_check());
  CHECK_FALSE(std::get<rubric::ast::Def>(r.file->items[1]).is_check());
}

TEST_CASE("criterion with every modifier") {
  CHECK(file_sexpr("criterion a \"t\" { }") == "(criterion a \"t\" ())\n");
  CHECK(file_sexpr("criterion speed \"at {n}\" weight 3 required after numerics, build needs gpu { expect x }") ==
        "(criterion speed \"at {n}\" :weight 3 :required :after (numerics build) :needs (gpu) ((expect x)))\n");
  CHECK(file_sexpr("criterion hard \"no hard-coding\" penalty 2 { expect not x }") ==
        "(criterion hard \"no hard-coding\" :penalty 2 ((expect (not x))))\n");
  CHECK(file_sexpr("criterion w \"t\" weight (a + b) { }") == "(criterion w \"t\" :weight (+ a b) ())\n");
  CHECK(file_sexpr("criterion w \"t\" weight w2 required { }") == "(criterion w \"t\" :weight w2 :required ())\n");
  CHECK(file_sexpr("criterion w \"t\" weight -1 { }") == "(criterion w \"t\" :weight (- 1) ())\n");
}

TEST_CASE("groups nest and hold criteria, groups and lets") {
  CHECK(file_sexpr("group perf \"Performance\" weight 2 {\n"
                   "  let t = time(f)\n"
                   "  criterion a \"A\" { expect t > 0 }\n"
                   "  group inner \"Inner\" { criterion b \"B\" { } }\n"
                   "}") ==
        "(group perf \"Performance\" :weight 2 ((let t (call time f)) (criterion a \"A\" ((expect (> t 0)))) "
        "(group inner \"Inner\" ((criterion b \"B\" ())))))\n");
}

TEST_CASE("## docs attach to the def, let or param right below") {
  auto r = parse_text(
      "## The context length.\n"
      "##   indented stays\n"
      "param context = 32Ki\n"
      "\n"
      "## not attached: a blank line follows\n"
      "\n"
      "let a = 1\n"
      "# an ordinary comment\n"
      "def f(x) = x\n"
      "  ## indented doc\n"
      "  def g(x) = x\n"
      "group g2 \"G\" {\n"
      "  ## group let doc\n"
      "  let inner = 1\n"
      "}\n");
  REQUIRE(r.ok());
  REQUIRE(r.file->items.size() == 5);
  CHECK(std::get<rubric::ast::Param>(r.file->items[0]).doc == "The context length.\n  indented stays");
  CHECK(std::get<rubric::ast::LetDecl>(r.file->items[1]).doc == "");
  CHECK(std::get<rubric::ast::Def>(r.file->items[2]).doc == "");
  CHECK(std::get<rubric::ast::Def>(r.file->items[3]).doc == "indented doc");
  const auto& g = *std::get<std::shared_ptr<const rubric::ast::Group>>(r.file->items[4]);
  CHECK(std::get<rubric::ast::LetDecl>(g.items[0]).doc == "group let doc");
}
