#include "operators/text/unicode.hpp"

#include <array>
#include <unordered_map>

namespace rubric::text {

namespace {

// Decodes the UTF-8 character at t[i]: its code point and length; a malformed or truncated
// sequence is the lead byte alone (code point 0xFFFD is never produced for it: callers keep the byte).
bool decode(std::string_view t, std::size_t i, char32_t& cp, std::size_t& len) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(t[k]); };
  unsigned char c = b(i);
  std::size_t n = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > t.size()) return false;
  char32_t v = n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return false;
    v = (v << 6) | (b(i + k) & 0x3F);
  }
  cp = v;
  len = n;
  return true;
}

// Latin-1 capitals and their small letters (U+00C0..U+00DE, not U+00D7), as UTF-8.
constexpr std::string_view kLatin1Lower[] = {"\xc3\xa0", "\xc3\xa1", "\xc3\xa2", "\xc3\xa3", "\xc3\xa4", "\xc3\xa5", "\xc3\xa6",
                                             "\xc3\xa7", "\xc3\xa8", "\xc3\xa9", "\xc3\xaa", "\xc3\xab", "\xc3\xac", "\xc3\xad",
                                             "\xc3\xae", "\xc3\xaf", "\xc3\xb0", "\xc3\xb1", "\xc3\xb2", "\xc3\xb3", "\xc3\xb4",
                                             "\xc3\xb5", "\xc3\xb6", "",         "\xc3\xb8", "\xc3\xb9", "\xc3\xba", "\xc3\xbb",
                                             "\xc3\xbc", "\xc3\xbd", "\xc3\xbe"};
constexpr std::string_view kAsciiLower = "abcdefghijklmnopqrstuvwxyz0123456789";

// Windows-1252 at 0x80..0x9F: the character of each byte, as UTF-8, and a letter's lower-case reading
// ("" for punctuation, which its class reads). 0 where the code page leaves the byte undefined.
struct Cp1252 {
  char32_t cp;
  std::string_view utf8, letter;
};
constexpr Cp1252 kCp1252[32] = {
    {0x20AC, "\xe2\x82\xac", "\xe2\x82\xac"}, {0, "", ""}, {0x201A, "\xe2\x80\x9a", ""},
    {0x0192, "\xc6\x92", "\xc6\x92"}, {0x201E, "\xe2\x80\x9e", ""}, {0x2026, "\xe2\x80\xa6", ""},
    {0x2020, "\xe2\x80\xa0", "\xe2\x80\xa0"}, {0x2021, "\xe2\x80\xa1", "\xe2\x80\xa1"}, {0x02C6, "\xcb\x86", "\xcb\x86"},
    {0x2030, "\xe2\x80\xb0", "\xe2\x80\xb0"}, {0x0160, "\xc5\xa0", "\xc5\xa1"}, {0x2039, "\xe2\x80\xb9", ""},
    {0x0152, "\xc5\x92", "\xc5\x93"}, {0, "", ""}, {0x017D, "\xc5\xbd", "\xc5\xbe"},
    {0, "", ""}, {0, "", ""}, {0x2018, "\xe2\x80\x98", ""},
    {0x2019, "\xe2\x80\x99", ""}, {0x201C, "\xe2\x80\x9c", ""}, {0x201D, "\xe2\x80\x9d", ""},
    {0x2022, "\xe2\x80\xa2", ""}, {0x2013, "\xe2\x80\x93", ""}, {0x2014, "\xe2\x80\x94", ""},
    {0x02DC, "\xcb\x9c", "\xcb\x9c"}, {0x2122, "\xe2\x84\xa2", "\xe2\x84\xa2"}, {0x0161, "\xc5\xa1", "\xc5\xa1"},
    {0x203A, "\xe2\x80\xba", ""}, {0x0153, "\xc5\x93", "\xc5\x93"}, {0, "", ""},
    {0x017E, "\xc5\xbe", "\xc5\xbe"}, {0x0178, "\xc5\xb8", "\xc3\xbf"}};

// The UTF-8 of the Latin-1 character b (0xA0..0xFF).
std::string_view latin1_utf8(unsigned char b) {
  static const std::array<char, 2 * 96> table = [] {
    std::array<char, 2 * 96> t{};
    for (int c = 0xA0; c <= 0xFF; ++c) {
      t[2 * (c - 0xA0)] = static_cast<char>(0xC0 | (c >> 6));
      t[2 * (c - 0xA0) + 1] = static_cast<char>(0x80 | (c & 0x3F));
    }
    return t;
  }();
  return std::string_view(table.data() + 2 * (b - 0xA0), 2);
}

}  // namespace

std::size_t char_length(std::string_view t, std::size_t i) {
  char32_t cp;
  std::size_t len;
  return static_cast<unsigned char>(t[i]) < 0x80 || !decode(t, i, cp, len) ? 1 : len;
}

std::size_t char_start(std::string_view t, std::size_t i) {
  std::size_t k = i;
  while (k > 0 && i - k < 3 && (static_cast<unsigned char>(t[k]) & 0xC0) == 0x80) --k;
  // Only a lead byte whose sequence covers i makes i a continuation; otherwise i stands alone.
  if (k != i && char_length(t, k) > i - k) return k;
  return i;
}

Glyph glyph_at(std::string_view t, std::size_t i) {
  Glyph g;
  char32_t cp = 0;
  std::size_t len = 1;
  // Text written on Windows: a byte 0x80..0x9F that is not UTF-8 ("doesn\x92t"), or a C1 control
  // encoded in UTF-8 (the same text decoded as Latin-1), is the Windows-1252 character, as the
  // WHATWG Encoding Standard reads the "latin1" label; C1 controls do not occur in prose.
  // Above 0x9F, Windows-1252 is Latin-1: a lone 0xE9 is "é", 0xA0 a no-break space.
  bool stray = false;
  if (!decode(t, i, cp, len)) {
    unsigned char b = static_cast<unsigned char>(t[i]);
    if (b < 0x80 || (b <= 0x9F && !kCp1252[b - 0x80].cp)) return g;  // undefined there: a letter of one byte
    cp = b;
    len = 1;
    stray = b >= 0xA0;
    if (stray) g.windows1252 = latin1_utf8(b);
  }
  g.len = static_cast<std::uint8_t>(len);
  if (cp >= 0x80 && cp <= 0x9F && kCp1252[cp - 0x80].cp) {
    const Cp1252& w = kCp1252[cp - 0x80];
    cp = w.cp;
    g.windows1252 = w.utf8;
    if (!w.letter.empty()) {
      g.fold = w.letter;
      return g;
    }
  }
  using C = Glyph::Class;
  auto as = [&](C c, char p = 0) {
    g.cls = c;
    g.punct = p;
    return g;
  };
  // What renders as nothing, in ranges: the bidirectional embeddings, overrides and isolates
  // (U+202A-202E, U+2066-2069), the deprecated format characters (U+206A-206F), every variation
  // selector (U+FE00-FE0F, U+E0100-E01EF) and the tag characters (U+E0000-E007F).
  if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x206F) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
      (cp >= 0xE0000 && cp <= 0xE007F) || (cp >= 0xE0100 && cp <= 0xE01EF))
    return as(C::invisible);
  switch (cp) {
    // No-break, figure, thin, narrow and other fixed-width spaces; line and paragraph separators.
    case 0x00A0: case 0x1680: case 0x2000: case 0x2001: case 0x2002: case 0x2003: case 0x2004: case 0x2005:
    case 0x2006: case 0x2007: case 0x2008: case 0x2009: case 0x200A: case 0x2028: case 0x2029: case 0x202F:
    case 0x205F: case 0x3000:
      return as(C::space);
    // Zero-width space, non-joiner, joiner, word joiner, invisible operators, BOM, soft hyphen,
    // direction marks, emoji variation selectors ("✔️" is "✔").
    case 0x00AD: case 0x180E: case 0x200B: case 0x200C: case 0x200D: case 0x2060: case 0x2061: case 0x2062:
    case 0x2063: case 0x2064: case 0xFEFF: case 0x200E: case 0x200F:
    // The combining grapheme joiner, the Arabic letter mark, the Hangul and Khmer fillers.
    case 0x034F: case 0x061C: case 0x115F: case 0x1160: case 0x3164: case 0xFFA0: case 0x17B4: case 0x17B5:
      return as(C::invisible);
    // Hyphens: joined to words on both sides they join them ("bank‐conflict"); the en dash too.
    case 0x2010: case 0x2011: case 0x2012: case 0x2212: case 0xFE63: case 0xFF0D: case 0x2043:
      return as(C::hyphen);
    case 0x2013:
      return as(C::dash, '-');  // a hyphen when glued between words, else a dash (the tokeniser decides)
    case 0x2014: case 0x2015: case 0x2E3A: case 0x2E3B: case 0xFE58:
      return as(C::dash);
    case 0x2018: case 0x2019: case 0x201B: case 0x02BC: case 0xFF07: case 0x2032:
      return as(C::apostrophe);
    case 0x201A: case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x00AB: case 0x00BB: case 0x2039: case 0x203A:
    case 0xFF02: case 0x2033: case 0x300C: case 0x300D:
      return as(C::quote);
    case 0x2026:
      return as(C::ellipsis);
    // Bullets and middle dots carry no words.
    case 0x2022: case 0x2023: case 0x25CF: case 0x25E6: case 0x25AA: case 0x00B7: case 0x2219: case 0x2027:
      return as(C::quote);
    case 0x3002: case 0xFF61: return as(C::punct, '.');
    // Question and exclamation marks of Unicode end a sentence as '?' and '!' do ("Is it X‽").
    case 0x203D: case 0x2047: case 0x2048: case 0x2049: case 0x2753: case 0x2754: case 0xFE56: case 0x061F:
      return as(C::punct, '?');
    case 0x203C: case 0x2755: case 0x2757: case 0xFE57: return as(C::punct, '!');
    // Inverted marks open a question or an exclamation ("¿Is it X?"): no word.
    case 0x00BF: case 0x00A1: return as(C::symbol);
    case 0x3001: case 0xFF64: return as(C::punct, ',');
    case 0x2044: case 0x2215: return as(C::punct, '/');
    case 0xFB00: g.fold = "ff"; return g;
    case 0xFB01: g.fold = "fi"; return g;
    case 0xFB02: g.fold = "fl"; return g;
    case 0xFB03: g.fold = "ffi"; return g;
    case 0xFB04: g.fold = "ffl"; return g;
    case 0xFB05: case 0xFB06: g.fold = "st"; return g;
    case 0x00D7: case 0x2715: case 0x2A09: case 0x2A2F: g.fold = "x"; return g;  // "3.1× faster", "3.1✕", "3.1⨉" read as "3.1x"
    case 0x00B5: g.fold = "\xce\xbc"; return g;  // micro sign → Greek mu
    default: break;
  }
  // Greek and Cyrillic letters that look like Latin ones ("nοt" with a Greek omicron reads "not"):
  // the text layer reads English, and a lookalike is how a submission would hide a negation or a
  // word from it. Mu, lambda and the other letters of units and formulas stay themselves.
  static const std::unordered_map<char32_t, const char*> kLookalikes = {
      {0x03BF, "o"}, {0x039F, "o"}, {0x03B1, "a"}, {0x0391, "a"}, {0x03B5, "e"}, {0x0395, "e"}, {0x03B9, "i"},
      {0x0399, "i"}, {0x03BA, "k"}, {0x039A, "k"}, {0x03BD, "v"}, {0x039D, "n"}, {0x03C1, "p"}, {0x03A1, "p"},
      {0x03C4, "t"}, {0x03A4, "t"}, {0x03C5, "u"}, {0x03A5, "y"}, {0x03C7, "x"}, {0x03A7, "x"}, {0x0392, "b"},
      {0x0396, "z"}, {0x0397, "h"}, {0x039C, "m"},
      {0x0430, "a"}, {0x0410, "a"}, {0x0435, "e"}, {0x0415, "e"}, {0x043E, "o"}, {0x041E, "o"}, {0x0440, "p"},
      {0x0420, "p"}, {0x0441, "c"}, {0x0421, "c"}, {0x0443, "y"}, {0x0423, "y"}, {0x0445, "x"}, {0x0425, "x"},
      {0x0456, "i"}, {0x0406, "i"}, {0x0458, "j"}, {0x0408, "j"}, {0x0455, "s"}, {0x0405, "s"}, {0x0412, "b"},
      {0x041D, "h"}, {0x041A, "k"}, {0x043A, "k"}, {0x041C, "m"}, {0x0422, "t"}, {0x04BB, "h"}, {0x0501, "d"}};
  if (auto it = kLookalikes.find(static_cast<char32_t>(cp)); it != kLookalikes.end()) {
    g.fold = it->second;
    return g;
  }
  // Fullwidth ASCII (U+FF01..U+FF5E): letters and digits read as ASCII, punctuation as its ASCII self.
  if (cp >= 0xFF01 && cp <= 0xFF5E) {
    char a = static_cast<char>(cp - 0xFEE0);
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if ((a >= 'a' && a <= 'z')) g.fold = kAsciiLower.substr(static_cast<std::size_t>(a - 'a'), 1);
    else if (a >= '0' && a <= '9') g.fold = kAsciiLower.substr(26 + static_cast<std::size_t>(a - '0'), 1);
    else if (a == '_') g.fold = "_";
    else return as(C::punct, a);
    return g;
  }
  // Mathematical signs and arrows ("≈1.6×", "≤5 ms", "10 ms→4 ms", "2.3±0.1"): not letters, so a
  // number glued to one is still a number. "×" is the letter x above.
  if (cp == 0x00B1 || cp == 0x00F7 || cp == 0x00AC || (cp >= 0x2190 && cp <= 0x22FF) || (cp >= 0x27F0 && cp <= 0x27FF) ||
      (cp >= 0x2A00 && cp <= 0x2AFF))
    return as(C::symbol);
  if (cp >= 0x00C0 && cp <= 0x00DE && cp != 0x00D7) g.fold = kLatin1Lower[cp - 0x00C0];
  else if (stray && g.fold.empty()) g.fold = g.windows1252;  // "caf\xe9" reads "café"
  return g;
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace rubric::text
