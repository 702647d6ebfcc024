#pragma once
// Expression rules (language.md §8). Each precedence level parses its operand once and then an
// optional tail, so no operand is re-parsed per alternative (no exponential backtracking).
#include <boost/fusion/include/at_c.hpp>
#include <boost/optional.hpp>

#include "grammar/directives.hpp"
#include "grammar/expression.hpp"

namespace rubric::grammar {
namespace parser {

using boost::fusion::at_c;
using x3::_attr;
using x3::_val;

// A call argument before it is sorted into positional and named.
struct Argument {
  std::optional<ast::Ident> name;
  MExpr value;
};

// The part of `matches` after `to`.
struct ToleranceSpec {
  ast::ToleranceForm form = ast::ToleranceForm::dtype_default;
  MExpr first, second;
};

struct keyword_table : x3::symbols<int> {
  keyword_table() {
    for (const char* k : keywords_list)
      add(k, 0);
  }
};

struct multiplicative_op_table : x3::symbols<ast::BinaryOp> {
  multiplicative_op_table() { add("*", ast::BinaryOp::mul)("/", ast::BinaryOp::div); }
};
struct additive_op_table : x3::symbols<ast::BinaryOp> {
  additive_op_table() { add("+", ast::BinaryOp::add)("-", ast::BinaryOp::sub); }
};
struct comparison_op_table : x3::symbols<ast::BinaryOp> {
  comparison_op_table() {
    add("==", ast::BinaryOp::eq)("!=", ast::BinaryOp::ne)("<=", ast::BinaryOp::le)(">=", ast::BinaryOp::ge)(
        "<", ast::BinaryOp::lt)(">", ast::BinaryOp::gt);
  }
};
struct escape_table : x3::symbols<char> {
  escape_table() { add("n", '\n')("t", '\t')("r", '\r')("\"", '"')("\\", '\\')("{", '{')("}", '}'); }
};

const keyword_table keywords;
const multiplicative_op_table multiplicative_op;
const additive_op_table additive_op;
const comparison_op_table comparison_op;
const escape_table escape_char;

const auto ident_start = x3::char_("a-zA-Z_");

// ---- semantic actions ------------------------------------------------------------------------

template <typename Ctx>
std::uint32_t here(Ctx const& ctx) {
  return state_of(ctx).offset(x3::_where(ctx).begin());
}

const auto assign = [](auto& ctx) { _val(ctx) = std::move(_attr(ctx)); };

const auto set_ident_name = [](auto& ctx) {
  auto const& r = _attr(ctx);
  _val(ctx).name.assign(r.begin(), r.end());
};

const auto make_name = [](auto& ctx) {
  ast::Ident const& id = _attr(ctx);
  _val(ctx) = make_expr(ast::Name{id.name}, id.range);
};

const auto make_true = [](auto& ctx) { _val(ctx) = make_expr(ast::BoolLit{true}, {}); };
const auto make_false = [](auto& ctx) { _val(ctx) = make_expr(ast::BoolLit{false}, {}); };
const auto make_null = [](auto& ctx) { _val(ctx) = make_expr(ast::NullLit{}, {}); };

// Strings: the rule's value is built part by part.
const auto init_string = [](auto& ctx) { _val(ctx) = make_expr(ast::StringLit{}, {}); };
template <typename Ctx>
std::vector<ast::StringPart>& string_parts(Ctx& ctx) {
  return std::get<ast::StringLit>(_val(ctx)->node).parts;
}
template <typename Ctx>
void append_text(Ctx& ctx, char c) {
  auto& parts = string_parts(ctx);
  if (parts.empty() || !std::holds_alternative<std::string>(parts.back())) parts.emplace_back(std::string());
  std::get<std::string>(parts.back()) += c;
}
const auto append_char = [](auto& ctx) { append_text(ctx, _attr(ctx)); };
const auto append_lbrace = [](auto& ctx) { append_text(ctx, '{'); };
const auto append_rbrace = [](auto& ctx) { append_text(ctx, '}'); };
const auto append_expr = [](auto& ctx) { string_parts(ctx).emplace_back(ast::ExprPtr(_attr(ctx))); };

const auto make_raw = [](auto& ctx) {
  auto const& r = _attr(ctx);
  ast::StringLit s;
  s.raw = true;
  s.parts.emplace_back(std::string(r.begin(), r.end()));
  _val(ctx) = make_expr(std::move(s), {});
};

const auto make_list = [](auto& ctx) {
  ast::ListLit list;
  if (auto& items = _attr(ctx))
    for (MExpr& e : *items) list.items.push_back(std::move(e));
  _val(ctx) = make_expr(std::move(list), {});
};

// A record key written as a string must be plain text.
const auto string_key = [](auto& ctx) {
  MExpr const& e = _attr(ctx);
  auto const& s = std::get<ast::StringLit>(e->node);
  std::string key;
  for (auto const& part : s.parts) {
    if (!std::holds_alternative<std::string>(part))
      throw x3::expectation_failure<iterator_type>(state_of(ctx).begin + e->range.begin,
                                                   "!a record key cannot interpolate '{...}'");
    key += std::get<std::string>(part);
  }
  _val(ctx) = ast::Ident{std::move(key), e->range};
};

const auto make_field_entry = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx) = ast::RecordField{std::move(at_c<0>(a)), std::move(at_c<1>(a))};
};

const auto make_record = [](auto& ctx) {
  ast::RecordLit rec;
  if (auto& fields = _attr(ctx))
    for (ast::RecordField& f : *fields) rec.fields.push_back(std::move(f));
  _val(ctx) = make_expr(std::move(rec), {});
};

const auto named_argument = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx) = Argument{std::move(at_c<0>(a)), std::move(at_c<1>(a))};
};
const auto positional_argument = [](auto& ctx) { _val(ctx) = Argument{std::nullopt, std::move(_attr(ctx))}; };

const auto make_call = [](auto& ctx) {
  MExpr& callee = _val(ctx);
  ast::Call call;
  call.callee = callee;
  if (auto& args = _attr(ctx)) {
    for (Argument& a : *args) {
      if (a.name) {
        call.named.push_back(ast::NamedArg{std::move(*a.name), std::move(a.value)});
      } else if (!call.named.empty()) {
        throw x3::expectation_failure<iterator_type>(
            state_of(ctx).begin + a.value->range.begin,
            "!positional argument after a named argument (write positional arguments first)");
      } else {
        call.args.push_back(std::move(a.value));
      }
    }
  }
  callee = make_expr(std::move(call), {callee->range.begin, here(ctx)});
};

const auto make_field = [](auto& ctx) {
  MExpr& object = _val(ctx);
  object = make_expr(ast::Field{object, std::move(_attr(ctx))}, {object->range.begin, here(ctx)});
};

// `x[e]` keeps the one-expression form; slices, several components and `...` are subscripts.
const auto make_index = [](auto& ctx) {
  MExpr& object = _val(ctx);
  std::vector<ast::Subscript>& subs = _attr(ctx);
  ast::Index index{object, nullptr, {}};
  if (subs.size() == 1 && subs[0].kind == ast::Subscript::Kind::index) index.index = std::move(subs[0].start);
  else index.subscripts = std::move(subs);
  object = make_expr(std::move(index), {object->range.begin, here(ctx)});
};
const auto subscript_start = [](auto& ctx) { _val(ctx).start = std::move(_attr(ctx)); };
const auto subscript_stop = [](auto& ctx) { _val(ctx).stop = std::move(_attr(ctx)); };
const auto subscript_step = [](auto& ctx) { _val(ctx).step = std::move(_attr(ctx)); };
const auto subscript_range = [](auto& ctx) { _val(ctx).kind = ast::Subscript::Kind::range; };
const auto subscript_ellipsis = [](auto& ctx) { _val(ctx).kind = ast::Subscript::Kind::ellipsis; };

const auto make_as = [](auto& ctx) {
  MExpr& value = _val(ctx);
  UnitText& unit = _attr(ctx);
  value = make_expr(ast::As{value, std::move(unit.text), unit.range}, {value->range.begin, unit.range.end});
};

const auto make_negate = [](auto& ctx) {
  MExpr operand = std::move(_attr(ctx));
  _val(ctx) = make_expr(ast::Unary{ast::UnaryOp::negate, operand}, operand->range);
};
const auto make_not = [](auto& ctx) {
  MExpr operand = std::move(_attr(ctx));
  _val(ctx) = make_expr(ast::Unary{ast::UnaryOp::logical_not, operand}, operand->range);
};

template <typename Ctx>
void fold(Ctx& ctx, ast::BinaryOp op, MExpr rhs) {
  MExpr& lhs = _val(ctx);
  SourceRange r{lhs->range.begin, rhs->range.end};
  lhs = make_expr(ast::Binary{op, lhs, std::move(rhs)}, r);
}
const auto fold_binary = [](auto& ctx) { fold(ctx, at_c<0>(_attr(ctx)), std::move(at_c<1>(_attr(ctx)))); };
const auto fold_and = [](auto& ctx) { fold(ctx, ast::BinaryOp::logical_and, std::move(_attr(ctx))); };
const auto fold_or = [](auto& ctx) { fold(ctx, ast::BinaryOp::logical_or, std::move(_attr(ctx))); };
const auto fold_in = [](auto& ctx) { fold(ctx, ast::BinaryOp::in, std::move(_attr(ctx))); };

const auto make_within = [](auto& ctx) {
  MExpr& value = _val(ctx);
  auto& a = _attr(ctx);
  SourceRange r{value->range.begin, at_c<1>(a)->range.end};
  value = make_expr(ast::Within{value, std::move(at_c<0>(a)), std::move(at_c<1>(a))}, r);
};

const auto tolerance_rtol = [](auto& ctx) {
  auto& a = _attr(ctx);
  ToleranceSpec t{ast::ToleranceForm::explicit_rtol_atol, std::move(at_c<0>(a)), nullptr};
  if (at_c<1>(a)) t.second = std::move(*at_c<1>(a));
  _val(ctx) = std::move(t);
};
const auto tolerance_atol = [](auto& ctx) {
  _val(ctx) = ToleranceSpec{ast::ToleranceForm::explicit_rtol_atol, nullptr, std::move(_attr(ctx))};
};
const auto tolerance_ulp = [](auto& ctx) {
  _val(ctx) = ToleranceSpec{ast::ToleranceForm::ulp, std::move(_attr(ctx)), nullptr};
};
const auto tolerance_both = [](auto& ctx) {
  _val(ctx) = ToleranceSpec{ast::ToleranceForm::both, std::move(_attr(ctx)), nullptr};
};

const auto make_matches = [](auto& ctx) {
  MExpr& value = _val(ctx);
  auto& a = _attr(ctx);
  ast::Matches m;
  m.value = value;
  m.reference = at_c<0>(a);
  std::uint32_t end = at_c<0>(a)->range.end;
  if (auto& tol = at_c<1>(a)) {
    m.form = tol->form;
    switch (tol->form) {
      case ast::ToleranceForm::both: m.both = tol->first; break;
      case ast::ToleranceForm::ulp: m.ulp = tol->first; break;
      case ast::ToleranceForm::explicit_rtol_atol:
        m.rtol = tol->first;
        m.atol = tol->second;
        break;
      case ast::ToleranceForm::dtype_default: break;
    }
    end = here(ctx);
  }
  value = make_expr(std::move(m), {value->range.begin, end});
};

const auto make_mentions = [](auto& ctx) {
  MExpr& text = _val(ctx);
  auto& a = _attr(ctx);
  SourceRange r{text->range.begin, at_c<1>(a)->range.end};
  text = make_expr(ast::Mentions{text, at_c<0>(a), std::move(at_c<1>(a))}, r);
};

template <ast::MentionVerb V>
struct make_polarity_check {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    MExpr& text = _val(ctx);
    auto& a = _attr(ctx);
    SourceRange r{text->range.begin, at_c<1>(a)->range.end};
    text = make_expr(ast::Mentions{text, at_c<0>(a), std::move(at_c<1>(a)), V}, r);
  }
};

// `a near b`, `a near(5) b`: a call of the builtin near(a, b, window).
const auto make_near = [](auto& ctx) {
  MExpr& lhs = _val(ctx);
  auto& rhs = _attr(ctx);
  ast::Call call;
  call.callee = make_expr(ast::Name{"near"}, lhs->range);
  call.args = {lhs, rhs};
  lhs = make_expr(std::move(call), {lhs->range.begin, rhs->range.end});
};
const auto make_near_window = [](auto& ctx) {
  MExpr& lhs = _val(ctx);
  auto& a = _attr(ctx);
  ast::Call call;
  call.callee = make_expr(ast::Name{"near"}, lhs->range);
  call.args = {lhs, at_c<1>(a), at_c<0>(a)};
  lhs = make_expr(std::move(call), {lhs->range.begin, at_c<1>(a)->range.end});
};

const auto push_param = [](auto& ctx) { _val(ctx).push_back(std::move(_attr(ctx))); };

const auto make_lambda = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx) = make_expr(ast::Lambda{std::move(at_c<0>(a)), std::move(at_c<1>(a))}, {});
};

// Block expressions: the rule's value is built let by let.
const auto init_block = [](auto& ctx) { _val(ctx) = make_expr(ast::BlockExpr{}, {}); };
const auto make_block_let = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx).name = std::move(at_c<0>(a));
  _val(ctx).value = std::move(at_c<1>(a));
};
const auto push_block_let = [](auto& ctx) {
  std::get<ast::BlockExpr>(_val(ctx)->node).lets.push_back(std::move(_attr(ctx)));
};
const auto set_block_value = [](auto& ctx) { std::get<ast::BlockExpr>(_val(ctx)->node).value = std::move(_attr(ctx)); };

const auto make_if = [](auto& ctx) {
  auto& a = _attr(ctx);
  _val(ctx) = make_expr(ast::IfExpr{std::move(at_c<0>(a)), std::move(at_c<1>(a)), std::move(at_c<2>(a))}, {});
};

// ---- rules -------------------------------------------------------------------------------------

const expression_type expression = "an expression";
const unary_type unary = "an operand";
const identifier_type identifier = "a name";
const string_lit_type string_lit = "a string";
const record_lit_type record = "a record";

const x3::rule<struct number_class, MExpr> number = "a number";
const x3::rule<struct raw_string_class, MExpr> raw_string = "a raw string";
const x3::rule<struct keyword_lit_class, MExpr> keyword_lit = "true, false or null";
const x3::rule<struct list_class, MExpr> list = "a list";
const x3::rule<struct record_key_class, ast::Ident> record_key = "a record key";
const x3::rule<struct record_field_class, ast::RecordField> record_field = "a record field";
const x3::rule<struct paren_class, MExpr> paren = "a parenthesised expression";
const x3::rule<struct name_class, MExpr> name = "a name";
const x3::rule<struct primary_class, MExpr> primary = "an expression";
const x3::rule<struct argument_class, Argument> argument = "an argument";
const x3::rule<struct call_args_class, boost::optional<std::vector<Argument>>> call_args = "arguments";
const x3::rule<struct subscript_class, ast::Subscript> subscript = "an index or slice";
const x3::rule<struct subscripts_class, std::vector<ast::Subscript>> subscripts = "an index";
const x3::rule<struct postfix_class, MExpr> postfix = "an expression";
const x3::rule<struct as_expr_class, MExpr> as_expr = "an expression";
const x3::rule<struct multiplicative_class, MExpr> multiplicative = "an expression";
const x3::rule<struct additive_class, MExpr> additive = "an expression";
const x3::rule<struct tolerance_class, ToleranceSpec> tolerance = "a tolerance";
const x3::rule<struct mention_mode_class, ast::MentionMode> mention_mode = "any or all";
const x3::rule<struct near_expr_class, MExpr> near_expr = "an expression";
const x3::rule<struct comparison_class, MExpr> comparison = "an expression";
const x3::rule<struct not_expr_class, MExpr> not_expr = "an expression";
const x3::rule<struct and_expr_class, MExpr> and_expr = "an expression";
const x3::rule<struct or_expr_class, MExpr> or_expr = "an expression";
const x3::rule<struct lambda_params_class, std::vector<ast::Ident>> lambda_params = "lambda parameters";
const x3::rule<struct lambda_class, MExpr> lambda = "a lambda";
const x3::rule<struct if_expr_class, MExpr> if_expr = "an if expression";
const x3::rule<struct block_let_class, ast::BlockLet> block_let = "a let";
const x3::rule<struct block_class, MExpr> block = "a block";

const auto identifier_def =
    located[(!x3::lexeme[keywords >> !ident_char] >> x3::lexeme[x3::raw[ident_start >> *ident_char]])[set_ident_name]];

const auto number_def = located[number_token{}];

const auto string_part = ('\\' >> expect_that(escape_char, "an escape (\\n \\t \\r \\\" \\\\ \\{ \\}) after '\\'"))[append_char]
                         | x3::lit("{{")[append_lbrace]
                         | x3::lit("}}")[append_rbrace]
                         | ('{' >> unlexeme[expect_that(expression, "an expression inside '{...}' in the string") >>
                                            expect_that('}', "'}' to close the interpolation")])[append_expr]
                         | (x3::char_ - x3::char_("\"\\{\n"))[append_char];
const auto string_lit_def =
    located[x3::lexeme[x3::lit('"')[init_string] >> *string_part >> expect_that('"', "'\"' to close the string (strings end on their line)")]];

const auto raw_string_def =
    located[x3::lexeme['r' >> x3::lit('"') >> x3::raw[*(x3::char_ - x3::char_("\"\n"))] >>
                       expect_that('"', "'\"' to close the raw string")][make_raw]];

const auto keyword_lit_def = located[kw("true")[make_true] | kw("false")[make_false] | kw("null")[make_null]];

const auto list_def =
    located[enclosed{'[', ']', "list"}[-(expression % ',') >> -x3::lit(',')][make_list]];

const auto record_key_def = identifier[assign] | string_lit[string_key];
const auto record_field_def = (record_key >> expect_that(':', "':' after the record key") >>
                               expect_that(expression, "a value after ':'"))[make_field_entry];
const auto record_def = located[enclosed{'{', '}', "record"}[-(record_field % ',') >> -x3::lit(',')][make_record]];

// `{ let a = e; let b = e; value }`: `{` followed by the keyword `let` opens a block, anything
// else a record. Lets are separated by `;` or line breaks alike; the value comes last.
const auto block_let_def = located[(kw("let") >> expect_that(identifier, "a name after 'let'") >>
                                    expect_that('=', "'=' after the name in 'let'") >>
                                    expect_that(expression, "an expression after '='"))[make_block_let]];
const auto block_body =
    x3::eps[init_block] >> +(block_let[push_block_let] >> *x3::lit(';')) >>
    expect_that(expression, "the block's value after its lets (a block ends with an expression: { let x = ...; x * 2 })")
        [set_block_value] >>
    *x3::lit(';') >>
    -(&kw("let") >> error_here("!a 'let' after the block's value: the value is the block's last expression, so every "
                               "let comes before it"));
const auto block_def = located[&(x3::lit('{') >> kw("let")) >> braced{"block"}[block_body]];

const auto paren_def =
    located[enclosed{'(', ')', "parenthesis"}[expect_that(expression, "an expression after '('")]];

const auto name_def = located[identifier[make_name]];

const auto primary_def = number | raw_string | string_lit | keyword_lit | list | block | record | paren | name;

const auto argument_def =
    (identifier >> '=' >> !x3::char_("=>") >> expect_that(expression, "a value after '=' in the named argument"))[named_argument]
    | expression[positional_argument];
const auto call_args_def = enclosed{'(', ')', "argument list"}[-(argument % ',') >> -x3::lit(',')];

// numpy's subscript: `i`, `a:b`, `a:b:step` (parts optional), `...`; components separated by commas.
const auto slice_tail = (':' >> -expression[subscript_stop] >> -(':' >> -expression[subscript_step]))[subscript_range];
const auto subscript_def = located[x3::lit("...")[subscript_ellipsis]
                                   | (expression[subscript_start] >> -slice_tail)
                                   | slice_tail];
const auto subscripts_def = subscript % ',';

const auto postfix_def =
    located[primary[assign] >>
            *(call_args[make_call]
              | ('.' >> expect_that(identifier, "a field name after '.'"))[make_field]
              | ('[' >> expect_that(subscripts, "an index after '['") >> expect_that(']', "']' to close the index"))[make_index])];

const auto as_expr_def =
    located[postfix[assign] >> *(kw("as") >> expect_that(unit_token{}, "a unit after 'as' (ms, GB/s, tok/s, ...)"))[make_as]];

const auto unary_def =
    located[nested['-' >> expect_that(unary, "an operand after '-'")][make_negate] | as_expr[assign]];

const auto multiplicative_def =
    located[unary[assign] >> *(multiplicative_op >> expect_that(unary, "an operand after '*' or '/'"))[fold_binary]];

const auto additive_def =
    located[multiplicative[assign] >> *(additive_op >> expect_that(multiplicative, "an operand after '+' or '-'"))[fold_binary]];

const auto rtol_word = x3::lexeme[x3::lit("rtol") >> !ident_char];
const auto atol_word = x3::lexeme[x3::lit("atol") >> !ident_char];
const auto ulp_word = x3::lexeme[x3::lit("ulp") >> !ident_char];
const auto tolerance_def =
    (rtol_word >> additive >> -(atol_word >> expect_that(additive, "a value after 'atol'")))[tolerance_rtol]
    | (atol_word >> additive)[tolerance_atol]
    | (ulp_word >> additive)[tolerance_ulp]
    | additive[tolerance_both];

// `any`/`all` are contextual: `mentions all(xs)` is still a call of all().
const auto mention_mode_def =
    (x3::lexeme[x3::lit("any") >> !ident_char] >> &(x3::lit('[') | identifier) >> x3::attr(ast::MentionMode::any))
    | (x3::lexeme[x3::lit("all") >> !ident_char] >> &(x3::lit('[') | identifier) >> x3::attr(ast::MentionMode::all))
    | x3::attr(ast::MentionMode::one);

// `near` is contextual (a word only between two operands): `"collide" near "bank"`.
const auto near_word = x3::lexeme[x3::lit("near") >> !ident_char];
const auto near_expr_def =
    located[additive[assign] >>
            *((near_word >> '(' >> expression >> ')' >> additive)[make_near_window]
              | (near_word >> expect_that(additive, "an operand after 'near'"))[make_near])];

const auto comparison_tail =
    (comparison_op >> expect_that(additive, "an expression after the comparison operator"))[fold_binary]
    | (kw("within") >> expect_that(additive, "an expression after 'within'") >>
       expect_that(kw("of"), "'of' after the tolerance (a within T of b)") >>
       expect_that(additive, "an expression after 'of'"))[make_within]
    | (kw("matches") >> expect_that(additive, "an expression after 'matches'") >>
       -(kw("to") >> expect_that(tolerance, "a tolerance after 'to' (T, rtol R atol A, or ulp N)")))[make_matches]
    | (kw("mentions") >> mention_mode >> expect_that(near_expr, "a phrase after 'mentions'"))[make_mentions]
    | (kw("affirms") >> mention_mode >> expect_that(near_expr, "a phrase or concept after 'affirms'"))
          [make_polarity_check<ast::MentionVerb::affirms>{}]
    | (kw("denies") >> mention_mode >> expect_that(near_expr, "a phrase or concept after 'denies'"))
          [make_polarity_check<ast::MentionVerb::denies>{}]
    | (kw("in") >> expect_that(additive, "an expression after 'in'"))[fold_in];

const auto comparison_def =
    located[near_expr[assign] >> -comparison_tail >>
            -(&(comparison_op | kw("within") | kw("matches") | kw("mentions") | kw("affirms") | kw("denies") | kw("in")) >>
              error_here("!comparisons do not chain: combine them with 'and'"))];

const auto not_expr_def =
    located[nested[kw("not") >> expect_that(not_expr, "an operand after 'not'")][make_not] | comparison[assign]];

const auto and_expr_def =
    located[not_expr[assign] >> *(kw("and") >> expect_that(not_expr, "an operand after 'and'"))[fold_and]];

const auto or_expr_def =
    located[and_expr[assign] >> *(kw("or") >> expect_that(and_expr, "an operand after 'or'"))[fold_or]];

const auto lambda_params_def =
    identifier[push_param] | ('(' >> -(identifier[push_param] % ',') >> ')');

const auto lambda_def =
    located[(&lambda_ahead{} >> lambda_params >> "=>" >> expect_that(expression, "a body after '=>'"))[make_lambda]];

const auto if_expr_def =
    located[(kw("if") >> expect_that(expression, "a condition after 'if'") >>
                    expect_that(kw("then"), "'then' after the condition (if c then a else b)") >>
                    expect_that(expression, "a value after 'then'") >>
                    expect_that(kw("else"), "'else' in 'if c then a else b'") >>
                    expect_that(expression, "a value after 'else'"))[make_if]];

// Nesting is counted here (every bracket, argument, body and interpolation goes through it) and
// at the self-recursive prefix operators `-` and `not`.
const auto expression_def = nested[if_expr | lambda | or_expr];

BOOST_SPIRIT_DEFINE(subscript, subscripts, expression, unary, identifier, string_lit, record, number, raw_string, keyword_lit, list,
                    record_key, record_field, paren, name, primary, argument, call_args, postfix, as_expr,
                    multiplicative, additive, tolerance, mention_mode, near_expr, comparison, not_expr, and_expr, or_expr,
                    lambda_params, lambda, if_expr, block_let, block)

}  // namespace parser

parser::expression_type const& expression() { return parser::expression; }
parser::unary_type const& unary_expression() { return parser::unary; }
parser::identifier_type const& identifier() { return parser::identifier; }
parser::string_lit_type const& string_literal() { return parser::string_lit; }
parser::record_lit_type const& record_literal() { return parser::record; }

}  // namespace rubric::grammar
