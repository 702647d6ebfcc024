// Every statement of a criterion or check body.
#include "parse_helpers.hpp"

using rubric::test::body;

TEST_CASE("let, expect [else], check, note, score") {
  CHECK(body("let x = 1 + 2") == "((let x (+ 1 2)))");
  CHECK(body("expect a > b") == "((expect (> a b)))");
  CHECK(body("expect a > b else \"too slow: {a}\"") == "((expect (> a b) :else \"too slow: {a}\"))");
  CHECK(body("check no_regression(cand.x, base.x, tol = 2%)") ==
        "((check (call no_regression (. cand x) (. base x) :tol 0.02)))");
  CHECK(body("note \"median {median(t)}\"") == "((note \"median {(call median t)}\"))");
  CHECK(body("score clamp(x / 2, 0, 1)") == "((score (call clamp (/ x 2) 0 1)))");
}

TEST_CASE("statements need no separator across lines") {
  CHECK(body("let a = f(x)\nexpect a\n  > 3\nnote \"n\"") == "((let a (call f x)) (expect (> a 3)) (note \"n\"))");
}

TEST_CASE("for") {
  CHECK(body("for shape in [[1, 2], [3, 4]] {\n let x = shape[0]\n expect x > 0\n}") ==
        "((for shape [[1 2] [3 4]] ((let x ([] shape 0)) (expect (> x 0)))))");
  CHECK(body("for x in xs { }") == "((for x xs ()))");
}

TEST_CASE("if, else, else if") {
  CHECK(body("if a { expect b }") == "((if a ((expect b))))");
  CHECK(body("if a { expect b } else { expect c }") == "((if a ((expect b)) :else ((expect c))))");
  CHECK(body("if a { note \"1\" } else if b { note \"2\" } else { note \"3\" }") ==
        "((if a ((note \"1\")) :else ((if b ((note \"2\")) :else ((note \"3\"))))))");
  CHECK(body("if x > 1 and not y { for i in range(3) { score i } }") ==
        "((if (and (> x 1) (not y)) ((for i (call range 3) ((score i))))))");
}

TEST_CASE("an if expression inside a statement is not an if statement") {
  CHECK(body("let v = if a then 1 else 2") == "((let v (if a 1 2)))");
  CHECK(body("expect if a then b else c") == "((expect (if a b c)))");
}
