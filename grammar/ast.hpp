#pragma once
// The syntax tree of a rubric file. Plain structs over std::variant, free of Spirit X3, so every
// later stage includes this header cheaply. Every node a diagnostic can name carries its
// SourceRange; a default (0, 0) range means "no location".
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "grammar/source.hpp"

namespace rubric::ast {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

// A name as written, with its place (criterion ids in `after`, parameters, fields).
struct Ident {
  std::string name;
  SourceRange range;
};

// ---- expressions ---------------------------------------------------------------------------

struct NullLit {};
struct BoolLit {
  bool value = false;
};

// `12`, `32Ki`, `5%`, `1.5x`, `2.5 ms`, `12k tok/s`. `value` has the scale suffix applied
// (32Ki → 32768, 5% → 0.05); `unit` is the unit text as written ("ms", "tok/s", "GB/s") or empty.
struct NumberLit {
  double value = 0;
  std::string unit;
  bool percent = false;  // written with `%`: shown as a percentage in evidence
};

// One piece of a string: literal text (escapes already resolved) or an interpolated `{expr}`.
using StringPart = std::variant<std::string, ExprPtr>;
struct StringLit {
  std::vector<StringPart> parts;
  bool raw = false;  // r"..." : one literal part, no escapes, no interpolation
};

struct Name {
  std::string name;
};

struct ListLit {
  std::vector<ExprPtr> items;
};

struct RecordField {
  Ident key;  // identifier or string key as written
  ExprPtr value;
};
struct RecordLit {
  std::vector<RecordField> fields;
};

enum class UnaryOp { negate, logical_not };
struct Unary {
  UnaryOp op;
  ExprPtr operand;
};

enum class BinaryOp { logical_or, logical_and, eq, ne, lt, le, gt, ge, add, sub, mul, div, in };
struct Binary {
  BinaryOp op;
  ExprPtr lhs, rhs;
};

// `value within tolerance of reference`
struct Within {
  ExprPtr value, tolerance, reference;
};

// `value matches reference [to T | to rtol R atol A | to ulp N]`
enum class ToleranceForm { dtype_default, both, explicit_rtol_atol, ulp };
struct Matches {
  ExprPtr value, reference;
  ToleranceForm form = ToleranceForm::dtype_default;
  ExprPtr both;        // form == both
  ExprPtr rtol, atol;  // form == explicit_rtol_atol; either may be null (0)
  ExprPtr ulp;         // form == ulp
};

// `text mentions "x"`, `text mentions any [..]`, `text mentions all [..]`; `affirms` and
// `denies` take the same operands (and concepts) and judge polarity (docs/text.md).
enum class MentionMode { one, any, all };
enum class MentionVerb { mentions, affirms, denies };
struct Mentions {
  ExprPtr text;
  MentionMode mode = MentionMode::one;
  ExprPtr phrases;  // a string expression (one) or a list expression (any / all)
  MentionVerb verb = MentionVerb::mentions;
};

// `value as ms`, `value as tok/s`
struct As {
  ExprPtr value;
  std::string unit;
  SourceRange unit_range;
};

struct NamedArg {
  Ident name;
  ExprPtr value;
};
struct Call {
  ExprPtr callee;
  std::vector<ExprPtr> args;
  std::vector<NamedArg> named;
};

struct Field {
  ExprPtr object;
  Ident name;
};

// One component of a tensor subscript: `i`, `start:stop:step` (each part optional) or `...`.
struct Subscript {
  enum class Kind { index, range, ellipsis };
  Kind kind = Kind::index;
  ExprPtr start, stop, step;  // index: `start` is the index; range: null where left out
  SourceRange range;
};

// `x[e]` sets `index`; a subscript with a slice, several components or `...` (`t[:, 3]`,
// `t[1:-1]`, `t[..., 0]`) sets `subscripts` instead and leaves `index` null.
struct Index {
  ExprPtr object, index;
  std::vector<Subscript> subscripts;
};

// `if c then a else b`
struct IfExpr {
  ExprPtr condition, then_value, else_value;
};

// `x => e`, `(a, b) => e`
struct Lambda {
  std::vector<Ident> params;
  ExprPtr body;
};

// One `let NAME = value` of a block expression; `range` spans the whole binding.
struct BlockLet {
  Ident name;
  ExprPtr value;
  SourceRange range;
};
// `{ let a = e1; let b = e2; value }`: lets evaluated in order, each seeing the ones before it,
// then the final expression is the block's value. A `{` followed by the keyword `let` opens a
// block (a record's first key is never the keyword `let`), so a block has at least one let.
struct BlockExpr {
  std::vector<BlockLet> lets;
  ExprPtr value;
};

using ExprNode = std::variant<NullLit, BoolLit, NumberLit, StringLit, Name, ListLit, RecordLit,
                              Unary, Binary, Within, Matches, Mentions, As, Call, Field, Index,
                              IfExpr, Lambda, BlockExpr>;

struct Expr {
  ExprNode node;
  SourceRange range;
};

// ---- statements (criterion and check bodies) ---------------------------------------------

struct Stmt;
using Block = std::vector<Stmt>;

struct LetStmt {
  Ident name;
  ExprPtr value;
};
// `expect cond [else "message"]`; the check's source text is the slice of `condition`'s range.
struct ExpectStmt {
  ExprPtr condition;
  ExprPtr message;  // null when absent
};
// `check f(args)`: `call` is a Call expression.
struct CheckStmt {
  ExprPtr call;
};
struct NoteStmt {
  ExprPtr text;
};
struct ScoreStmt {
  ExprPtr value;
};
struct ForStmt {
  Ident var;
  ExprPtr iterable;
  std::shared_ptr<const Block> body;
};
// `if c { } else { }`; an `else if` is an IfStmt alone in else_body.
struct IfStmt {
  ExprPtr condition;
  std::shared_ptr<const Block> then_body;
  std::shared_ptr<const Block> else_body;  // null when absent
};

using StmtNode = std::variant<LetStmt, ExpectStmt, CheckStmt, NoteStmt, ScoreStmt, ForStmt, IfStmt>;

struct Stmt {
  StmtNode node;
  SourceRange range;
};

// ---- declarations --------------------------------------------------------------------------

// `rubric "title" { version: "1.0", pass: 70% }`
struct Header {
  ExprPtr title;   // a StringLit
  ExprPtr fields;  // a RecordLit, or null when the braces are absent
  SourceRange range;
};

// `use std.serving`, `use team.serving as sv`
struct Use {
  std::vector<std::string> path;  // {"std", "serving"}
  std::optional<Ident> alias;
  SourceRange range;
};

// `import "lib/checks.rubric"`
struct Import {
  std::string path;
  std::optional<Ident> alias;
  SourceRange range;
};

// `param context = 32Ki`
struct Param {
  Ident name;
  ExprPtr value;
  std::string doc;  // the `##` lines directly above, joined with '\n', markers stripped
  SourceRange range;
};

// Top-level `let` (lazy) and `let` inside a group.
struct LetDecl {
  Ident name;
  ExprPtr value;
  std::string doc;
  SourceRange range;
};

struct DefParam {
  Ident name;
  ExprPtr default_value;  // null when required
};
// `def f(a, b = 1) = expr` (a function) or `def c(a) { stmts }` (a check). A function whose
// body needs local names writes a block expression: `def f(a) = { let x = ...; x * 2 }`.
struct Def {
  Ident name;
  std::vector<DefParam> params;
  ExprPtr body_expr;                      // set for a function
  std::shared_ptr<const Block> body_stmts;  // set for a check
  std::string doc;
  SourceRange range;
  bool is_check() const { return body_stmts != nullptr; }
};

// criterion ID "title" [weight W | penalty P] [required] [after ID, ...] [needs gpu] { body }
struct Criterion {
  Ident id;
  ExprPtr title;    // a StringLit, may interpolate params
  ExprPtr weight;   // null: default 1
  ExprPtr penalty;  // null unless a penalty criterion
  bool required = false;
  std::vector<Ident> after;
  std::vector<Ident> needs;  // {"gpu"}; kept general for later needs
  Block body;
  SourceRange range;
};

struct Group;
using GroupItem = std::variant<Criterion, std::shared_ptr<const Group>, LetDecl>;

// group ID "title" [weight W] { criteria, groups, let }
struct Group {
  Ident id;
  ExprPtr title;
  ExprPtr weight;
  std::vector<GroupItem> items;
  SourceRange range;
};

using TopItem = std::variant<Use, Import, Param, LetDecl, Def, Criterion, std::shared_ptr<const Group>>;

// A whole file: a rubric (with header) or a module (without).
struct File {
  SourcePtr source;
  std::optional<Header> header;
  std::vector<TopItem> items;
};

}  // namespace rubric::ast
