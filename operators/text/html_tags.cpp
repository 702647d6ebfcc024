#include "operators/text/html_tags.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace rubric::text {

namespace {

struct Element {
  std::string_view name;
  bool block;   // ends a sentence
  bool hidden;  // its content is never shown
  bool empty;   // a void element: no content, no closing tag
};

// The elements of HTML an answer may hold, sorted by name for a binary search.
constexpr std::array<Element, 94> kElements = {{
    {"a", false, false, false}, {"abbr", false, false, false}, {"address", true, false, false},
    {"article", true, false, false}, {"aside", true, false, false}, {"audio", false, true, false},
    {"b", false, false, false}, {"bdi", false, false, false}, {"bdo", false, false, false},
    {"big", false, false, false}, {"blockquote", true, false, false}, {"body", true, false, false},
    {"br", false, false, true}, {"button", false, false, false}, {"canvas", false, true, false},
    {"caption", true, false, false}, {"center", true, false, false}, {"cite", false, false, false},
    {"code", false, false, false}, {"col", false, false, true}, {"colgroup", false, false, false},
    {"dd", true, false, false}, {"del", false, false, false}, {"details", true, false, false},
    {"dfn", false, false, false}, {"dialog", true, true, false}, {"div", true, false, false},
    {"dl", true, false, false}, {"dt", true, false, false}, {"em", false, false, false},
    {"embed", false, false, true}, {"fieldset", true, false, false}, {"figcaption", true, false, false},
    {"figure", true, false, false}, {"font", false, false, false}, {"footer", true, false, false},
    {"form", true, false, false}, {"h1", true, false, false}, {"h2", true, false, false},
    {"h3", true, false, false}, {"h4", true, false, false}, {"h5", true, false, false},
    {"h6", true, false, false}, {"head", true, true, false}, {"header", true, false, false},
    {"hr", true, false, true}, {"html", true, false, false}, {"i", false, false, false},
    {"iframe", true, true, false}, {"img", false, false, true}, {"input", false, false, true},
    {"ins", false, false, false}, {"kbd", false, false, false}, {"label", false, false, false},
    {"li", true, false, false}, {"link", false, false, true}, {"main", true, false, false},
    {"mark", false, false, false}, {"meta", false, false, true}, {"nav", true, false, false},
    {"noscript", true, true, false}, {"object", false, true, false}, {"ol", true, false, false},
    {"p", true, false, false}, {"pre", true, false, false}, {"q", false, false, false},
    {"s", false, false, false}, {"samp", false, false, false}, {"script", true, true, false},
    {"section", true, false, false}, {"small", false, false, false}, {"span", false, false, false},
    {"strike", false, false, false}, {"strong", false, false, false}, {"style", true, true, false},
    {"sub", false, false, false}, {"summary", true, false, false}, {"sup", false, false, false},
    {"svg", false, false, false}, {"table", true, false, false}, {"tbody", true, false, false},
    {"td", true, false, false}, {"template", true, true, false}, {"textarea", false, false, false},
    {"tfoot", true, false, false}, {"th", true, false, false}, {"thead", true, false, false},
    {"title", true, true, false}, {"tr", true, false, false}, {"tt", false, false, false},
    {"u", false, false, false}, {"ul", true, false, false}, {"var", false, false, false},
    {"video", false, true, false},
}};

constexpr bool sorted_by_name() {
  for (std::size_t k = 1; k < kElements.size(); ++k)
    if (!(kElements[k - 1].name < kElements[k].name)) return false;
  return true;
}
static_assert(sorted_by_name(), "kElements must be sorted by name");

const Element* element(std::string_view name) {
  auto it = std::lower_bound(kElements.begin(), kElements.end(), name, [](const Element& e, std::string_view n) { return e.name < n; });
  return it != kElements.end() && it->name == name ? &*it : nullptr;
}

bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Whether the attributes (lower-cased, white space removed outside names) hide the element.
bool hides(const std::string& attrs, const std::string& squeezed) {
  // A `hidden` attribute: the word alone, not "aria-hidden" or a value holding it.
  for (std::size_t p = attrs.find("hidden"); p != std::string::npos; p = attrs.find("hidden", p + 1)) {
    const bool starts = p > 0 && space(attrs[p - 1]);
    const std::size_t e = p + 6;
    const bool ends = e >= attrs.size() || space(attrs[e]) || attrs[e] == '=' || attrs[e] == '/';
    if (starts && ends) return true;
  }
  for (std::string_view rule : {"display:none", "visibility:hidden", "visibility:collapse", "content-visibility:hidden"})
    if (squeezed.find(rule) != std::string::npos) return true;
  // A zero size or opacity: "font-size:0", "font-size:0px", "opacity:0" (not "opacity:0.5").
  for (std::string_view rule : {"font-size:0", "opacity:0", "height:0", "max-height:0"})
    for (std::size_t p = squeezed.find(rule); p != std::string::npos; p = squeezed.find(rule, p + 1)) {
      const std::size_t e = p + rule.size();
      if (p > 0 && squeezed[p - 1] != ';' && squeezed[p - 1] != '"' && squeezed[p - 1] != '\'' && squeezed[p - 1] != '{') continue;
      if (e >= squeezed.size() || (squeezed[e] != '.' && !(squeezed[e] >= '0' && squeezed[e] <= '9'))) return true;
    }
  return false;
}

}  // namespace

HtmlTag html_tag_at(std::string_view t, std::size_t at) {
  HtmlTag tag;
  std::size_t p = at + 1;
  if (p < t.size() && t[p] == '/') {
    tag.closing = true;
    ++p;
  }
  const std::size_t name_begin = p;
  while (p < t.size() && p - name_begin < 12 && (alpha(t[p]) || (p > name_begin && t[p] >= '1' && t[p] <= '6'))) ++p;
  if (p == name_begin || p >= t.size() || !(space(t[p]) || t[p] == '>' || t[p] == '/')) return tag;
  std::string name;
  for (std::size_t k = name_begin; k < p; ++k) name += lower(t[k]);
  const Element* e = element(name);
  if (!e) return tag;
  // To the '>' that closes the tag, past quoted attribute values; at most 4 KiB.
  std::string attrs, squeezed;
  char quote = 0;
  std::size_t k = p;
  for (; k < t.size() && k - at < 4096; ++k) {
    const char c = t[k];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      break;
    } else if (c == '<') {
      return tag;  // "<b <i>": no tag
    }
    attrs += lower(c);
    if (!space(c)) squeezed += lower(c);
  }
  if (k >= t.size() || t[k] != '>') return tag;
  tag.length = k + 1 - at;
  tag.name = e->name;
  tag.block = e->block;
  tag.heading = name.size() == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6';
  tag.hidden = !tag.closing && !e->empty && (e->hidden || hides(attrs, squeezed)) && !(attrs.size() && attrs.back() == '/');
  return tag;
}

std::size_t hidden_element_end(std::string_view t, std::size_t from, std::string_view name) {
  // Raw text elements hold no tags: their content ends at the first closing tag.
  const bool raw = name == "script" || name == "style" || name == "title" || name == "textarea";
  int depth = 1;
  for (std::size_t p = t.find('<', from); p != std::string_view::npos; p = t.find('<', p + 1)) {
    const bool closing = p + 1 < t.size() && t[p + 1] == '/';
    const std::size_t n = p + 1 + (closing ? 1 : 0);
    if (n + name.size() > t.size()) break;
    bool same = true;
    for (std::size_t k = 0; k < name.size() && same; ++k) same = lower(t[n + k]) == name[k];
    const std::size_t e = n + name.size();
    if (!same || !(e >= t.size() || space(t[e]) || t[e] == '>' || t[e] == '/')) continue;
    if (!closing) {
      depth += raw ? 0 : 1;
      continue;
    }
    if (--depth == 0) {
      const std::size_t close = t.find('>', e);
      return close == std::string_view::npos ? t.size() : close + 1;
    }
  }
  return t.size();
}

}  // namespace rubric::text
