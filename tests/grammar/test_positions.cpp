// Every node carries its byte range; line:col comes from the SourceFile.
#include "parse_helpers.hpp"

using rubric::LineColumn;
using rubric::test::parse_text;
namespace ast = rubric::ast;

namespace {
std::string at(const rubric::SourceFile& src, rubric::SourceRange r) {
  LineColumn lc = src.position(r.begin);
  return std::to_string(lc.line) + ":" + std::to_string(lc.column) + " " + std::string(src.slice(r));
}
}  // namespace

TEST_CASE("declarations, statements and expressions know where they are") {
  auto r = parse_text(
      "rubric \"t\" { pass: 70% }\n"
      "param context = 32Ki   # comment\n"
      "criterion throughput \"x\" weight 3 after numerics {\n"
      "  let out = load(submission / \"a.npy\")\n"
      "  expect cand.output_throughput >= 0.95 * base.output_throughput\n"
      "}\n");
  REQUIRE(r.ok());
  const rubric::SourceFile& src = *r.file->source;
  CHECK(at(src, r.file->header->range) == "1:1 rubric \"t\" { pass: 70% }");
  CHECK(at(src, r.file->header->fields->range) == "1:12 { pass: 70% }");
  const auto& p = std::get<ast::Param>(r.file->items[0]);
  CHECK(at(src, p.range) == "2:1 param context = 32Ki");
  CHECK(at(src, p.name.range) == "2:7 context");
  CHECK(at(src, p.value->range) == "2:17 32Ki");
  const auto& c = std::get<ast::Criterion>(r.file->items[1]);
  CHECK(at(src, c.id.range) == "3:11 throughput");
  CHECK(at(src, c.weight->range) == "3:33 3");
  CHECK(at(src, c.after[0].range) == "3:41 numerics");
  CHECK(src.position(c.range.begin).line == 3);
  CHECK(src.position(c.range.end - 1).line == 6);
  REQUIRE(c.body.size() == 2);
  CHECK(at(src, c.body[0].range) == "4:3 let out = load(submission / \"a.npy\")");
  const auto& let = std::get<ast::LetStmt>(c.body[0].node);
  CHECK(at(src, let.value->range) == "4:13 load(submission / \"a.npy\")");
  const auto& call = std::get<ast::Call>(let.value->node);
  CHECK(at(src, call.callee->range) == "4:13 load");
  CHECK(at(src, call.args[0]->range) == "4:18 submission / \"a.npy\"");
  const auto& path = std::get<ast::Binary>(call.args[0]->node);
  CHECK(at(src, path.rhs->range) == "4:31 \"a.npy\"");
  const auto& expect = std::get<ast::ExpectStmt>(c.body[1].node);
  // The check's source text, as the report shows it.
  CHECK(at(src, expect.condition->range) == "5:10 cand.output_throughput >= 0.95 * base.output_throughput");
  const auto& cmp = std::get<ast::Binary>(expect.condition->node);
  CHECK(at(src, cmp.lhs->range) == "5:10 cand.output_throughput");
  CHECK(at(src, cmp.rhs->range) == "5:36 0.95 * base.output_throughput");
  const auto& field = std::get<ast::Field>(cmp.lhs->node);
  CHECK(at(src, field.name.range) == "5:15 output_throughput");
}

TEST_CASE("ranges of operator nodes cover both operands; parentheses are included") {
  auto source = rubric::test::source_of("(a + b) * c as ms");
  auto r = rubric::parse_expression(source);
  REQUIRE(static_cast<bool>(r.expr));
  const rubric::SourceFile& src = *source;
  CHECK(at(src, r.expr->range) == "1:1 (a + b) * c as ms");
  const auto& mul = std::get<ast::Binary>(r.expr->node);
  CHECK(at(src, mul.lhs->range) == "1:1 (a + b)");
  const auto& as = std::get<ast::As>(mul.rhs->node);
  CHECK(at(src, mul.rhs->range) == "1:11 c as ms");
  CHECK(at(src, as.unit_range) == "1:16 ms");
}

TEST_CASE("matches, within, mentions, lambda, if: ranges") {
  std::string text = "x matches y to rtol 1e-3 atol 1e-5";
  auto r = rubric::parse_expression(rubric::test::source_of(text));
  REQUIRE(static_cast<bool>(r.expr));
  CHECK(r.expr->range.begin == 0);
  CHECK(r.expr->range.end == text.size());
  for (std::string t : {"a within 5% of b", "t mentions any [\"a\"]", "x => x + 1", "if a then b else c",
                        "-x", "not x", "f(a)[0].b", "[1, 2]", "{a: 1}", "\"s{x}\"", "r\"raw\"", "32Ki tok/s"}) {
    auto e = rubric::parse_expression(rubric::test::source_of(t));
    INFO(t);
    REQUIRE(static_cast<bool>(e.expr));
    CHECK(e.expr->range.begin == 0);
    CHECK(e.expr->range.end == t.size());
  }
}
