#include "operators/text/sections.hpp"

#include <string>
#include <vector>

#include "operators/text/html_tags.hpp"
#include "operators/text/stemmer.hpp"

namespace rubric::text {

namespace {

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// The inflection keys of the words of s, lower-cased: "**Root causes**" → ["root", "cause"].
std::vector<std::string> word_keys(std::string_view s) {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < s.size();) {
    if (!alnum(s[i])) {
      ++i;
      continue;
    }
    std::string w;
    while (i < s.size() && (alnum(s[i]) || (s[i] == '\'' && i + 1 < s.size() && alnum(s[i + 1]))))
      w += static_cast<char>(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]), ++i;
    keys.push_back(inflection_key(w));
  }
  return keys;
}

bool contains(const std::vector<std::string>& words, const std::vector<std::string>& part) {
  if (part.empty() || part.size() > words.size()) return false;
  for (std::size_t i = 0; i + part.size() <= words.size(); ++i) {
    std::size_t k = 0;
    while (k < part.size() && words[i + k] == part[k]) ++k;
    if (k == part.size()) return true;
  }
  return false;
}

// The text's lines in order, with fenced code blocks passed over: `visit(begin, end)` per line of
// prose (end before the newline); it returns false to stop.
template <typename F>
void prose_lines(std::string_view t, F&& visit) {
  bool fenced = false;
  for (std::size_t b = 0; b < t.size();) {
    std::size_t e = t.find('\n', b);
    if (e == std::string_view::npos) e = t.size();
    std::string_view line = t.substr(b, e - b);
    std::size_t lead = line.find_first_not_of(' ');
    bool fence = lead != std::string_view::npos && lead < 4 &&
                 (line.compare(lead, 3, "```") == 0 || line.compare(lead, 3, "~~~") == 0);
    if (fence) fenced = !fenced;
    else if (!fenced && !visit(b, e)) return;
    b = e + 1;
  }
}

// The level of an ATX heading line (1 to 6), or of a line opening with an HTML heading tag
// ("<h2>Fix</h2>"), or 0.
int heading_level(std::string_view line) {
  std::size_t k = line.find_first_not_of(' ');
  if (k == std::string_view::npos || k > 3) return 0;
  if (line.size() > k + 3 && line[k] == '<' && (line[k + 1] == 'h' || line[k + 1] == 'H') && line[k + 2] >= '1' &&
      line[k + 2] <= '6' && (line[k + 3] == '>' || line[k + 3] == ' '))
    return line[k + 2] - '0';
  std::size_t h = k;
  while (h < line.size() && line[h] == '#') ++h;
  int level = static_cast<int>(h - k);
  return level >= 1 && level <= 6 && (h == line.size() || line[h] == ' ' || line[h] == '\t') ? level : 0;
}

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// The level of a Setext underline ("=====" is 1, "-----" is 2: at least two, up to three spaces
// before), or 0.
int underline_level(std::string_view line) {
  std::size_t k = line.find_first_not_of(' ');
  if (k == std::string_view::npos || k > 3 || (line[k] != '=' && line[k] != '-')) return 0;
  std::size_t r = line.find_first_not_of(line[k], k);
  if (r - k < 2 && r != std::string_view::npos) return 0;
  if (r == std::string_view::npos && line.size() - k < 2) return 0;
  if (r != std::string_view::npos && line.find_first_not_of(" \t\r", r) != std::string_view::npos) return 0;
  return line[k] == '=' ? 1 : 2;
}

// A line of a paragraph that an underline can make a heading: not blank, not a list item, a quote,
// a table row or an ATX heading ("- item\n---" is a list and a rule).
bool setext_text(std::string_view line) {
  std::size_t k = line.find_first_not_of(' ');
  if (k == std::string_view::npos || k > 3 || heading_level(line) || line[k] == '>' || line[k] == '|') return false;
  if ((line[k] == '-' || line[k] == '*' || line[k] == '+') && (k + 1 == line.size() || line[k + 1] == ' ')) return false;
  return !underline_level(line);
}

// A line that goes on a list after a blank line: a list item ("- x", "* x", "+ x", "1. x", "1) x")
// or a line indented as an item's continuation.
bool list_item_or_indented(std::string_view line) {
  if (!line.empty() && (line[0] == '\t' || (line.size() >= 2 && line[0] == ' ' && line[1] == ' '))) return true;
  std::size_t k = line.find_first_not_of(' ');
  if (k == std::string_view::npos) return false;
  if ((line[k] == '-' || line[k] == '*' || line[k] == '+') && k + 1 < line.size() && line[k + 1] == ' ') return true;
  std::size_t d = k;
  while (d < line.size() && line[d] >= '0' && line[d] <= '9') ++d;
  return d > k && d + 1 < line.size() && (line[d] == '.' || line[d] == ')') && line[d + 1] == ' ';
}

}  // namespace

std::optional<std::string_view> section_of(std::string_view text, std::string_view heading) {
  // Headings are looked for where a reader sees them: not in a comment or a hidden element.
  const std::string shown = rendered_layout(text);
  const std::string_view t = shown;
  const std::vector<std::string> want = word_keys(heading);
  std::size_t begin = std::string_view::npos, end = t.size();
  int level = 0;
  // A Setext heading is known at its underline: the line before it is held until then.
  std::size_t prev_b = std::string_view::npos, prev_e = 0;
  bool prev_text = false;  // the line before was one an underline can make a heading
  prose_lines(t, [&](std::size_t b, std::size_t e) {
    std::string_view line = t.substr(b, e - b);
    int l = heading_level(line);
    std::size_t hb = b, he = e;
    if (l == 0 && prev_text && prev_e + 1 == b && (l = underline_level(line))) hb = prev_b, he = prev_e;
    prev_text = setext_text(line) && !blank(line);
    prev_b = b, prev_e = e;
    if (l == 0) return true;
    if (begin == std::string_view::npos) {
      if (contains(word_keys(t.substr(hb, he - hb)), want)) begin = hb, level = l;
      return true;
    }
    if (l <= level) {
      end = hb;
      return false;
    }
    return true;
  });
  if (begin == std::string_view::npos) return std::nullopt;
  while (end > begin && (t[end - 1] == '\n' || t[end - 1] == ' ' || t[end - 1] == '\r')) --end;
  return text.substr(begin, end - begin);
}

std::optional<std::string_view> labelled_line(std::string_view text, std::string_view label) {
  const std::string shown = rendered_layout(text);
  const std::string_view t = shown;
  const std::vector<std::string> want = word_keys(label);
  if (want.empty()) return std::nullopt;
  std::size_t begin = std::string_view::npos, end = t.size();
  bool block = false;  // nothing after the colon: the label's block follows
  bool content = false, gap = false;  // the block has a line; a blank line came after it
  prose_lines(t, [&](std::size_t b, std::size_t e) {
    std::string_view line = t.substr(b, e - b);
    if (begin != std::string_view::npos) {  // extending a label's block
      // Blank lines before the block are passed over ("Ruled out:", a blank line, then the list);
      // after it, one ends the block unless the list goes on (a loose list, or an indented line).
      if (heading_level(line)) return false;
      if (blank(line)) {
        gap = content;
        return true;
      }
      if (gap && !list_item_or_indented(line)) return false;
      content = true;
      gap = false;
      end = e;
      return true;
    }
    // Past indentation, a list marker ("- ", "* ", "1. ") and a block quote's ">".
    std::size_t k = line.find_first_not_of(" \t>");
    if (k == std::string_view::npos) return true;
    if ((line[k] == '-' || line[k] == '*' || line[k] == '+') && k + 1 < line.size() && line[k + 1] == ' ') k += 2;
    else {
      std::size_t d = k;
      while (d < line.size() && line[d] >= '0' && line[d] <= '9') ++d;
      if (d > k && d + 1 < line.size() && (line[d] == '.' || line[d] == ')') && line[d + 1] == ' ') k = d + 2;
    }
    std::size_t colon = line.find(':', k);
    if (colon == std::string_view::npos || colon - k > 120) return true;
    if (word_keys(line.substr(k, colon - k)) != want) return true;
    begin = b + k;
    std::string_view rest = line.substr(colon + 1);
    block = rest.find_first_not_of(" \t*_\r") == std::string_view::npos;
    end = e;
    return block;  // a label with its value on the line: done
  });
  if (begin == std::string_view::npos) return std::nullopt;
  while (end > begin && (t[end - 1] == '\n' || t[end - 1] == ' ' || t[end - 1] == '\r')) --end;
  return text.substr(begin, end - begin);
}

}  // namespace rubric::text
