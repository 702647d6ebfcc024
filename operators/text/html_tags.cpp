#include "operators/text/html_tags.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "operators/text/unicode.hpp"
#include "operators/text/utf8.hpp"

namespace rubric::text {

namespace {

struct Element {
  std::string_view name;
  bool block;   // ends a sentence
  bool hidden;  // its content is never shown
  bool empty;   // a void element: no content, no closing tag
};

// The elements of HTML an answer may hold, sorted by name for a binary search.
constexpr std::array<Element, 98> kElements = {{
    {"a", false, false, false}, {"abbr", false, false, false}, {"address", true, false, false},
    {"article", true, false, false}, {"aside", true, false, false}, {"audio", false, true, false},
    {"b", false, false, false}, {"bdi", false, false, false}, {"bdo", false, false, false},
    {"big", false, false, false}, {"blockquote", true, false, false}, {"body", true, false, false},
    {"br", false, false, true}, {"button", false, false, false}, {"canvas", false, true, false},
    {"caption", true, false, false}, {"center", true, false, false}, {"cite", false, false, false},
    {"code", false, false, false}, {"col", false, false, true}, {"colgroup", false, false, false},
    {"datalist", false, true, false}, {"dd", true, false, false}, {"del", false, false, false},
    {"details", true, false, false}, {"dfn", false, false, false}, {"dialog", true, true, false},
    {"div", true, false, false}, {"dl", true, false, false}, {"dt", true, false, false},
    {"em", false, false, false}, {"embed", false, false, true}, {"fieldset", true, false, false},
    {"figcaption", true, false, false}, {"figure", true, false, false}, {"font", false, false, false},
    {"footer", true, false, false}, {"form", true, false, false}, {"h1", true, false, false},
    {"h2", true, false, false}, {"h3", true, false, false}, {"h4", true, false, false},
    {"h5", true, false, false}, {"h6", true, false, false}, {"head", true, true, false},
    {"header", true, false, false}, {"hr", true, false, true}, {"html", true, false, false},
    {"i", false, false, false}, {"iframe", true, true, false}, {"img", false, false, true},
    {"input", false, false, true}, {"ins", false, false, false}, {"kbd", false, false, false},
    {"label", false, false, false}, {"li", true, false, false}, {"link", false, false, true},
    {"main", true, false, false}, {"mark", false, false, false}, {"meta", false, false, true},
    {"nav", true, false, false}, {"noembed", true, true, false}, {"noframes", true, true, false},
    {"noscript", true, true, false}, {"object", false, true, false}, {"ol", true, false, false},
    {"p", true, false, false}, {"pre", true, false, false}, {"q", false, false, false},
    {"rp", false, true, false}, {"s", false, false, false}, {"samp", false, false, false},
    {"script", true, true, false}, {"section", true, false, false}, {"small", false, false, false},
    {"span", false, false, false}, {"strike", false, false, false}, {"strong", false, false, false},
    {"style", true, true, false}, {"sub", false, false, false}, {"summary", true, false, false},
    {"sup", false, false, false}, {"svg", false, false, false}, {"table", true, false, false},
    {"tbody", true, false, false}, {"td", true, false, false}, {"template", true, true, false},
    {"textarea", false, false, false}, {"tfoot", true, false, false}, {"th", true, false, false},
    {"thead", true, false, false}, {"title", true, true, false}, {"tr", true, false, false},
    {"tt", false, false, false}, {"u", false, false, false}, {"ul", true, false, false},
    {"var", false, false, false}, {"video", false, true, false},
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

// The CSS of the attributes as a browser reads it: comments dropped ("display:/**/none") and the
// character references of ':' and ';' decoded ("display&#58;none").
std::string css_of(const std::string& squeezed) {
  std::string out;
  for (std::size_t k = 0; k < squeezed.size();) {
    if (squeezed.compare(k, 2, "/*") == 0) {
      const std::size_t e = squeezed.find("*/", k + 2);
      k = e == std::string::npos ? squeezed.size() : e + 2;
    } else if (squeezed.compare(k, 5, "&#58;") == 0 || squeezed.compare(k, 6, "&#x3a;") == 0) {
      out += ':';
      k += squeezed[k + 2] == 'x' ? 6 : 5;
    } else if (squeezed.compare(k, 5, "&#59;") == 0 || squeezed.compare(k, 6, "&#x3b;") == 0) {
      out += ';';
      k += squeezed[k + 2] == 'x' ? 6 : 5;
    } else {
      out += squeezed[k++];
    }
  }
  return out;
}

// Whether the number at css[p] ("0", "0.0", ".0", "0px", "0em") is zero.
bool zero_at(const std::string& css, std::size_t p) {
  bool digit = false;
  for (; p < css.size() && ((css[p] >= '0' && css[p] <= '9') || css[p] == '.'); ++p) {
    if (css[p] >= '1' && css[p] <= '9') return false;
    digit = digit || css[p] == '0';
  }
  return digit;
}

// Whether the number at css[p] is below -999 ("-9999px": moved off the screen).
bool far_negative_at(const std::string& css, std::size_t p) {
  if (p >= css.size() || css[p] != '-') return false;
  std::size_t digits = 0;
  for (++p; p < css.size() && css[p] >= '0' && css[p] <= '9'; ++p) ++digits;
  return digits >= 4;
}

// Whether a CSS colour (lower-cased) is white or so near it that it cannot be read on white: every
// channel at least 240 of 255 (#fefefe, rgb(250,250,250)), or a lightness of 94% and more.
bool near_white(const std::string& colour) {
  static const std::unordered_set<std::string> kNames = {"white", "snow", "ivory", "ghostwhite", "whitesmoke", "seashell",
                                                         "floralwhite", "mintcream", "azure", "aliceblue", "honeydew"};
  if (kNames.count(colour)) return true;
  auto light = [](unsigned v) { return v >= 240; };
  if (colour.size() >= 4 && colour[0] == '#') {
    const std::string hex = colour.substr(1);
    if (!std::all_of(hex.begin(), hex.end(), [](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)); })) return false;
    auto channel = [&](std::size_t i, std::size_t w) { return static_cast<unsigned>(std::stoul(hex.substr(i, w), nullptr, 16)) * (w == 1 ? 17 : 1); };
    if (hex.size() == 3 || hex.size() == 4) return light(channel(0, 1)) && light(channel(1, 1)) && light(channel(2, 1));
    if (hex.size() == 6 || hex.size() == 8) return light(channel(0, 2)) && light(channel(2, 2)) && light(channel(4, 2));
    return false;
  }
  // rgb(r,g,b) / rgba(r,g,b,a) with numbers 0-255; hsl(h,s%,l%) / hsla(...) by its lightness.
  const std::size_t open = colour.find('(');
  if (open == std::string::npos) return false;
  std::vector<double> xs;
  for (std::size_t p = open + 1; p < colour.size();) {
    char* end = nullptr;
    const double x = std::strtod(colour.c_str() + p, &end);
    if (end == colour.c_str() + p) { ++p; continue; }
    xs.push_back(x);
    p = static_cast<std::size_t>(end - colour.c_str());
  }
  const std::string fn = colour.substr(0, open);
  if ((fn == "rgb" || fn == "rgba") && xs.size() >= 3) return xs[0] >= 240 && xs[1] >= 240 && xs[2] >= 240;
  if ((fn == "hsl" || fn == "hsla") && xs.size() >= 3) return xs[2] >= 94;
  return false;
}

// Whether the attributes (lower-cased, white space removed outside names) hide the element.
bool hides(const std::string& attrs, const std::string& squeezed) {
  // A `hidden` attribute: the word alone, not "aria-hidden" or a value holding it.
  for (std::size_t p = attrs.find("hidden"); p != std::string::npos; p = attrs.find("hidden", p + 1)) {
    const bool starts = p > 0 && space(attrs[p - 1]);
    const std::size_t e = p + 6;
    const bool ends = e >= attrs.size() || space(attrs[e]) || attrs[e] == '=' || attrs[e] == '/';
    if (starts && ends) return true;
  }
  const std::string css = css_of(squeezed);
  for (std::string_view rule : {"display:none", "visibility:hidden", "visibility:collapse", "content-visibility:hidden",
                                "color:transparent", "transform:scale(0)", "clip:rect(0", "clip-path:inset(50%", "clip-path:inset(100%",
                                "clip-path:circle(0"})
    if (css.find(rule) != std::string::npos) return true;
  // A property that starts a declaration (after the style's quote, ';' or '{').
  auto declarations = [&](std::string_view property, auto&& test) {
    for (std::size_t p = css.find(property); p != std::string::npos; p = css.find(property, p + 1)) {
      if (p > 0 && css[p - 1] != ';' && css[p - 1] != '"' && css[p - 1] != '\'' && css[p - 1] != '{' && css[p - 1] != '=') continue;
      if (test(p + property.size())) return true;
    }
    return false;
  };
  // A zero size or opacity: "font-size:0", "opacity:0.0", "height:0px" (not "opacity:0.5").
  for (std::string_view zero : {"font-size:", "opacity:", "height:", "max-height:", "width:", "max-width:"})
    if (declarations(zero, [&](std::size_t v) { return zero_at(css, v); })) return true;
  // Type too small to read: under 2px, 0.2em or 20% ("font-size:0.1px").
  if (declarations("font-size:", [&](std::size_t v) {
        char* end = nullptr;
        const double size = std::strtod(css.c_str() + v, &end);
        if (end == css.c_str() + v) return false;
        const std::string unit(end, std::min<std::size_t>(3, css.size() - static_cast<std::size_t>(end - css.c_str())));
        if (unit.rfind("px", 0) == 0 || unit.rfind("pt", 0) == 0) return size < 2;
        if (unit.rfind("em", 0) == 0 || unit.rfind("rem", 0) == 0) return size < 0.2;
        if (unit.rfind("%", 0) == 0) return size < 20;
        return false;
      }))
    return true;
  // White or near-white type with no background of its own: invisible on the white page a grader
  // reads ("color:white", "#fefefe", "rgba(255,255,255,1)", "hsl(0,0%,100%)", `<font color="#fff">`).
  auto white_at = [&](const std::string& text, std::size_t v) {
    while (v < text.size() && (text[v] == '"' || text[v] == '\'' || text[v] == ' ')) ++v;
    std::size_t e = v;
    while (e < text.size() && text[e] != ';' && text[e] != '"' && text[e] != '\'' && text[e] != ' ' && text[e] != '}' &&
           text[e] != '!')  // "white !important"
      ++e;
    return near_white(text.substr(v, e - v));
  };
  if (css.find("background") == std::string::npos) {
    if (declarations("color:", [&](std::size_t v) { return white_at(css, v); })) return true;
    for (std::size_t p = attrs.find("color="); p != std::string::npos; p = attrs.find("color=", p + 1))
      if ((p == 0 || space(attrs[p - 1])) && white_at(attrs, p + 6)) return true;
  }
  // Moved off the screen: "left:-9999px", "text-indent:-10000px", "margin-left:-5000px".
  for (std::string_view offset : {"left:", "top:", "text-indent:", "margin-left:", "margin-top:", "right:"})
    if (declarations(offset, [&](std::size_t v) { return far_negative_at(css, v); })) return true;
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

std::size_t comment_end(std::string_view t, std::size_t at) {
  if (t.compare(at, 5, "<!-->") == 0) return at + 5;
  if (t.compare(at, 6, "<!--->") == 0) return at + 6;
  const std::size_t close = t.find("-->", at + 4);
  return close == std::string_view::npos ? t.size() : close + 3;
}

std::size_t link_definition_at(std::string_view t, std::size_t b) {
  std::size_t k = b;
  while (k < t.size() && t[k] == ' ' && k - b < 3) ++k;
  if (k >= t.size() || t[k] != '[') return 0;
  const std::size_t close = t.find(']', k + 1);
  const std::size_t eol = std::min(t.find('\n', k), t.size());
  if (close == std::string_view::npos || close >= eol || close == k + 1 || close + 1 >= t.size() || t[close + 1] != ':') return 0;
  std::size_t d = close + 2;
  while (d < eol && (t[d] == ' ' || t[d] == '\t')) ++d;
  if (d >= eol) return 0;  // "[label]:" with nothing after it is text
  return eol - b;
}

std::string rendered_layout(std::string_view t, bool tags_too) {
  std::string out(t);
  auto blank_out = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  bool fenced = false;
  for (std::size_t b = 0; b < t.size();) {
    std::size_t e = std::min(t.find('\n', b), t.size());
    const std::size_t lead = t.find_first_not_of(' ', b);
    if (lead != std::string_view::npos && lead < e && lead - b < 4 && (t.compare(lead, 3, "```") == 0 || t.compare(lead, 3, "~~~") == 0)) {
      fenced = !fenced;
    } else if (!fenced) {
      if (std::size_t len = link_definition_at(t, b)) {
        blank_out(b, b + len);
      } else {
        for (std::size_t p = t.find('<', b); p != std::string_view::npos && p < e; p = t.find('<', p + 1)) {
          std::size_t to = 0;
          if (t.compare(p, 4, "<!--") == 0) to = comment_end(t, p);
          else if (const HtmlTag tag = html_tag_at(t, p); tag.length && tag.hidden) {
            to = hidden_element_end(t, p + tag.length, tag.name);
          } else if (tags_too && tag.length) {
            to = p + tag.length;
          }
          if (!to) continue;
          blank_out(p, to);
          // Go on after it (past this line when it ran over the line's end).
          if (to > e) e = std::min(t.find('\n', to), t.size());
          p = to - 1;
        }
      }
    }
    b = e + 1;
  }
  return out;
}

namespace {

// The character of the reference at t[i] ('&') and the reference's length, or length 0.
std::pair<std::string, std::size_t> reference_at(std::string_view t, std::size_t i) {
  static const std::array<std::pair<std::string_view, std::string_view>, 14> kNamed = {{
      {"&nbsp;", "\xC2\xA0"}, {"&shy;", "\xC2\xAD"}, {"&zwj;", "\xE2\x80\x8D"}, {"&zwnj;", "\xE2\x80\x8C"},
      {"&ndash;", "\xE2\x80\x93"}, {"&mdash;", "\xE2\x80\x94"}, {"&rsquo;", "\xE2\x80\x99"},
      {"&lsquo;", "\xE2\x80\x98"}, {"&apos;", "'"}, {"&quot;", "\""}, {"&times;", "\xC3\x97"},
      {"&hellip;", "\xE2\x80\xA6"}, {"&ldquo;", "\xE2\x80\x9C"}, {"&rdquo;", "\xE2\x80\x9D"}}};
  if (i + 3 < t.size() && t[i + 1] == '#') {
    std::size_t k = i + 2;
    const bool hex = k < t.size() && (t[k] == 'x' || t[k] == 'X');
    k += hex;
    char32_t cp = 0;
    const std::size_t digits_at = k;
    while (k < t.size() && k - digits_at < 7) {
      const char c = t[k];
      int d = c >= '0' && c <= '9' ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) break;
      cp = cp * (hex ? 16 : 10) + static_cast<char32_t>(d);
      ++k;
    }
    if (k == digits_at || k >= t.size() || t[k] != ';' || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {{}, 0};
    if (cp == '<' || cp == '>' || cp == '&' || cp == '`' || cp == '*' || cp == '_' || cp == '~' || cp == '[' || cp == ']' ||
        cp == '#' || cp == '|')
      return {{}, 0};  // markup: shown as the character, never read as markup
    std::string out;
    append_utf8(out, cp);
    return {out, k + 1 - i};
  }
  for (const auto& [name, text] : kNamed)
    if (t.compare(i, name.size(), name) == 0) return {std::string(text), name.size()};
  return {{}, 0};
}

bool letter(char c) { return alpha(c) || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80; }

}  // namespace

namespace {


// The class names a style sheet of the text hides ("<style>.n{display:none}</style>"): rules whose
// selector is a class, alone or after an element name ("span.n"), and whose declarations hide.
std::vector<std::string> hidden_classes(std::string_view t) {
  std::vector<std::string> names;
  for (std::size_t p = t.find("<style"); p != std::string_view::npos && names.size() < 64; p = t.find("<style", p + 6)) {
    const std::size_t open = t.find('>', p);
    const std::size_t close = open == std::string_view::npos ? open : t.find("</style", open);
    if (close == std::string_view::npos) break;
    const std::string css = lower_ascii(t.substr(open + 1, close - open - 1));
    for (std::size_t r = 0; r < css.size();) {
      const std::size_t brace = css.find('{', r), end = brace == std::string::npos ? brace : css.find('}', brace);
      if (end == std::string::npos) break;
      std::string body;
      for (std::size_t k = brace + 1; k < end; ++k)
        if (!space(css[k])) body += css[k];
      if (hides(" style=\"" + body + "\"", "style=\"" + body + "\"")) {
        std::string selectors = css.substr(r, brace - r);
        for (std::size_t a = 0; a <= selectors.size();) {
          std::size_t comma = selectors.find(',', a);
          if (comma == std::string::npos) comma = selectors.size();
          std::string sel;
          for (std::size_t k = a; k < comma; ++k)
            if (!space(selectors[k])) sel += selectors[k];
          const std::size_t dot = sel.find('.');
          bool plain = dot != std::string::npos && dot + 1 < sel.size();
          for (std::size_t k = dot + 1; plain && k < sel.size(); ++k) plain = alpha(sel[k]) || (sel[k] >= '0' && sel[k] <= '9') || sel[k] == '-' || sel[k] == '_';
          // At most 64 distinct names: a style sheet of thousands of rules costs no more per class.
          if (plain && names.size() < 64 && std::find(names.begin(), names.end(), sel.substr(dot + 1)) == names.end())
            names.push_back(sel.substr(dot + 1));
          a = comma + 1;
        }
      }
      r = end + 1;
    }
    p = close;
  }
  return names;
}

}  // namespace

std::string characters_as_rendered(std::string_view t) {
  std::string out;
  auto copy_once = [&]() {
    if (out.empty()) out.assign(t);
  };
  // An element of a class the text's style sheet hides is hidden as if it said so: its `class="..."`
  // is rewritten in place as `hidden` and spaces.
  if (t.find("<style") != std::string_view::npos)
    if (const std::vector<std::string> hidden = hidden_classes(t); !hidden.empty())
      for (std::size_t p = t.find("class="); p != std::string_view::npos; p = t.find("class=", p + 6)) {
        if (p == 0 || !space(t[p - 1]) || p + 6 >= t.size() || (t[p + 6] != '"' && t[p + 6] != '\'')) continue;
        const std::size_t close = t.find(t[p + 6], p + 7);
        if (close == std::string_view::npos || close - p > 512) continue;
        const std::string value = lower_ascii(t.substr(p + 7, close - p - 7));
        bool hit = false;
        for (std::size_t a = 0; a < value.size() && !hit;) {
          std::size_t b = value.find(' ', a);
          if (b == std::string::npos) b = value.size();
          for (const std::string& name : hidden) hit = hit || std::string_view(value).substr(a, b - a) == name;
          a = b + 1;
        }
        if (!hit) continue;
        copy_once();
        out.replace(p, 6, "hidden");
        for (std::size_t k = p + 6; k <= close; ++k) out[k] = ' ';
      }
  // The rest reads the text as rewritten so far (in place: a view of it stays valid).
  const std::string_view src = out.empty() ? t : std::string_view(out);
  for (std::size_t i = src.find_first_of("&<"); i != std::string_view::npos; i = src.find_first_of("&<", i + 1)) {
    if (src[i] == '&') {
      auto [ch, len] = reference_at(src, i);
      if (!len || ch.size() > len) continue;
      copy_once();
      out.replace(i, ch.size(), ch);
      for (std::size_t k = i + ch.size(); k < i + len; ++k) out[k] = '\x7f';
      i += len - 1;
      continue;
    }
    // "<": a comment or an inline tag glued between two letters vanishes; a hidden element is passed
    // over whole (the tokeniser drops it), so its closing tag is never taken for a glued one.
    // A run of such markup back to back counts as one: "n<span></span>ot".
    std::size_t end = i;
    bool glue = true;
    while (end < src.size() && src[end] == '<') {
      std::size_t next = 0;
      if (src.compare(end, 4, "<!--") == 0) {
        next = comment_end(src, end);
      } else if (const HtmlTag tag = html_tag_at(src, end); tag.length) {
        next = tag.hidden ? hidden_element_end(src, end + tag.length, tag.name) : end + tag.length;
        glue = glue && !tag.hidden && !tag.block && tag.name != "br";  // "no<br>longer" is two words
      }
      if (!next) break;
      end = next;
    }
    if (end == i) continue;
    if (glue && i > 0 && letter(src[i - 1]) && end < src.size() && letter(src[end])) {
      copy_once();
      for (std::size_t k = i; k < end; ++k) out[k] = '\x7f';
    }
    if (end >= src.size()) break;
    i = end - 1;
  }
  return out;
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
