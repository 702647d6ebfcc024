// Syntax errors: their messages, their places, recovery, the error cap and the nesting cap.
#include "parse_helpers.hpp"

using rubric::test::expr_error;
using rubric::test::parse_text;
namespace ast = rubric::ast;

namespace {
std::vector<std::string> messages(const rubric::ParseResult& r) {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) out.push_back(d.message);
  return out;
}
std::string where(const rubric::ParseResult& r, std::size_t i) {
  auto lc = r.file->source->position(r.diagnostics.at(i).range.begin);
  return std::to_string(lc.line) + ":" + std::to_string(lc.column);
}
}  // namespace

TEST_CASE("messages say what was expected") {
  CHECK(expr_error("a within") == "expected an expression after 'within'");
  CHECK(expr_error("a within 5%") == "expected 'of' after the tolerance (a within T of b)");
  CHECK(expr_error("a matches") == "expected an expression after 'matches'");
  CHECK(expr_error("a matches b to") == "expected a tolerance after 'to' (T, rtol R atol A, or ulp N)");
  CHECK(expr_error("a mentions") == "expected a phrase after 'mentions'");
  CHECK(expr_error("a +") == "expected an operand after '+' or '-'");
  CHECK(expr_error("a and") == "expected an operand after 'and'");
  CHECK(expr_error("not") == "expected an operand after 'not'");
  CHECK(expr_error("(a") == "expected ')' to close the parenthesis opened at 1:1");
  CHECK(expr_error("[1, 2") == "expected ']' to close the list opened at 1:1");
  CHECK(expr_error("{a 1}") == "expected ':' after the record key");
  CHECK(expr_error("f(a") == "expected ')' to close the argument list opened at 1:2");
  CHECK(expr_error("{a: 1") == "expected '}' to close the record opened at 1:1");
  CHECK(expr_error("x as") == "expected a unit after 'as' (ms, GB/s, tok/s, ...)");
  CHECK(expr_error("x as meters") == "expected a unit after 'as' (ms, GB/s, tok/s, ...)");
  CHECK(expr_error("if a then b") == "expected 'else' in 'if c then a else b'");
  CHECK(expr_error("x =>") == "expected a body after '=>'");
  CHECK(expr_error("\"abc") == "expected '\"' to close the string (strings end on their line)");
  CHECK(expr_error("\"a\\qb\"") == "expected an escape (\\n \\t \\r \\\" \\\\ \\{ \\}) after '\\'");
  CHECK(expr_error("\"{a\"") == "expected '}' to close the interpolation");
  CHECK(expr_error("\"{}\"") == "expected an expression inside '{...}' in the string");
  CHECK(expr_error("a < b < c") == "comparisons do not chain: combine them with 'and'");
  CHECK(expr_error("f(a = 1, b)") == "positional argument after a named argument (write positional arguments first)");
  CHECK(expr_error("1 2") == "expected the end of the value");
  CHECK(expr_error("") == "expected an expression");
  CHECK(expr_error("1e999") == "number out of range");
  CHECK(expr_error("{\"a{x}\": 1}") == "a record key cannot interpolate '{...}'");
}

TEST_CASE("block errors: no value, a let after the value, an unclosed block") {
  CHECK(expr_error("{ let a = 1 }") ==
        "expected the block's value after its lets (a block ends with an expression: { let x = ...; x * 2 })");
  CHECK(expr_error("{ let a = 1; let b = 2; }") ==
        "expected the block's value after its lets (a block ends with an expression: { let x = ...; x * 2 })");
  CHECK(expr_error("{ let a = 1; a; let b = 2 }") ==
        "a 'let' after the block's value: the value is the block's last expression, so every let comes before it");
  CHECK(expr_error("{ let a = 1; a b }") == "expected '}' to close the block opened at 1:1");
  CHECK(expr_error("{ let = 1; 2 }") == "expected a name after 'let'");
  CHECK(expr_error("{ let a 1; a }") == "expected '=' after the name in 'let'");
  CHECK(expr_error("{ let a = ; a }") == "expected an expression after '='");
  // In a def, with its place: file:line:col.
  auto r = parse_text("def f(x) = {\n  let a = x\n  a\n  let b = 2\n}\ncriterion c \"t\" { expect f(1) == 1 }\n");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(where(r, 0) == "4:3");
  REQUIRE(r.file->items.size() == 1);
  CHECK(std::holds_alternative<ast::Criterion>(r.file->items[0]));
}

TEST_CASE("errors say what the author meant: a keyword as a name, a mistyped keyword, escaped quotes") {
  auto keyword = parse_text("criterion c \"t\" {\n  let after = 1\n  expect true\n}\n");
  REQUIRE(keyword.diagnostics.size() == 1);
  CHECK(keyword.diagnostics[0].message == "expected a name after 'let'");
  REQUIRE(keyword.diagnostics[0].notes.size() == 2);
  CHECK(keyword.diagnostics[0].notes[1].rfind("'after' is a keyword, and a keyword cannot be a name; the keywords are: rubric use", 0) == 0);
  auto typo = parse_text("criterion c \"t\" {\n  expect \"x\" affirm \"x\"\n}\n");
  REQUIRE(typo.diagnostics.size() == 1);
  CHECK(typo.diagnostics[0].notes.back() == "did you mean 'affirms'?");
  CHECK(where(typo, 0) == "2:14");
  // Short words are not taken for keywords (`ix` is not a typo of `in`).
  auto short_word = parse_text("criterion c \"t\" {\n  expect 1 ix 2\n}\n");
  REQUIRE(short_word.diagnostics.size() == 1);
  CHECK(short_word.diagnostics[0].notes.size() == 1);
  auto quotes = parse_text("criterion c \"t\" {\n  note \"v {m[\\\"k\\\"]}\"\n}\n");
  REQUIRE(quotes.diagnostics.size() == 1);
  CHECK(quotes.diagnostics[0].notes.back() ==
        "inside '{...}' in a string, quotes need no backslash: write {m[\"key\"]}, not {m[\\\"key\\\"]}");
  // `weight {`: the number is missing, reported at the '{' (not as an unclosed record below it).
  auto weight = parse_text("criterion c \"t\" weight {\n  expect true\n}\n");
  REQUIRE(weight.diagnostics.size() == 1);
  CHECK(weight.diagnostics[0].message == "expected a weight after 'weight' (a number: weight 2)");
  CHECK(where(weight, 0) == "1:24");
  // A missing ')' says where the list opened.
  auto paren = parse_text("criterion c \"t\" {\n  expect len(files(submission, \"*.json\") > 0\n}\n");
  REQUIRE(paren.diagnostics.size() == 1);
  CHECK(paren.diagnostics[0].message == "expected ')' to close the argument list opened at 2:13");
}

TEST_CASE("diagnostics name what was found and point at it") {
  auto r = parse_text("criterion c \"t\" {\n  expect a within\n}\n");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(rubric::format_diagnostic(r.diagnostics[0]) ==
        "test.rubric:3:1: error: expected an expression after 'within'\n"
        "  }\n"
        "  ^\n"
        "  note: found '}'\n");
  auto r2 = parse_text("param x = 1 +\n");
  REQUIRE(r2.diagnostics.size() == 1);
  CHECK(r2.diagnostics[0].notes.at(0) == "found end of file");
}

TEST_CASE("a missing '}' names where the body was opened") {
  auto r = parse_text(
      "param a = 1\n"
      "criterion one \"t\" weight 2 {\n"
      "  expect x\n"
      "\n"
      "criterion two \"u\" { expect y }\n");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "expected '}' to close the criterion body opened at 2:28");
  CHECK(where(r, 0) == "5:1");
  REQUIRE(r.file->items.size() == 2);
  CHECK(std::get<ast::Criterion>(r.file->items[1]).id.name == "two");
}

TEST_CASE("three bad declarations: three errors, the good ones kept") {
  auto r = parse_text(
      "param a = 1\n"
      "let = 2\n"
      "criterion c1 { expect x }\n"
      "let good = 3\n"
      "def f(x) = x +\n"
      "criterion c2 \"fine\" { expect y }\n");
  CHECK(messages(r) == std::vector<std::string>{"expected a name after 'let'",
                                                "expected a title string after the criterion id",
                                                "expected an operand after '+' or '-'"});
  CHECK(where(r, 0) == "2:5");
  CHECK(where(r, 1) == "3:14");
  CHECK(where(r, 2) == "6:1");
  CHECK(rubric::ast::to_sexpr(*r.file) == "(param a 1)\n(let good 3)\n(criterion c2 \"fine\" ((expect y)))\n");
}

TEST_CASE("inside a body, recovery resumes at the next statement") {
  auto r = parse_text(
      "criterion c \"t\" {\n"
      "  expect a >\n"
      "  let b = 1\n"
      "  expect b ==\n"
      "  note \"fine\"\n"
      "  foo bar\n"
      "  for x in xs { expect x within }\n"
      "  score 1\n"
      "}\n"
      "criterion d \"u\" { }\n");
  CHECK(messages(r) == std::vector<std::string>{
                           "expected an expression after the comparison operator",
                           "expected an expression after the comparison operator",
                           "expected a statement (let, expect, check, note, score, for, if) or '}'",
                           "expected an expression after 'within'"});
  CHECK(where(r, 0) == "3:3");
  CHECK(where(r, 2) == "6:3");
  CHECK(rubric::ast::to_sexpr(*r.file) ==
        "(criterion c \"t\" ((let b 1) (note \"fine\") (for x xs ()) (score 1)))\n(criterion d \"u\" ())\n");
}

TEST_CASE("inside a group, recovery resumes at the next criterion") {
  auto r = parse_text(
      "group g \"G\" {\n"
      "  criterion a { }\n"
      "  criterion b \"B\" { }\n"
      "  oops\n"
      "  let c = 1\n"
      "}\n");
  CHECK(messages(r) == std::vector<std::string>{"expected a title string after the criterion id",
                                                "expected a criterion, group or let inside the group, or '}'"});
  CHECK(rubric::ast::to_sexpr(*r.file) == "(group g \"G\" ((criterion b \"B\" ()) (let c 1)))\n");
}

TEST_CASE("other declaration errors") {
  CHECK(messages(parse_text("foo = 1\nparam a = 1")) ==
        std::vector<std::string>{"expected a declaration (use, import, param, let, def, criterion, group)"});
  CHECK(messages(parse_text("param a = 1\nrubric \"late\"")) ==
        std::vector<std::string>{"the rubric header must come first in the file"});
  CHECK(messages(parse_text("rubric \"a\"\nrubric \"b\"")) == std::vector<std::string>{"a rubric file has one header"});
  CHECK(messages(parse_text("criterion c \"t\" weight 1 penalty 2 { }")) ==
        std::vector<std::string>{"a criterion has a weight or a penalty, not both"});
  CHECK(messages(parse_text("criterion c \"t\" { check x }")) ==
        std::vector<std::string>{"expected a call of a check after 'check' (check name(args))"});
  CHECK(messages(parse_text("criterion c \"t\" needs { }")) ==
        std::vector<std::string>{"expected what the criterion needs after 'needs' (gpu)"});
  CHECK(messages(parse_text("criterion c \"t\" after { }")) ==
        std::vector<std::string>{"expected a criterion id after 'after'"});
  CHECK(messages(parse_text("criterion c \"t\"")) ==
        std::vector<std::string>{"expected '{' to open the criterion body (or weight, penalty, required, after, needs)"});
  CHECK(messages(parse_text("use")) == std::vector<std::string>{"expected a module path after 'use' (std.numerics)"});
  CHECK(messages(parse_text("import \"{x}.rubric\"")) ==
        std::vector<std::string>{"the file name of 'import' cannot interpolate '{...}'"});
  CHECK(messages(parse_text("def f(x) x")) ==
        std::vector<std::string>{"expected '= expression' or '{' after the parameters of the def"});
  CHECK(messages(parse_text("param p")) ==
        std::vector<std::string>{"expected '=' and a default value after the name in 'param'"});
  CHECK(messages(parse_text("criterion c \"t\" { if a { } else x }")) ==
        std::vector<std::string>{"expected '{' or 'if' after 'else'"});
  CHECK(messages(parse_text("let if = 1")) == std::vector<std::string>{"expected a name after 'let'"});
}

TEST_CASE("at most 20 errors are reported") {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "param p" + std::to_string(i) + " =\n";
  auto r = parse_text(text);
  REQUIRE(r.diagnostics.size() == 20);
  CHECK(r.diagnostics.back().notes.back() == "stopping after 20 errors");
  CHECK_FALSE(r.ok());
}

TEST_CASE("nesting deeper than 200 levels is an error, not a crash") {
  auto nest = [](int n, const std::string& open, const std::string& inner, const std::string& close) {
    std::string s;
    for (int i = 0; i < n; ++i) s += open;
    s += inner;
    for (int i = 0; i < n; ++i) s += close;
    return s;
  };
  CHECK(rubric::test::expr(nest(150, "(", "1", ")")) == "1");
  const std::string too_deep = "nesting deeper than 200 levels (expressions, blocks or groups)";
  CHECK(expr_error(nest(100000, "(", "1", ")")) == too_deep);
  CHECK(expr_error(nest(100000, "[", "1", "]")) == too_deep);
  CHECK(expr_error(nest(100000, "- ", "1", "")) == too_deep);
  CHECK(expr_error(nest(100000, "not ", "a", "")) == too_deep);
  CHECK(expr_error(nest(100000, "x => ", "1", "")) == too_deep);
  CHECK(expr_error(nest(100000, "if a then b else ", "c", "")) == too_deep);
  CHECK(expr_error(nest(100000, "{a: ", "1", "}")) == too_deep);
  CHECK(expr_error(nest(100000, "{ let a = ", "1", "; a }")) == too_deep);
  CHECK(expr_error(nest(100000, "f(", "1", ")")) == too_deep);
  CHECK(expr_error(nest(100000, "\"{", "1", "}\"")) == too_deep);
  auto r = parse_text("criterion c \"t\" {" + nest(100000, "if a {", "", "}") + "}");
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].message == too_deep);
  auto g = parse_text(nest(100000, "group g \"t\" {", "", "}"));
  REQUIRE_FALSE(g.diagnostics.empty());
  CHECK(g.diagnostics[0].message == too_deep);
}

TEST_CASE("bytes that are not ASCII are reported, not misread") {
  auto r = parse_text("param a = 1\n\xC3\xA9t\xC3\xA9 = 2\nparam b = \xFF\n");
  CHECK(r.diagnostics.size() == 2);
  CHECK(r.file->items.size() == 1);
}

TEST_CASE("an error inside a block resumes after the block, a missing '}' at the next statement") {
  auto r = parse_text(
      "criterion a \"x\" {\n"
      "  let v = {\n"
      "    let a = 1 +\n"
      "    let b = 2\n"
      "    a + b\n"
      "  }\n"
      "  expect v > 1\n"
      "}\n"
      "criterion b \"y\" { expect 1 == 1 }\n");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "expected an operand after '+' or '-'");
  CHECK(where(r, 0) == "4:5");
  REQUIRE(r.file->items.size() == 2);
  CHECK(std::get<ast::Criterion>(r.file->items[0]).body.size() == 1);  // the expect after the block
  auto m = parse_text(
      "criterion a \"x\" {\n"
      "  let v = {\n"
      "    let a = 1\n"
      "    a\n"
      "  expect v > 1\n"
      "}\n"
      "criterion b \"y\" { expect 1 == 1 }\n");
  REQUIRE(m.diagnostics.size() == 1);
  CHECK(m.diagnostics[0].message == "expected '}' to close the block opened at 2:11");
  REQUIRE(m.file->items.size() == 2);
  CHECK(std::get<ast::Criterion>(m.file->items[0]).body.size() == 1);
}
