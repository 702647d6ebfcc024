#pragma once
// Small X3 parsers the grammar parts share: located[] (fills a node's SourceRange), nested[]
// (caps recursion depth), expect_that() (an expectation with a readable message), braced{} and
// enclosed{} (a { } body or ( ) list whose missing closer names where it was opened), unlexeme[] (an expression inside a
// string), keywords, and the number and unit tokens. Included only by grammar/*_def.hpp.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "grammar/ast.hpp"
#include "grammar/config.hpp"
#include "grammar/lexemes.hpp"

namespace rubric::grammar {

using MExpr = std::shared_ptr<ast::Expr>;

inline MExpr make_expr(ast::ExprNode node, SourceRange range) {
  auto e = std::make_shared<ast::Expr>();
  e->node = std::move(node);
  e->range = range;
  return e;
}

template <typename Ctx>
ParseState& state_of(Ctx const& ctx) {
  return x3::get<state_tag>(ctx);
}

// ---- located[p]: sets the range of the enclosing rule's value -------------------------------

inline void set_range(MExpr& e, SourceRange r) {
  if (e) e->range = r;
}
template <typename Node>
auto set_range(Node& n, SourceRange r) -> decltype(n.range = r, void()) {
  n.range = r;
}

// The rule's value is the RContext (for rules with and without semantic actions alike), so
// every locatable node gets its range from its own rule, whitespace before it excluded.
template <typename Subject>
struct located_directive : x3::unary_parser<Subject, located_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, located_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr located_directive(Subject const& subject) : base_type(subject) {}

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    It start = first;
    if (!this->subject.parse(first, last, ctx, rctx, attr)) return false;
    ParseState& st = state_of(ctx);
    set_range(rctx, SourceRange{st.offset(start), st.offset(first)});
    return true;
  }
};
struct located_gen {
  template <typename Subject>
  constexpr located_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](
      Subject const& subject) const {
    return {x3::as_parser(subject)};
  }
};
inline constexpr located_gen located{};

// ---- nested[p]: a recursion point; deeper than max_nesting_depth is an error ---------------

template <typename Subject>
struct nested_directive : x3::unary_parser<Subject, nested_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, nested_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr nested_directive(Subject const& subject) : base_type(subject) {}

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    ParseState& st = state_of(ctx);
    if (st.depth >= max_nesting_depth) {
      x3::skip_over(first, last, ctx);
      throw x3::expectation_failure<It>(
          first, fmt::format("!nesting deeper than {} levels (expressions, blocks or groups)", max_nesting_depth));
    }
    struct DepthGuard {
      int& depth;
      ~DepthGuard() { --depth; }
    } guard{++st.depth};
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};
struct nested_gen {
  template <typename Subject>
  constexpr nested_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](
      Subject const& subject) const {
    return {x3::as_parser(subject)};
  }
};
inline constexpr nested_gen nested{};

// ---- expect_that(p, "what"): like `> p`, with the message "expected <what>" ----------------

template <typename Subject>
struct expect_that_directive : x3::unary_parser<Subject, expect_that_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, expect_that_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  expect_that_directive(Subject const& subject, const char* what) : base_type(subject), what(what) {}

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    if (this->subject.parse(first, last, ctx, rctx, attr)) return true;
    x3::skip_over(first, last, ctx);
    throw x3::expectation_failure<It>(first, what);
  }
  const char* what;
};
template <typename Subject>
expect_that_directive<typename x3::extension::as_parser<Subject>::value_type> expect_that(Subject const& subject,
                                                                                        const char* what) {
  return {x3::as_parser(subject), what};
}

// ---- error_here("what"): fails the parse here with "expected <what>" -------------------------

struct error_here : x3::parser<error_here> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  explicit constexpr error_here(const char* what) : what(what) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
    x3::skip_over(first, last, ctx);
    throw x3::expectation_failure<It>(first, what);
  }
  const char* what;
};

// ---- braced{"criterion body"}[p]: '{' p '}'; enclosed{'(', ')', "argument list"}[p] --------
// A missing closer is reported with where its opener stands: "')' to close the argument list
// opened at 4:15".

template <typename Subject>
struct enclosed_directive : x3::unary_parser<Subject, enclosed_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, enclosed_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  enclosed_directive(Subject const& subject, char open, char close, const char* what)
      : base_type(subject), open(open), close(close), what(what) {}

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != open) return false;
    It opened = first;
    ++first;
    if (!this->subject.parse(first, last, ctx, rctx, attr)) {
      x3::skip_over(first, last, ctx);
      throw x3::expectation_failure<It>(first, fmt::format("the {}", what));
    }
    x3::skip_over(first, last, ctx);
    if (first != last && *first == close) {
      ++first;
      return true;
    }
    ParseState& st = state_of(ctx);
    LineColumn lc = st.source->position(st.offset(opened));
    throw x3::expectation_failure<It>(first, fmt::format("'{}' to close the {} opened at {}:{}", close, what, lc.line, lc.column));
  }
  char open, close;
  const char* what;
};
struct enclosed {
  char open, close;
  const char* what;
  template <typename Subject>
  enclosed_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](Subject const& subject) const {
    return {x3::as_parser(subject), open, close, what};
  }
};
struct braced {
  const char* what;
  template <typename Subject>
  enclosed_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](Subject const& subject) const {
    return {x3::as_parser(subject), '{', '}', what};
  }
};

// ---- unlexeme[p]: inside lexeme[], parse p with the original skipping context ----------------
// Re-skipping with x3::skip[] would wrap the context once more at every nested string and
// recurse without end at compile time; the enclosing context is already the one we want.

template <typename Subject>
struct unlexeme_directive : x3::unary_parser<Subject, unlexeme_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, unlexeme_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr unlexeme_directive(Subject const& subject) : base_type(subject) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    return this->subject.parse(first, last, ctx.next, rctx, attr);
  }
};
struct unlexeme_gen {
  template <typename Subject>
  constexpr unlexeme_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](
      Subject const& subject) const {
    return {x3::as_parser(subject)};
  }
};
inline constexpr unlexeme_gen unlexeme{};

// ---- number and unit tokens -------------------------------------------------------------------

struct number_token : x3::parser<number_token> {
  using attribute_type = MExpr;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    It p = first;
    auto n = scan_number(p, last);
    if (!n) return false;
    if (n->out_of_range) throw x3::expectation_failure<It>(first, "!number out of range");
    ParseState& st = state_of(ctx);
    attr = make_expr(ast::NumberLit{n->value, std::move(n->unit), n->percent}, {st.offset(first), st.offset(p)});
    first = p;
    return true;
  }
};

// Unit text with its place, for `expr as UNIT`.
struct UnitText {
  std::string text;
  SourceRange range;
};

struct unit_token : x3::parser<unit_token> {
  using attribute_type = UnitText;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    It p = first;
    auto u = scan_unit(p, last);
    if (!u) return false;
    ParseState& st = state_of(ctx);
    attr = UnitText{std::move(*u), {st.offset(first), st.offset(p)}};
    first = p;
    return true;
  }
};

// ---- lambda_ahead: a cheap look for `x =>` or `(a, b) =>` -----------------------------------
// Without it every name and parenthesis would be parsed twice: once as lambda parameters.

struct lambda_ahead : x3::parser<lambda_ahead> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
    x3::skip_over(first, last, ctx);
    It p = first;
    auto skip_blank = [&] {
      while (p != last && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
    };
    if (p != last && *p == '(') {
      ++p;
      for (;;) {
        skip_blank();
        if (p == last) return false;
        if (*p == ')') break;
        if (!is_ident_char(*p) && *p != ',') return false;
        ++p;
      }
      ++p;
    } else {
      if (p == last || !is_ident_char(*p) || (*p >= '0' && *p <= '9')) return false;
      while (p != last && is_ident_char(*p)) ++p;
    }
    skip_blank();
    return last - p >= 2 && p[0] == '=' && p[1] == '>';
  }
};

// ---- keywords ---------------------------------------------------------------------------------

inline const auto ident_char = x3::char_("a-zA-Z0-9_");

// A whole word: `in` does not match the start of `index`.
inline auto kw(const char* word) { return x3::lexeme[x3::lit(word) >> !ident_char]; }

}  // namespace rubric::grammar
