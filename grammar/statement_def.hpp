#pragma once
// Statement rules. The `statement` rule is the recovery point inside bodies: its error handler
// records the diagnostic, resynchronises and lets the body go on.
#include <boost/fusion/include/at_c.hpp>
#include <boost/optional.hpp>

#include "grammar/directives.hpp"
#include "grammar/expression.hpp"
#include "grammar/recovery.hpp"
#include "grammar/statement.hpp"

namespace rubric::grammar {
namespace parser {

using boost::fusion::at_c;
using x3::_attr;
using x3::_val;

struct statement_class {
  template <typename It, typename Exception, typename Ctx>
  x3::error_handler_result on_error(It& first, It const& last, Exception const& x, Ctx const& ctx) const {
    ParseState& st = state_of(ctx);
    st.expectation_error(x.where(), x.which());
    // Resume after the statement's first token at the least, so the loop always advances.
    It from = x.where();
    It start = first;
    x3::skip_over(start, last, ctx);
    if (from <= start) from = start == last ? last : start + 1;
    first = resync(st.begin, from, last, ResyncLevel::statement, open_blocks(start, x.where(), x.which()));
    return x3::error_handler_result::accept;
  }
};

const auto make_let = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx).node = ast::LetStmt{std::move(at_c<0>(a)), std::move(at_c<1>(a))};
};
const auto make_expect = [](auto& ctx) {
  auto& a = _attr(ctx);
  ast::ExpectStmt s{std::move(at_c<0>(a)), nullptr};
  if (at_c<1>(a)) s.message = std::move(*at_c<1>(a));
  _val(ctx).node = std::move(s);
};
const auto make_check = [](auto& ctx) {
  std::shared_ptr<ast::Expr>& call = _attr(ctx);
  if (!std::holds_alternative<ast::Call>(call->node))
    throw x3::expectation_failure<iterator_type>(state_of(ctx).begin + call->range.begin,
                                                 "a call of a check after 'check' (check name(args))");
  _val(ctx).node = ast::CheckStmt{std::move(call)};
};
const auto make_note = [](auto& ctx) { _val(ctx).node = ast::NoteStmt{std::move(_attr(ctx))}; };
const auto make_score = [](auto& ctx) { _val(ctx).node = ast::ScoreStmt{std::move(_attr(ctx))}; };
const auto make_for = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx).node = ast::ForStmt{std::move(at_c<0>(a)), std::move(at_c<1>(a)),
                                std::make_shared<const ast::Block>(std::move(at_c<2>(a)))};
};
const auto start_if = [](auto& ctx) { _val(ctx).node = ast::IfStmt{std::move(_attr(ctx)), nullptr, nullptr}; };
const auto set_then = [](auto& ctx) {
  std::get<ast::IfStmt>(_val(ctx).node).then_body = std::make_shared<const ast::Block>(std::move(_attr(ctx)));
};
const auto set_else_if = [](auto& ctx) {
  std::get<ast::IfStmt>(_val(ctx).node).else_body = std::make_shared<const ast::Block>(ast::Block{std::move(_attr(ctx))});
};
const auto set_else = [](auto& ctx) {
  std::get<ast::IfStmt>(_val(ctx).node).else_body = std::make_shared<const ast::Block>(std::move(_attr(ctx)));
};
// A statement whose error was recovered from has no range: leave it out.
const auto push_statement = [](auto& ctx) {
  ast::Stmt& s = _attr(ctx);
  if (s.range.known()) _val(ctx).push_back(std::move(s));
};

const statement_list_type statement_list = "statements";
const x3::rule<statement_class, ast::Stmt> statement = "a statement";
const x3::rule<struct let_stmt_class, ast::Stmt> let_stmt = "let";
const x3::rule<struct expect_stmt_class, ast::Stmt> expect_stmt = "expect";
const x3::rule<struct check_stmt_class, ast::Stmt> check_stmt = "check";
const x3::rule<struct note_stmt_class, ast::Stmt> note_stmt = "note";
const x3::rule<struct score_stmt_class, ast::Stmt> score_stmt = "score";
const x3::rule<struct for_stmt_class, ast::Stmt> for_stmt = "for";
const x3::rule<struct if_stmt_class, ast::Stmt> if_stmt = "if";
// The same rule types as expression.hpp declares: they name the rules defined in expression.cpp.
const expression_type expression = "an expression";
const identifier_type identifier = "a name";

const auto let_stmt_def = located[(kw("let") >> expect_that(identifier, "a name after 'let'") >>
                                   expect_that('=', "'=' after the name in 'let'") >>
                                   expect_that(expression, "an expression after '='"))[make_let]];
const auto expect_stmt_def =
    located[(kw("expect") >> expect_that(expression, "an expression after 'expect'") >>
             -(kw("else") >> expect_that(expression, "a message after 'else'")))[make_expect]];
const auto check_stmt_def =
    located[(kw("check") >> expect_that(expression, "a call of a check after 'check' (check name(args))"))[make_check]];
const auto note_stmt_def = located[(kw("note") >> expect_that(expression, "a text after 'note'"))[make_note]];
const auto score_stmt_def = located[(kw("score") >> expect_that(expression, "a value after 'score'"))[make_score]];
const auto for_stmt_def =
    located[(kw("for") >> expect_that(identifier, "a loop variable after 'for'") >>
             expect_that(kw("in"), "'in' after the loop variable") >>
             expect_that(expression, "an expression after 'in'") >>
             expect_that(braced{"for body"}[statement_list], "'{' to open the for body"))[make_for]];
const auto if_stmt_def =
    located[kw("if") >> expect_that(expression, "a condition after 'if'")[start_if] >>
            expect_that(braced{"if body"}[statement_list], "'{' to open the if body")[set_then] >>
            -(kw("else") >> expect_that(if_stmt[set_else_if] | braced{"else body"}[statement_list][set_else],
                                        "'{' or 'if' after 'else'"))];

// Top-level keywords end a body that lacks its '}': the body's own error names the brace.
const auto top_keyword = kw("criterion") | kw("group") | kw("def") | kw("param") | kw("use") | kw("import") | kw("rubric");
const auto stray = !x3::lit('}') >> !x3::eoi >> !top_keyword >>
                   error_here("a statement (let, expect, check, note, score, for, if) or '}'");

const auto statement_def =
    nested[located[let_stmt | expect_stmt | check_stmt | note_stmt | score_stmt | for_stmt | if_stmt | stray]];

const auto statement_list_def = *x3::lit(';') >> *(statement[push_statement] >> *x3::lit(';'));

BOOST_SPIRIT_DEFINE(statement_list, statement, let_stmt, expect_stmt, check_stmt, note_stmt, score_stmt, for_stmt,
                    if_stmt)

}  // namespace parser

parser::statement_list_type const& statement_list() { return parser::statement_list; }

}  // namespace rubric::grammar
