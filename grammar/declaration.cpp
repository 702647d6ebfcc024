// The declaration rules, instantiated once for the grammar's iterator and context.
#include "grammar/declaration_def.hpp"

namespace rubric::grammar::parser {

BOOST_SPIRIT_INSTANTIATE(header_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(top_item_type, iterator_type, context_type)

}  // namespace rubric::grammar::parser
