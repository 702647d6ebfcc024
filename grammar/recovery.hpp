#pragma once
// Error recovery and diagnostics helpers that need no X3: where to resume after a syntax error,
// how to name the token an error points at, and the `##` documentation above a declaration.
#include <string>

namespace rubric::grammar {

enum class ResyncLevel {
  statement,   // inside a criterion/check/for/if body
  group_item,  // inside a group body
  top,         // between top-level declarations
};

// The place to resume after a syntax error found at `from`: the next keyword that begins a
// statement of this level at the start of a line (after white space or ';'), outside brackets
// opened after `from`, or (statement and group levels) the '}' that closes the current body, or
// the end. Strings and comments are skipped whole. Never returns a position before `from`.
// `open_blocks` block braces are taken as open at `from`: what lies before their `}` is skipped.
const char* resync(const char* text_begin, const char* from, const char* end, ResyncLevel level, int open_blocks = 0);

// The block expressions (`{` followed by `let`) opened in [begin, to) and not closed there: an
// error inside a block resumes after it, not at the block's own indented `let`s. None when the
// error (`which`, what was expected) is the block's own missing '}': then what follows it is
// the body's next statement.
int open_blocks(const char* begin, const char* to, const std::string& which);

// The token at p, quoted, for "found ..." notes: `'criterion'`, `'}'`, `end of file`.
std::string describe_token(const char* p, const char* end);

// One past the token at p (at least one byte unless p == end), for caret ranges.
const char* token_end(const char* p, const char* end);

// The `##` lines directly above the line holding `decl`, markers and one space stripped,
// joined with '\n'; empty when there are none.
std::string doc_comment_above(const char* text_begin, const char* decl);

}  // namespace rubric::grammar
