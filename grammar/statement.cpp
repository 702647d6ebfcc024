// The statement rules, instantiated once for the grammar's iterator and context.
#include "grammar/statement_def.hpp"

namespace rubric::grammar::parser {

BOOST_SPIRIT_INSTANTIATE(statement_list_type, iterator_type, context_type)

}  // namespace rubric::grammar::parser
