#pragma once
// Top-level rules (language.md §6–§7): the header and one declaration at a time; parse.cpp
// drives them in a loop so that one bad declaration does not hide the rest.
#include "grammar/ast.hpp"
#include "grammar/config.hpp"

namespace rubric::grammar {

namespace parser {
struct header_class;
struct top_item_class;
using header_type = x3::rule<header_class, ast::Header>;
using top_item_type = x3::rule<top_item_class, ast::TopItem>;

BOOST_SPIRIT_DECLARE(header_type, top_item_type)
}  // namespace parser

// rubric "title" { fields }
parser::header_type const& header();
// use, import, param, let, def, criterion or group
parser::top_item_type const& top_item();

}  // namespace rubric::grammar
