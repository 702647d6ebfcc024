// Every expression form of language.md §8 and its precedence, checked through S-expressions.
#include "parse_helpers.hpp"

using rubric::test::expr;

TEST_CASE("arithmetic precedence and associativity") {
  CHECK(expr("1 + 2 * 3") == "(+ 1 (* 2 3))");
  CHECK(expr("(1 + 2) * 3") == "(* (+ 1 2) 3)");
  CHECK(expr("a - b - c") == "(- (- a b) c)");
  CHECK(expr("a / b * c") == "(* (/ a b) c)");
  CHECK(expr("-a * b") == "(* (- a) b)");
  CHECK(expr("- - a") == "(- (- a))");
  CHECK(expr("a - -b") == "(- a (- b))");
}

TEST_CASE("as binds tighter than unary minus and looser than postfix") {
  CHECK(expr("-x as ms") == "(- (as x ms))");
  CHECK(expr("j.p99_ttft_ms as ms") == "(as (. j p99_ttft_ms) ms)");
  CHECK(expr("samples(xs) as ms") == "(as (call samples xs) ms)");
  CHECK(expr("x as tok/s * 2") == "(* (as x tok/s) 2)");
  CHECK(expr("x as GB / y") == "(/ (as x GB) y)");
}

TEST_CASE("tensor subscripts: indices, slices with optional parts, negative bounds, ellipsis") {
  CHECK(expr("t[0, 3]") == "([:] t 0 3)");
  CHECK(expr("t[:, 3]") == "([:] t (: _ _ _) 3)");
  CHECK(expr("t[1:-1]") == "([:] t (: 1 (- 1) _))");
  CHECK(expr("t[::2]") == "([:] t (: _ _ 2))");
  CHECK(expr("t[a + 1:n * 2:-1]") == "([:] t (: (+ a 1) (* n 2) (- 1)))");
  CHECK(expr("t[..., -1]") == "([:] t ... (- 1))");
  CHECK(expr("t[2:][0]") == "([] ([:] t (: 2 _ _)) 0)");
  CHECK(expr("t[-1]") == "([] t (- 1))");
}

TEST_CASE("postfix: calls, fields, indexes chain left to right") {
  CHECK(expr("f(a, b, tol = 1e-3)") == "(call f a b :tol 0.001)");
  CHECK(expr("f()") == "(call f)");
  CHECK(expr("f(a,)") == "(call f a)");
  CHECK(expr("a.b.c") == "(. (. a b) c)");
  CHECK(expr("xs[0]") == "([] xs 0)");
  CHECK(expr("r[\"key with space\"]") == "([] r \"key with space\")");
  CHECK(expr("call(f, x)[0].shape") == "(. ([] (call call f x) 0) shape)");
  CHECK(expr("f(x)(y)") == "(call (call f x) y)");
  CHECK(expr("f(a == b)") == "(call f (== a b))");
  CHECK(expr("map(xs, x => x * 2)") == "(call map xs (lambda (x) (* x 2)))");
}

TEST_CASE("comparisons sit between not and + -") {
  CHECK(expr("a + 1 >= b * 2") == "(>= (+ a 1) (* b 2))");
  CHECK(expr("a == b") == "(== a b)");
  CHECK(expr("a != b") == "(!= a b)");
  CHECK(expr("a < b") == "(< a b)");
  CHECK(expr("a <= b") == "(<= a b)");
  CHECK(expr("a > b") == "(> a b)");
  CHECK(expr("x in xs") == "(in x xs)");
  CHECK(expr("not a == b") == "(not (== a b))");
  CHECK(expr("not not a") == "(not (not a))");
}

TEST_CASE("and binds tighter than or; not tighter than and") {
  CHECK(expr("a or b and c") == "(or a (and b c))");
  CHECK(expr("a and b or c") == "(or (and a b) c)");
  CHECK(expr("not a and b") == "(and (not a) b)");
  CHECK(expr("a or b or c") == "(or (or a b) c)");
  CHECK(expr("a > 1 and b < 2") == "(and (> a 1) (< b 2))");
}

TEST_CASE("within") {
  CHECK(expr("a within 5% of b") == "(within a 0.05 b)");
  CHECK(expr("a within 2 ms of b") == "(within a 2[ms] b)");
  CHECK(expr("a + 1 within t * 2 of b - 1") == "(within (+ a 1) (* t 2) (- b 1))");
  CHECK(expr("not a within 1 of b") == "(not (within a 1 b))");
}

TEST_CASE("matches and its tolerance forms") {
  CHECK(expr("out matches ref") == "(matches out ref)");
  CHECK(expr("out matches ref to 1e-3") == "(matches out ref :to 0.001)");
  CHECK(expr("out matches ref to rtol 1e-3 atol 1e-5") == "(matches out ref :rtol 0.001 :atol 1e-05)");
  CHECK(expr("out matches ref to rtol 1e-3") == "(matches out ref :rtol 0.001)");
  CHECK(expr("out matches ref to atol 1e-5") == "(matches out ref :atol 1e-05)");
  CHECK(expr("out matches ref to ulp 4") == "(matches out ref :ulp 4)");
  CHECK(expr("a matches b and c") == "(and (matches a b) c)");
  // rtol / atol / ulp are contextual: still usable as names.
  CHECK(expr("out matches ref to rtol") == "(matches out ref :to rtol)");
  CHECK(expr("rtol + atol + ulp") == "(+ (+ rtol atol) ulp)");
}

TEST_CASE("mentions, mentions any, mentions all") {
  CHECK(expr("t mentions \"LRU\"") == "(mentions t \"LRU\")");
  CHECK(expr("t mentions any [\"a\", \"b\"]") == "(mentions-any t [\"a\" \"b\"])");
  CHECK(expr("t mentions all [\"a\"]") == "(mentions-all t [\"a\"])");
  CHECK(expr("t mentions any phrases") == "(mentions-any t phrases)");
  // any / all are contextual: a call of all() is still a call.
  CHECK(expr("t mentions all(xs)") == "(mentions t (call all xs))");
  CHECK(expr("all(xs, p) and any(ys)") == "(and (call all xs p) (call any ys))");
  CHECK(expr("not (t mentions \"x\")") == "(not (mentions t \"x\"))");
}

TEST_CASE("if-then-else and lambdas have the lowest precedence") {
  CHECK(expr("if a then b else c") == "(if a b c)");
  CHECK(expr("if a > 1 then b + 1 else c or d") == "(if (> a 1) (+ b 1) (or c d))");
  CHECK(expr("if a then b else if c then d else e") == "(if a b (if c d e))");
  CHECK(expr("x => x * 2") == "(lambda (x) (* x 2))");
  CHECK(expr("(a, b) => a + b") == "(lambda (a b) (+ a b))");
  CHECK(expr("() => 1") == "(lambda () 1)");
  CHECK(expr("x => y => x + y") == "(lambda (x) (lambda (y) (+ x y)))");
  CHECK(expr("x => if x then 1 else 2") == "(lambda (x) (if x 1 2))");
  CHECK(expr("(a)") == "a");
}

TEST_CASE("primaries: literals, names, lists, records") {
  CHECK(expr("null") == "null");
  CHECK(expr("true") == "true");
  CHECK(expr("false") == "false");
  CHECK(expr("[1, 2, 3]") == "[1 2 3]");
  CHECK(expr("[]") == "[]");
  CHECK(expr("[[1, 4096], [32, 32768],]") == "[[1 4096] [32 32768]]");
  CHECK(expr("{name: \"a\", n: 2}") == "(record name=\"a\" n=2)");
  CHECK(expr("{}") == "(record)");
  CHECK(expr("{\"key with space\": 1}") == "(record key with space=1)");
  CHECK(expr("{a: {b: [1]}}") == "(record a=(record b=[1]))");
}

TEST_CASE("keywords are reserved only as whole words") {
  CHECK(expr("variance + iffy + notes") == "(+ (+ variance iffy) notes)");
  CHECK(expr("index + inner + order + android") == "(+ (+ (+ index inner) order) android)");
  CHECK(expr("tolerance + asx + nothing") == "(+ (+ tolerance asx) nothing)");
  CHECK(expr("gpu + any + all") == "(+ (+ gpu any) all)");
  CHECK(expr("_x1 + x_2") == "(+ _x1 x_2)");
}

TEST_CASE("paths are division") {
  CHECK(expr("submission / \"out\" / \"y.npy\"") == "(/ (/ submission \"out\") \"y.npy\")");
}

TEST_CASE("a block: '{' then 'let' opens lets and a final value; anything else is a record") {
  CHECK(expr("{ let r = rs[0]; let t = r.end - r.start; t / 1 s }") ==
        "(block (let r ([] rs 0)) (let t (- (. r end) (. r start))) (/ t 1[s]))");
  // Line breaks separate lets as well as ';' does; a trailing ';' after the value is allowed.
  CHECK(expr("{\n  let a = 1\n  let b = a * 2\n  a + b;\n}") == "(block (let a 1) (let b (* a 2)) (+ a b))");
  CHECK(expr("{ let a = 1;; a }") == "(block (let a 1) a)");
  // Records are unchanged, including the empty record and string keys.
  CHECK(expr("{}") == "(record)");
  CHECK(expr("{a: 1}") == "(record a=1)");
  CHECK(expr("{\"let\": 1}") == "(record let=1)");
  // A block is an operand like any other: in lambdas, arguments, operators and postfix.
  CHECK(expr("map(xs, x => { let y = x * 2; y + 1 })") ==
        "(call map xs (lambda (x) (block (let y (* x 2)) (+ y 1))))");
  CHECK(expr("{ let a = [1, 2]; a }[0] + 1") == "(+ ([] (block (let a [1 2]) a) 0) 1)");
  CHECK(expr("{ let a = { let b = 1; b }; a }") == "(block (let a (block (let b 1) b)) a)");
  // The value may be a record.
  CHECK(expr("{ let a = 1; {x: a} }") == "(block (let a 1) (record x=a))");
}
