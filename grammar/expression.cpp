// The expression rules, instantiated once for the grammar's iterator and context.
#include "grammar/expression_def.hpp"

namespace rubric::grammar::parser {

BOOST_SPIRIT_INSTANTIATE(expression_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(unary_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(identifier_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(string_lit_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(record_lit_type, iterator_type, context_type)

}  // namespace rubric::grammar::parser
