#pragma once
// The parts of a Markdown answer a grader points at: the section under a heading ("## Root
// cause") and a labelled line ("Root cause: the draft head degraded"). Each is a slice of the text
// itself, heading or label included, so the prose operators read it with every rule intact
// ("Ruled out: X" still denies X, a list under "## Possible causes" is still candidates). Headings
// and labels match by the words' inflection keys, case folded and emphasis ignored. Fenced code
// blocks hold neither. One pass, linear in the text.
#include <optional>
#include <string_view>

namespace rubric::text {

// The first heading whose words contain `heading`'s, ATX ("#" to "######") or Setext (a line
// underlined with "===" for level 1 or "---" for level 2), from its line to the next heading of the
// same or a higher level, or the end. nullopt when none.
std::optional<std::string_view> section_of(std::string_view text, std::string_view heading);

// The first line (or list item) that opens with `label` and a colon ("Root cause:", "- **Root
// cause**: ...", "**Fix:** ..."), from the label to the end of the line; when nothing follows the
// colon, to the end of its block (a blank line or a heading). nullopt when none.
std::optional<std::string_view> labelled_line(std::string_view text, std::string_view label);

}  // namespace rubric::text
