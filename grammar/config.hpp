#pragma once
// The one iterator, skipper and context type every grammar part is instantiated with
// (BOOST_SPIRIT_INSTANTIATE must name exactly the types used at the call site).
#include <boost/spirit/home/x3.hpp>

#include "grammar/parse_state.hpp"

namespace rubric::grammar {
namespace x3 = boost::spirit::x3;

struct state_tag;

// White space and `#` comments (a `##` doc comment is a comment to the parser; docs are read
// from the source afterwards). Character sets, not x3::space: bytes >= 0x80 must be safe.
inline const auto skipper = x3::char_(" \t\r\n\f\v") | x3::lexeme['#' >> *(x3::char_ - '\n')];
using skipper_type = std::remove_const_t<decltype(skipper)>;

using iterator_type = const char*;
using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
using context_type = x3::context<state_tag, ParseState, phrase_context_type>;

}  // namespace rubric::grammar
