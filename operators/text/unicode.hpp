#pragma once
// What a non-ASCII character is to a reader of prose, for matching: a space (no-break and thin
// spaces), nothing at all (zero-width spaces and joiners, soft hyphens, byte-order marks), a
// hyphen inside a word (U+2010, U+2011, ...), a dash between clauses, an apostrophe (’ in
// "don’t"), a quote, an ellipsis, punctuation in a compatibility form (fullwidth "，"), or a letter,
// perhaps with an ASCII reading ("ﬁ" → "fi", fullwidth "Ａ" → "a", "É" → "é"). A small table in
// the manner of NFKC for the characters answers are written with; everything else is a letter
// kept as its bytes. Text is read as UTF-8; a byte that is not UTF-8, and a C1 control encoded in
// UTF-8, are the Windows-1252 characters they stand for (text written on Windows); a byte the code
// page leaves undefined is a letter of one byte, never a reason to fail or to cut a character in two.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rubric::text {

struct Glyph {
  enum class Class : std::uint8_t { letter, space, invisible, hyphen, dash, apostrophe, quote, ellipsis, punct, symbol };
  Class cls = Class::letter;
  std::uint8_t len = 1;        // bytes of the character
  char punct = 0;              // Class::punct: the ASCII punctuation it reads as ('.', ',', ';', ...)
                               // Class::symbol: a mathematical sign or an arrow ("≈", "≤", "→", "±"): no letter
  std::string_view fold;       // Class::letter: its lower-case reading when it differs from its bytes
  std::string_view windows1252;  // the character as UTF-8 when its bytes are Windows-1252, not UTF-8
};

// The character starting at t[i] (t[i] >= 0x80).
Glyph glyph_at(std::string_view t, std::size_t i);

// The length of the UTF-8 character starting at t[i] (1 for ASCII and malformed bytes).
std::size_t char_length(std::string_view t, std::size_t i);

// The start of the character containing byte i (i itself when it starts one).
std::size_t char_start(std::string_view t, std::size_t i);

// `s` with its ASCII letters lower-cased and every other byte as it is (tag names, CSS, words
// compared with an ASCII vocabulary).
std::string lower_ascii(std::string_view s);

}  // namespace rubric::text
