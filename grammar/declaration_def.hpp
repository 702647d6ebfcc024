#pragma once
// Declaration rules: use, import, param, let, def, criterion, group and the header. The
// `group_item` rule is the recovery point inside group bodies.
#include <boost/fusion/include/at_c.hpp>
#include <boost/optional.hpp>

#include "grammar/declaration.hpp"
#include "grammar/directives.hpp"
#include "grammar/expression.hpp"
#include "grammar/recovery.hpp"
#include "grammar/statement.hpp"

namespace rubric::grammar {
namespace parser {

using boost::fusion::at_c;
using x3::_attr;
using x3::_val;

struct GroupItemSlot {
  std::optional<ast::GroupItem> item;  // empty when the item had a syntax error
};

struct group_item_class {
  template <typename It, typename Exception, typename Ctx>
  x3::error_handler_result on_error(It& first, It const& last, Exception const& x, Ctx const& ctx) const {
    ParseState& st = state_of(ctx);
    st.expectation_error(x.where(), x.which());
    It from = x.where();
    It start = first;
    x3::skip_over(start, last, ctx);
    if (from <= start) from = start == last ? last : start + 1;
    first = resync(st.begin, from, last, ResyncLevel::group_item, open_blocks(start, x.where(), x.which()));
    return x3::error_handler_result::accept;
  }
};

template <typename Ctx>
std::string plain_text(Ctx const& ctx, std::shared_ptr<ast::Expr> const& e, const char* what) {
  std::string text;
  for (auto const& part : std::get<ast::StringLit>(e->node).parts) {
    if (!std::holds_alternative<std::string>(part))
      throw x3::expectation_failure<iterator_type>(state_of(ctx).begin + e->range.begin, what);
    text += std::get<std::string>(part);
  }
  return text;
}

template <typename T>
std::optional<T> to_std(boost::optional<T>& o) {
  if (!o) return std::nullopt;
  return std::move(*o);
}

const auto make_use = [](auto& ctx) {
  auto& a = _attr(ctx);
  ast::Use u;
  for (ast::Ident& part : at_c<0>(a)) u.path.push_back(std::move(part.name));
  u.alias = to_std(at_c<1>(a));
  _val(ctx) = std::move(u);
};
const auto make_import = [](auto& ctx) {
  auto& a = _attr(ctx);
  ast::Import i;
  i.path = plain_text(ctx, at_c<0>(a), "!the file name of 'import' cannot interpolate '{...}'");
  i.alias = to_std(at_c<1>(a));
  _val(ctx) = std::move(i);
};
const auto make_param = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx).name = std::move(at_c<0>(a));
  _val(ctx).value = std::move(at_c<1>(a));
};
const auto make_let = make_param;

// `concept NAME = any [...]` / `all [...]` / expr: a let of the builtin concept(value, mode, name).
template <int Mode>  // 0 one, 1 any, 2 all
struct make_concept {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto& a = _attr(ctx);
    ast::LetDecl& let = _val(ctx);
    let.name = std::move(at_c<0>(a));
    MExpr value = std::move(at_c<1>(a));
    auto str = [&](std::string text) {
      ast::StringLit lit;
      lit.parts.push_back(std::move(text));
      return make_expr(std::move(lit), value->range);
    };
    ast::Call call;
    call.callee = make_expr(ast::Name{"concept"}, value->range);
    call.args = {value};
    call.named.push_back(ast::NamedArg{ast::Ident{"mode", value->range}, str(Mode == 1 ? "any" : Mode == 2 ? "all" : "one")});
    call.named.push_back(ast::NamedArg{ast::Ident{"name", let.name.range}, str(let.name.name)});
    let.value = make_expr(std::move(call), value->range);
  }
};

const auto make_def_param = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx) = ast::DefParam{std::move(at_c<0>(a)), nullptr};
  if (at_c<1>(a)) _val(ctx).default_value = std::move(*at_c<1>(a));
};
const auto set_name = [](auto& ctx) { _val(ctx).name = std::move(_attr(ctx)); };
const auto set_id = [](auto& ctx) { _val(ctx).id = std::move(_attr(ctx)); };
const auto set_title = [](auto& ctx) { _val(ctx).title = std::move(_attr(ctx)); };
const auto set_params = [](auto& ctx) { _val(ctx).params = std::move(_attr(ctx)); };
const auto set_body_expr = [](auto& ctx) { _val(ctx).body_expr = std::move(_attr(ctx)); };
const auto set_check_body = [](auto& ctx) {
  _val(ctx).body_stmts = std::make_shared<const ast::Block>(std::move(_attr(ctx)));
};
const auto set_body = [](auto& ctx) { _val(ctx).body = std::move(_attr(ctx)); };

const auto set_weight = [](auto& ctx) {
  if (_val(ctx).penalty)
    throw x3::expectation_failure<iterator_type>(state_of(ctx).begin + _attr(ctx)->range.begin,
                                                 "!a criterion has a weight or a penalty, not both");
  _val(ctx).weight = std::move(_attr(ctx));
};
const auto set_penalty = [](auto& ctx) {
  if (_val(ctx).weight)
    throw x3::expectation_failure<iterator_type>(state_of(ctx).begin + _attr(ctx)->range.begin,
                                                 "!a criterion has a weight or a penalty, not both");
  _val(ctx).penalty = std::move(_attr(ctx));
};
const auto set_required = [](auto& ctx) { _val(ctx).required = true; };
const auto add_after = [](auto& ctx) {
  for (ast::Ident& id : _attr(ctx)) _val(ctx).after.push_back(std::move(id));
};
const auto add_need = [](auto& ctx) { _val(ctx).needs.push_back(std::move(_attr(ctx))); };
const auto set_group_weight = [](auto& ctx) { _val(ctx).weight = std::move(_attr(ctx)); };
const auto set_items = [](auto& ctx) { _val(ctx).items = std::move(_attr(ctx)); };

const auto slot_criterion = [](auto& ctx) { _val(ctx).item = ast::GroupItem(std::move(_attr(ctx))); };
const auto slot_group = [](auto& ctx) {
  _val(ctx).item = ast::GroupItem(std::make_shared<const ast::Group>(std::move(_attr(ctx))));
};
const auto slot_let = [](auto& ctx) {
  ast::LetDecl& let = _attr(ctx);
  ParseState& st = state_of(ctx);
  let.doc = doc_comment_above(st.begin, st.begin + let.range.begin);
  _val(ctx).item = ast::GroupItem(std::move(let));
};
const auto push_group_item = [](auto& ctx) {
  GroupItemSlot& slot = _attr(ctx);
  if (slot.item) _val(ctx).push_back(std::move(*slot.item));
};

const auto assign_item = [](auto& ctx) { _val(ctx) = std::move(_attr(ctx)); };
const auto assign_group = [](auto& ctx) { _val(ctx) = std::make_shared<const ast::Group>(std::move(_attr(ctx))); };

const auto make_header = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx).title = std::move(at_c<0>(a));
  if (at_c<1>(a)) _val(ctx).fields = std::move(*at_c<1>(a));
};

// The rules other parts define (same rule types: same parse_rule instantiations).
const expression_type expression = "an expression";
const unary_type unary = "an operand";
const identifier_type identifier = "a name";
const string_lit_type string_lit = "a string";
const record_lit_type record = "a record";
const statement_list_type statement_list = "statements";

const header_type header = "the rubric header";
const top_item_type top_item = "a declaration";
const x3::rule<struct use_class, ast::Use> use_decl = "use";
const x3::rule<struct import_class, ast::Import> import_decl = "import";
const x3::rule<struct param_class, ast::Param> param_decl = "param";
const x3::rule<struct let_decl_class, ast::LetDecl> let_decl = "let";
const x3::rule<struct concept_decl_class, ast::LetDecl> concept_decl = "concept";
const x3::rule<struct def_param_class, ast::DefParam> def_param = "a parameter";
const x3::rule<struct def_class, ast::Def> def_decl = "def";
const x3::rule<struct criterion_class, ast::Criterion> criterion = "criterion";
const x3::rule<struct group_class, ast::Group> group = "group";
const x3::rule<struct group_items_class, std::vector<ast::GroupItem>> group_items = "group items";
const x3::rule<group_item_class, GroupItemSlot> group_item = "a group item";

const auto alias = -(kw("as") >> expect_that(identifier, "a name after 'as'"));

const auto use_decl_def =
    located[(kw("use") >> expect_that(identifier % '.', "a module path after 'use' (std.numerics)") >> alias)[make_use]];
const auto import_decl_def =
    located[(kw("import") >> expect_that(string_lit, "a file name string after 'import'") >> alias)[make_import]];
const auto param_decl_def = located[(kw("param") >> expect_that(identifier, "a name after 'param'") >>
                                     expect_that('=', "'=' and a default value after the name in 'param'") >>
                                     expect_that(expression, "an expression after '='"))[make_param]];
const auto let_decl_def = located[(kw("let") >> expect_that(identifier, "a name after 'let'") >>
                                   expect_that('=', "'=' after the name in 'let'") >>
                                   expect_that(expression, "an expression after '='"))[make_let]];

// `concept` is contextual: a word only at the start of a declaration.
const auto any_word = x3::lexeme[x3::lit("any") >> !ident_char] >> &x3::lit('[');
const auto all_word = x3::lexeme[x3::lit("all") >> !ident_char] >> &x3::lit('[');
const auto concept_head = kw("concept") >> expect_that(identifier, "a name after 'concept'") >>
                          expect_that('=', "'=' after the name in 'concept'");
const auto concept_decl_def =
    located[(concept_head >> any_word >> expect_that(expression, "a list of phrases after 'any'"))[make_concept<1>{}]
            | (concept_head >> all_word >> expect_that(expression, "a list of phrases after 'all'"))[make_concept<2>{}]
            | (concept_head >> expect_that(expression, "a phrase, a list or a concept after '='"))[make_concept<0>{}]];

const auto def_param_def =
    (identifier >> -('=' >> expect_that(expression, "a default value after '='")))[make_def_param];
const auto def_decl_def =
    located[kw("def") >> expect_that(identifier, "a name after 'def'")[set_name] >>
            expect_that('(', "'(' after the name of the def") >> -(def_param % ',')[set_params] >>
            expect_that(')', "')' to close the parameters") >>
            expect_that(('=' >> expect_that(expression, "an expression after '='"))[set_body_expr]
                            | braced{"check body"}[statement_list][set_check_body],
                        "'= expression' or '{' after the parameters of the def")];

// A weight or penalty is a number, never the body's '{' (`weight {` forgot the number).
const auto weight_value = !x3::lit('{') >> unary;
const auto criterion_modifier =
    (kw("weight") >> expect_that(weight_value, "a weight after 'weight' (a number: weight 2)"))[set_weight]
    | (kw("penalty") >> expect_that(weight_value, "a penalty after 'penalty' (a number: penalty 2)"))[set_penalty]
    | kw("required")[set_required]
    | (kw("after") >> expect_that(identifier % ',', "a criterion id after 'after'"))[add_after]
    | (kw("needs") >> expect_that(identifier, "what the criterion needs after 'needs' (gpu)"))[add_need];
const auto criterion_def =
    located[kw("criterion") >> expect_that(identifier, "a criterion id after 'criterion'")[set_id] >>
            expect_that(string_lit, "a title string after the criterion id")[set_title] >> *criterion_modifier >>
            expect_that(braced{"criterion body"}[statement_list],
                        "'{' to open the criterion body (or weight, penalty, required, after, needs)")[set_body]];

const auto group_stray = !x3::lit('}') >> !x3::eoi >>
                         !(kw("def") | kw("param") | kw("use") | kw("import") | kw("rubric")) >>
                         error_here("a criterion, group or let inside the group, or '}'");
const auto group_item_def =
    criterion[slot_criterion] | group[slot_group] | let_decl[slot_let] | concept_decl[slot_let] | group_stray;
const auto group_items_def = *x3::lit(';') >> *(group_item[push_group_item] >> *x3::lit(';'));
const auto group_def =
    nested[located[kw("group") >> expect_that(identifier, "a group id after 'group'")[set_id] >>
                   expect_that(string_lit, "a title string after the group id")[set_title] >>
                   -(kw("weight") >> expect_that(weight_value, "a weight after 'weight' (a number: weight 2)"))[set_group_weight] >>
                   expect_that(braced{"group body"}[group_items], "'{' to open the group body")[set_items]]];

const auto top_item_def = use_decl[assign_item] | import_decl[assign_item] | param_decl[assign_item] |
                          let_decl[assign_item] | concept_decl[assign_item] | def_decl[assign_item] | criterion[assign_item] |
                          group[assign_group];

const auto header_def =
    located[(kw("rubric") >> expect_that(string_lit, "a title string after 'rubric'") >> -record)[make_header]];

BOOST_SPIRIT_DEFINE(header, top_item, use_decl, import_decl, param_decl, let_decl, concept_decl, def_param, def_decl, criterion,
                    group, group_items, group_item)

}  // namespace parser

parser::header_type const& header() { return parser::header; }
parser::top_item_type const& top_item() { return parser::top_item; }

}  // namespace rubric::grammar
