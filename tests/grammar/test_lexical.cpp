// Numbers, scale suffixes, units, strings, raw strings, comments.
#include "parse_helpers.hpp"

using rubric::test::expr;

TEST_CASE("numbers") {
  CHECK(expr("12") == "12");
  CHECK(expr("0.5") == "0.5");
  CHECK(expr("1e-3") == "0.001");
  CHECK(expr("2.5E+6") == "2500000");
}

TEST_CASE("scale suffixes are applied to the value") {
  CHECK(expr("32k") == "32000");
  CHECK(expr("32Ki") == "32768");
  CHECK(expr("2M") == "2000000");
  CHECK(expr("3Mi") == "3145728");
  CHECK(expr("1G") == "1000000000");
  CHECK(expr("1Gi") == "1073741824");
  CHECK(expr("2T") == "2000000000000");
  CHECK(expr("1Ti") == "1099511627776");
  CHECK(expr("5%") == "0.05");
  CHECK(expr("70%") == "0.7");
  CHECK(expr("1.5x") == "1.5");
  CHECK(expr("0.5Ki") == "512");
}

TEST_CASE("units after a number, with or without a space") {
  CHECK(expr("5ms") == "5[ms]");
  CHECK(expr("5 ms") == "5[ms]");
  CHECK(expr("1.2 TB/s") == "1.2[TB/s]");
  CHECK(expr("4 GiB") == "4[GiB]");
  CHECK(expr("32Ki tok") == "32768[tok]");
  CHECK(expr("150 tok/s") == "150[tok/s]");
  CHECK(expr("12k tok/s") == "12000[tok/s]");
  CHECK(expr("3 ms/tok") == "3[ms/tok]");
  CHECK(expr("2 TFLOP/s") == "2[TFLOP/s]");
  CHECK(expr("10 req/s") == "10[req/s]");
  CHECK(expr("2 GB*s") == "2[GB*s]");
  CHECK(expr("1 min") == "1[min]");
  CHECK(expr("1.5 GHz") == "1.5[GHz]");
  CHECK(expr("2 h") == "2[h]");
  CHECK(expr("800MHz") == "800[MHz]");
  CHECK(expr("2 h") == "2[h]");
  CHECK(expr("7 ns") == "7[ns]");
  CHECK(expr("7 us") == "7[us]");
  CHECK(expr("7 \xC2\xB5s") == "7[us]");  // µs is normalised to us
  CHECK(expr("2GB") == "2[GB]");
  CHECK(expr("12kB") == "12[kB]");
  CHECK(expr("1 KB + 1 MB + 1 TB + 1 KiB + 1 MiB + 1 TiB") ==
        "(+ (+ (+ (+ (+ 1[KB] 1[MB]) 1[TB]) 1[KiB]) 1[MiB]) 1[TiB])");
  CHECK(expr("1 FLOP + 1 GFLOP + 1 PFLOP") == "(+ (+ 1[FLOP] 1[GFLOP]) 1[PFLOP])");
}

TEST_CASE("a unit continues over / and * only when a unit atom follows") {
  CHECK(expr("1 GB / 2 ms") == "(/ 1[GB] 2[ms])");
  CHECK(expr("4 B / median(t)") == "(/ 4[B] (call median t))");
  CHECK(expr("t / 1 us") == "(/ t 1[us])");
  CHECK(expr("2 ms * 3") == "(* 2[ms] 3)");
  CHECK(expr("2 * 32 * 32768 * 4 B / median(t)") == "(/ (* (* (* 2 32) 32768) 4[B]) (call median t))");
  CHECK(expr("4 B / s") == "4[B/s]");
}

TEST_CASE("a unit atom must not run into an identifier") {
  // `s` followed by `amples` is no unit: the number ends and `samples` is left over.
  CHECK(rubric::test::expr_error("5 samples") == "expected the end of the value");
  CHECK(rubric::test::expr_error("4 required") == "expected the end of the value");
  CHECK(expr("n * 5 min") == "(* n 5[min])");
}

TEST_CASE("strings: escapes and interpolation") {
  CHECK(expr(R"("a\nb\t\"q\"\\")") == R"("a\nb\t\"q\"\\")");
  CHECK(expr(R"("bench_{context}.json")") == R"("bench_{context}.json")");
  CHECK(expr(R"("{a + 1} and { f(x) }")") == R"("{(+ a 1)} and {(call f x)}")");
  CHECK(expr(R"("{{literal}")") == R"("{{literal}")");
  CHECK(expr(R"("\{literal}")") == R"("{{literal}")");
  CHECK(expr(R"("nested {f("inner {x}")}")") == R"("nested {(call f "inner {x}")}")");
  CHECK(expr(R"("")") == R"("")");
  CHECK(expr("\"caf\xC3\xA9\"") == "\"caf\xC3\xA9\"");
}

TEST_CASE("string parts keep the text with escapes resolved") {
  auto r = rubric::parse_expression(rubric::test::source_of(R"("a\n{x}b")"));
  REQUIRE(static_cast<bool>(r.expr));
  const auto& s = std::get<rubric::ast::StringLit>(r.expr->node);
  REQUIRE(s.parts.size() == 3);
  CHECK(std::get<std::string>(s.parts[0]) == "a\n");
  CHECK(std::get<rubric::ast::ExprPtr>(s.parts[1])->range.begin == 5u);
  CHECK(std::get<std::string>(s.parts[2]) == "b");
  CHECK_FALSE(s.raw);
}

TEST_CASE("raw strings have no escapes and no interpolation") {
  auto r = rubric::parse_expression(rubric::test::source_of(R"(r"\d{3} tok/s")"));
  REQUIRE(static_cast<bool>(r.expr));
  const auto& s = std::get<rubric::ast::StringLit>(r.expr->node);
  CHECK(s.raw);
  REQUIRE(s.parts.size() == 1);
  CHECK(std::get<std::string>(s.parts[0]) == R"(\d{3} tok/s)");
  CHECK(expr(R"(regex(t, r"\d{3} tok/s"))") == R"((call regex t r"\d{3} tok/s"))");
  CHECK(expr("r + 1") == "(+ r 1)");
}

TEST_CASE("comments and semicolons") {
  CHECK(rubric::test::file_sexpr("# a comment\nparam a = 1 # trailing\n;param b = 2;;\n## doc\nlet c = 3;") ==
        "(param a 1)\n(param b 2)\n(let c 3)\n");
  CHECK(rubric::test::body("let a = 1; expect a # why\n; note \"n\";") ==
        "((let a 1) (expect a) (note \"n\"))");
}
