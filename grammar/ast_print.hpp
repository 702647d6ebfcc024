#pragma once
// The syntax tree printed as compact S-expressions, for tests, `--dump`-style debugging and
// error reports: `a + b * 2 ms` prints as `(+ a (* b 2[ms]))`.
#include <string>

#include "grammar/ast.hpp"

namespace rubric::ast {

// A binary operator as the rubric writes it: "and", ">=", "in".
const char* op_text(BinaryOp op);

// Numbers print shortest-round-trip with the unit in brackets (`32768`, `1.2[TB/s]`); strings
// print with their interpolations in braces (`"bench_{context}.json"`), raw strings as r"...".
std::string to_sexpr(const Expr& e);
std::string to_sexpr(const ExprPtr& e);  // "nil" for null
std::string to_sexpr(const Stmt& s);
std::string to_sexpr(const Block& b);    // statements separated by one space, in parentheses
std::string to_sexpr(const Criterion& c);
std::string to_sexpr(const Group& g);
std::string to_sexpr(const TopItem& item);
// The header (if any) and every item, one per line.
std::string to_sexpr(const File& f);

}  // namespace rubric::ast
