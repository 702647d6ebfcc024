// The facade: drives the declaration rules one at a time so that a syntax error costs one
// declaration, not the file, and turns X3's expectation failures into Diagnostics.
#include "grammar/parse.hpp"

#include <cstring>

#include "grammar/config.hpp"
#include "grammar/declaration.hpp"
#include "grammar/directives.hpp"
#include "grammar/expression.hpp"
#include "grammar/recovery.hpp"

namespace rubric {
namespace {

using grammar::ParseState;
namespace x3 = boost::spirit::x3;

ParseState start_state(const SourcePtr& source) {
  ParseState st;
  st.source = source;
  st.begin = source->text().data();
  st.end = st.begin + source->text().size();
  return st;
}

const char* skip_trivia(const char* p, const char* end) {
  while (p < end) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || c == ';') {
      ++p;
    } else if (c == '#') {
      while (p < end && *p != '\n') ++p;
    } else {
      break;
    }
  }
  return p;
}

bool word_at(const char* p, const char* end, const char* word) {
  std::size_t n = std::strlen(word);
  return static_cast<std::size_t>(end - p) >= n && std::memcmp(p, word, n) == 0 &&
         (p + n == end || !grammar::is_ident_char(p[n]));
}

template <typename Parser, typename Attr>
bool parse_one(const Parser& parser, const char*& p, ParseState& st, Attr& attr) {
  return x3::phrase_parse(p, st.end, x3::with<grammar::state_tag>(st)[parser], grammar::skipper, attr);
}

// `##` documentation belongs to param, let and def.
void attach_doc(ast::TopItem& item, const ParseState& st) {
  auto doc_of = [&](auto& decl) { decl.doc = grammar::doc_comment_above(st.begin, st.begin + decl.range.begin); };
  if (auto* p = std::get_if<ast::Param>(&item)) doc_of(*p);
  if (auto* l = std::get_if<ast::LetDecl>(&item)) doc_of(*l);
  if (auto* d = std::get_if<ast::Def>(&item)) doc_of(*d);
}

// Where to resume at top level after an error at `where` in a declaration that began at `start`.
const char* resume_top(const ParseState& st, const char* start, const char* where) {
  const char* from = where > start ? where : start + 1;
  return grammar::resync(st.begin, from, st.end, grammar::ResyncLevel::top);
}

}  // namespace

ParseResult parse_file(SourcePtr source) {
  ParseState st = start_state(source);
  auto file = std::make_shared<ast::File>();
  file->source = source;
  const char* p = skip_trivia(st.begin, st.end);
  try {
    if (word_at(p, st.end, "rubric")) {
      const char* start = p;
      try {
        ast::Header h;
        if (parse_one(grammar::header(), p, st, h)) file->header = std::move(h);
      } catch (const x3::expectation_failure<const char*>& x) {
        st.expectation_error(x.where(), x.which());
        p = resume_top(st, start, x.where());
      }
    }
    for (;;) {
      p = skip_trivia(p, st.end);
      if (p == st.end) break;
      const char* start = p;
      try {
        ast::TopItem item;
        if (parse_one(grammar::top_item(), p, st, item)) {
          attach_doc(item, st);
          file->items.push_back(std::move(item));
          continue;
        }
        if (word_at(p, st.end, "rubric")) {
          st.error(p, file->header ? "a rubric file has one header" : "the rubric header must come first in the file");
        } else {
          st.error(p, "expected a declaration (use, import, param, let, def, criterion, group)",
                   {fmt::format("found {}", grammar::describe_token(p, st.end))});
        }
        p = resume_top(st, start, p);
      } catch (const x3::expectation_failure<const char*>& x) {
        st.expectation_error(x.where(), x.which());
        p = resume_top(st, start, x.where());
      }
    }
  } catch (const grammar::too_many_errors&) {
    // The limit note is on the last diagnostic; what parsed so far is kept.
  }
  return ParseResult{std::move(file), std::move(st.diagnostics)};
}

ExpressionParseResult parse_expression(SourcePtr source) {
  ParseState st = start_state(source);
  ExpressionParseResult result;
  const char* p = st.begin;
  try {
    std::shared_ptr<ast::Expr> e;
    auto whole = grammar::expression() >> grammar::expect_that(x3::eoi, "the end of the value");
    if (parse_one(whole, p, st, e)) {
      result.expr = std::move(e);
    } else {
      p = skip_trivia(p, st.end);
      st.error(p, "expected an expression", {fmt::format("found {}", grammar::describe_token(p, st.end))});
    }
  } catch (const x3::expectation_failure<const char*>& x) {
    try {
      st.expectation_error(x.where(), x.which());
    } catch (const grammar::too_many_errors&) {
    }
  } catch (const grammar::too_many_errors&) {
  }
  result.diagnostics = std::move(st.diagnostics);
  return result;
}

}  // namespace rubric
