#pragma once
// Text that did not come from the tool (a submission's files and names, a candidate program's
// output, values interpolated into titles and messages) as every report format shows it: one line,
// printable, bounded. A report line therefore always starts with the tool's own text; a submission
// can neither begin a line (no `[PASS] …` or `verdict: PASS` of its own), move the cursor, colour
// the terminal, nor make an XML or Markdown document ill-formed.
#include <cstddef>
#include <string>
#include <string_view>

namespace rubric::report {

// Bytes of shown text kept per string; what is cut is counted in a note.
constexpr std::size_t kDisplayLimit = 2000;

// `raw` made safe to show:
//   \n \r \t and other C0 controls, DEL   → \n \r \t \x1b \x00 \x7f
//   C1 controls (U+0080–U+009F)           → \u{9b}
//   line/paragraph separators, bidi controls, BOM, noncharacters (U+FFFE, U+FFFF, U+FDD0…)
//                                         → \u{2028} \u{202e} \u{feff} \u{fffe}
//   each byte of invalid UTF-8 (overlong forms, encoded surrogates, stray bytes) → \xff
// Everything else passes through, backslashes included, so text the interpreter already quoted
// ("a\nb") reads the same. Past `limit` bytes the text is cut at a character boundary and ends with
// "… (N more bytes not shown)", N counting the bytes of `raw` left out.
std::string display_text(std::string_view raw, std::size_t limit = kDisplayLimit);

// True when display_text would return `raw` unchanged (nothing to escape, within the limit).
bool is_display_safe(std::string_view raw, std::size_t limit = kDisplayLimit);

}  // namespace rubric::report
