#include "grammar/recovery.hpp"

#include <cstring>
#include <initializer_list>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "grammar/lexemes.hpp"

namespace rubric::grammar {
namespace {

constexpr std::string_view statement_keywords[] = {"let", "expect", "check", "note", "score", "for", "if"};
constexpr std::string_view group_keywords[] = {"criterion", "group", "let"};
// `let` is left out: inside a broken body an indented `let` is a statement. An unindented one
// is taken as a top-level declaration (see resync).
constexpr std::string_view top_keywords[] = {"rubric", "use", "import", "param", "def", "criterion", "group"};
constexpr std::string_view top_only_keywords[] = {"rubric", "use", "import", "param", "def", "criterion", "group"};

bool word_at(const char* p, const char* end, std::string_view w) {
  std::size_t n = w.size();
  if (static_cast<std::size_t>(end - p) < n || std::memcmp(p, w.data(), n) != 0) return false;
  return p + n == end || !is_ident_char(p[n]);
}

template <std::size_t N>
bool any_word_at(const char* p, const char* end, const std::string_view (&words)[N]) {
  for (std::string_view w : words)
    if (word_at(p, end, w)) return true;
  return false;
}

bool stops_at(const char* p, const char* end, ResyncLevel level, bool at_column_one) {
  switch (level) {
    case ResyncLevel::statement:
      return any_word_at(p, end, statement_keywords) || any_word_at(p, end, top_only_keywords);
    case ResyncLevel::group_item:
      return any_word_at(p, end, group_keywords) || any_word_at(p, end, top_only_keywords);
    case ResyncLevel::top:
      return any_word_at(p, end, top_keywords) || (at_column_one && (word_at(p, end, "let") || word_at(p, end, "concept")));
  }
  return false;
}

const char* skip_string(const char* p, const char* end) {
  bool raw = *p == 'r';
  p += raw ? 2 : 1;
  while (p < end && *p != '"' && *p != '\n') {
    if (!raw && *p == '\\' && p + 1 < end) ++p;
    ++p;
  }
  return p < end && *p == '"' ? p + 1 : p;
}

}  // namespace

int open_blocks(const char* begin, const char* to, const std::string& which) {
  if (which.rfind("'}' to close the block", 0) == 0) return 0;
  std::vector<bool> braces;  // each open '{': whether it opens a block
  for (const char* p = begin; p < to;) {
    const char c = *p;
    if (c == '#') {
      while (p < to && *p != '\n') ++p;
    } else if (c == '"' || (c == 'r' && p + 1 < to && p[1] == '"' && (p == begin || !is_ident_char(p[-1])))) {
      p = skip_string(p, to);
    } else if (c == '{') {
      const char* q = p + 1;
      while (q < to && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')) ++q;
      braces.push_back(word_at(q, to, "let"));
      ++p;
    } else if (c == '}') {
      if (!braces.empty()) braces.pop_back();
      ++p;
    } else if (is_ident_char(c)) {
      while (p < to && is_ident_char(*p)) ++p;
    } else {
      ++p;
    }
  }
  int n = 0;
  for (bool b : braces) n += b ? 1 : 0;
  return n;
}

const char* resync(const char* text_begin, const char* from, const char* end, ResyncLevel level, int open_blocks) {
  const char* p = from;
  int depth = open_blocks;
  // Whether only white space or ';' precede p on its line: look back on from's own line.
  const char* q = from;
  while (q > text_begin && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == ';' || q[-1] == '\r')) --q;
  bool line_start = q == text_begin || q[-1] == '\n';
  bool column_one = line_start && q == from;
  while (p < end) {
    char c = *p;
    if (c == '\n') {
      line_start = true;
      column_one = true;
      ++p;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == ';') {
      column_one = false;
      ++p;
      continue;
    }
    if (c == '#') {
      while (p < end && *p != '\n') ++p;
      continue;
    }
    bool starts_line = line_start;
    bool at_one = column_one;
    line_start = false;
    column_one = false;
    if (c == '"' || (c == 'r' && p + 1 < end && p[1] == '"' && (p == from || !is_ident_char(p[-1])))) {
      p = skip_string(p, end);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
      ++p;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) {
        --depth;
      } else if (c == '}' && level != ResyncLevel::top) {
        return p;
      }
      ++p;
      continue;
    }
    if (is_ident_char(c)) {
      if (depth == 0 && starts_line && stops_at(p, end, level, at_one)) return p;
      while (p < end && is_ident_char(*p)) ++p;
      continue;
    }
    ++p;
  }
  return end;
}

const char* token_end(const char* p, const char* end) {
  if (p >= end) return end;
  if (is_ident_char(*p)) {
    while (p < end && is_ident_char(*p)) ++p;
    return p;
  }
  if (*p == '"') return skip_string(p, end);
  static constexpr std::string_view two_char[] = {"==", "!=", "<=", ">=", "=>"};
  for (std::string_view t : two_char)
    if (end - p >= 2 && p[0] == t[0] && p[1] == t[1]) return p + 2;
  // A whole UTF-8 sequence, never half of one.
  const char* q = p + 1;
  while (q < end && (static_cast<unsigned char>(*q) & 0xC0) == 0x80) ++q;
  return q;
}

std::string describe_token(const char* p, const char* end) {
  if (p >= end) return "end of file";
  if (*p == '\n' || *p == '\r') return "end of line";
  const char* q = token_end(p, end);
  std::string_view text(p, static_cast<std::size_t>(q - p));
  if (text.size() > 40) return fmt::format("'{}...'", text.substr(0, 40));
  return fmt::format("'{}'", text);
}

std::string doc_comment_above(const char* text_begin, const char* decl) {
  // Start of the declaration's line.
  const char* line = decl;
  while (line > text_begin && line[-1] != '\n') --line;
  std::vector<std::string_view> docs;
  while (line > text_begin) {
    const char* prev_end = line - 1;  // the '\n' ending the previous line
    const char* prev = prev_end;
    while (prev > text_begin && prev[-1] != '\n') --prev;
    std::string_view text(prev, static_cast<std::size_t>(prev_end - prev));
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    if (text.size() < 2 || text[0] != '#' || text[1] != '#') break;
    text.remove_prefix(2);
    if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    docs.push_back(text);
    line = prev;
  }
  std::string out;
  for (auto it = docs.rbegin(); it != docs.rend(); ++it) {
    if (!out.empty()) out += '\n';
    out += *it;
  }
  return out;
}

}  // namespace rubric::grammar
