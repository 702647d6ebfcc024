#pragma once
// Statement rules (language.md §7: criterion and check bodies), declared for the declarations.
#include "grammar/ast.hpp"
#include "grammar/config.hpp"

namespace rubric::grammar {

namespace parser {
struct statement_list_class;
using statement_list_type = x3::rule<statement_list_class, ast::Block>;

BOOST_SPIRIT_DECLARE(statement_list_type)
}  // namespace parser

// The statements of a body, without its braces. A statement with a syntax error is reported,
// skipped up to the next statement keyword or the closing '}', and left out.
parser::statement_list_type const& statement_list();

}  // namespace rubric::grammar
