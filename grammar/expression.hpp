#pragma once
// Expression rules (language.md §8), declared for use by the other grammar parts.
#include <memory>

#include "grammar/ast.hpp"
#include "grammar/config.hpp"

namespace rubric::grammar {

namespace parser {
struct expression_class;
struct unary_class;
struct identifier_class;
struct string_lit_class;
struct record_lit_class;

using expression_type = x3::rule<expression_class, std::shared_ptr<ast::Expr>>;
using unary_type = x3::rule<unary_class, std::shared_ptr<ast::Expr>>;
using identifier_type = x3::rule<identifier_class, ast::Ident>;
using string_lit_type = x3::rule<string_lit_class, std::shared_ptr<ast::Expr>>;
using record_lit_type = x3::rule<record_lit_class, std::shared_ptr<ast::Expr>>;

BOOST_SPIRIT_DECLARE(expression_type, unary_type, identifier_type, string_lit_type, record_lit_type)
}  // namespace parser

// Any expression (precedence level 1).
parser::expression_type const& expression();
// Unary level (`-x`, `x as ms`, postfix, primary): weights and penalties.
parser::unary_type const& unary_expression();
// A name that is not a keyword.
parser::identifier_type const& identifier();
// "..." with escapes and {interpolation}.
parser::string_lit_type const& string_literal();
// { key: value, ... }
parser::record_lit_type const& record_literal();

}  // namespace rubric::grammar
