// The section under a heading and a labelled line, as slices of the answer that keep their rules.
#include <doctest/doctest.h>

#include "operators/text/concept.hpp"
#include "operators/text/sections.hpp"
#include "tests/text/polarity_cases.hpp"

using namespace rubric::text;
using rubric::text::cases::pol;

namespace {
const char* const kAnswer =
    "# Report\n\nThe run was slow.\n\n## Root causes\n\nThe draft head degraded.\n\n### Details\n\nSee the profile.\n\n"
    "## Fix\n\nRuled out: the prefix cache.\n- **Root cause**: bank conflicts in the epilogue\n```\nRoot cause: not code\n```\n"
    "Possible causes:\n- register spills\n- occupancy\n\nDone.\n";
}  // namespace

TEST_CASE("a heading's section runs to the next heading of its level or higher, subsections included") {
  auto s = section_of(kAnswer, "root cause");  // "Root causes": by inflection key
  REQUIRE(s);
  CHECK(*s == "## Root causes\n\nThe draft head degraded.\n\n### Details\n\nSee the profile.");
  REQUIRE(section_of(kAnswer, "report"));
  CHECK(section_of(kAnswer, "report")->size() == std::string_view(kAnswer).size() - 1);  // the whole, to the end
  CHECK_FALSE(section_of(kAnswer, "conclusion"));
  CHECK_FALSE(section_of("```\n# Root cause\n```\n", "root cause"));  // code holds no heading
}

TEST_CASE("a line opening with an HTML heading tag is a heading of its level") {
  const char* t = "<h1>Report</h1>\n<p>Slow.</p>\n<h2>Fix</h2>\n<p>Pad the tile.</p>\n<h2>Numbers</h2>\n<p>2x.</p>\n";
  REQUIRE(section_of(t, "fix"));
  CHECK(*section_of(t, "fix") == "<h2>Fix</h2>\n<p>Pad the tile.</p>");
  CHECK(pol(*section_of(t, "fix"), "tile") == "affirmed");
  CHECK_FALSE(section_of("<p>Fix the tile.</p>\n", "fix"));
}

TEST_CASE("a Setext heading, underlined with '===' or '---', is a heading of level 1 or 2") {
  const char* t =
      "Summary\n=======\n\nIt is 2.1x faster.\n\nRoot Cause Analysis\n-------------------\n\nBank conflicts.\n\n"
      "### Details\n\nStride 32.\n\nFix\n---\n\nPad the tile.\n";
  auto rc = section_of(t, "root cause");
  REQUIRE(rc);
  CHECK(*rc == "Root Cause Analysis\n-------------------\n\nBank conflicts.\n\n### Details\n\nStride 32.");
  REQUIRE(section_of(t, "summary"));
  CHECK(section_of(t, "summary")->size() == std::string_view(t).size() - 1);  // level 1: to the end
  REQUIRE(section_of(t, "fix"));
  CHECK(*section_of(t, "fix") == "Fix\n---\n\nPad the tile.");
  // A rule after a blank line, a list item or a table row underlines nothing.
  CHECK_FALSE(section_of("Cause\n\n---\n\nText.\n", "cause"));
  CHECK_FALSE(section_of("- cause\n---\n", "cause"));
  CHECK_FALSE(section_of("```\nCause\n```\n---\n", "cause"));
}

TEST_CASE("a labelled line keeps its label, so its rules still apply") {
  auto rc = labelled_line(kAnswer, "Root cause");
  REQUIRE(rc);
  CHECK(*rc == "**Root cause**: bank conflicts in the epilogue");
  CHECK(pol(*rc, "bank conflict") == "affirmed");
  auto out = labelled_line(kAnswer, "ruled out");
  REQUIRE(out);
  CHECK(pol(*out, "prefix cache") == "negated");
  CHECK(pol("Not the cause: the prefix cache, register spills.", "register spill") == "negated");
  CHECK(pol("It is not the cache: the scheduler is.", "scheduler") == "affirmed");
  CHECK(pol("Root cause: the prefix cache.", "prefix cache") == "affirmed");
  // Nothing after the colon: the block under it, still candidates.
  auto possible = labelled_line(kAnswer, "possible causes");
  REQUIRE(possible);
  CHECK(*possible == "Possible causes:\n- register spills\n- occupancy");
  CHECK(pol(*possible, "register spill") == "hedged");
  CHECK_FALSE(labelled_line(kAnswer, "root"));  // the whole label, not part of it
  CHECK_FALSE(labelled_line("Note: the root cause: X", "root cause"));
  REQUIRE(labelled_line("1. **Fix:** pad the tile", "fix"));
  CHECK(*labelled_line("1. **Fix:** pad the tile", "fix") == "**Fix:** pad the tile");
}

TEST_CASE("a label that denies denies the items of the list under it; its block may follow a blank line") {
  // The block after blank lines, up to the blank line after it, or on through a loose list.
  auto s3 = labelled_line("Ruled out:\n\n- the prefix cache\n- bank conflicts\n\nThe fix is padding.\n", "ruled out");
  REQUIRE(s3);
  CHECK(*s3 == "Ruled out:\n\n- the prefix cache\n- bank conflicts");
  auto loose = labelled_line("Ruled out:\n\n- the prefix cache\n\n- bank conflicts\n\n  as measured\n\nDone.", "ruled out");
  REQUIRE(loose);
  CHECK(*loose == "Ruled out:\n\n- the prefix cache\n\n- bank conflicts\n\n  as measured");
  auto para = labelled_line("Fix:\n\nPad the tile.\n\nThe end.", "fix");
  REQUIRE(para);
  CHECK(*para == "Fix:\n\nPad the tile.");
  CHECK(*labelled_line("Fix:\n\n## Next\n\nPad.", "fix") == "Fix:");
  // Items under "Ruled out:", "Not the cause:", "Excluded:", "Non-causes:" are denied, blank line or not.
  for (std::string label : {"Ruled out:", "Not the cause:", "Excluded:", "Non-causes:", "We ruled out:"}) {
    CAPTURE(label);
    CHECK(pol(label + "\n- the prefix cache\n- bank conflicts", "prefix cache") == "negated");
    CHECK(pol(label + "\n\n- the prefix cache\n- bank conflicts", "bank conflict") == "negated");
    CHECK(pol(*labelled_line(label + "\n\n- the prefix cache\n- bank conflicts", label.substr(0, label.size() - 1)),
              "bank conflict") == "negated");
  }
  // Only the item's first clause, and not an item with a label of its own, nor text after the list.
  CHECK(pol("Ruled out:\n- bank conflicts (padding fixed them)", "padding") == "affirmed");
  CHECK(pol("Ruled out:\n- bank conflicts, because padding fixed them", "padding") == "affirmed");
  CHECK(pol("- Ruled out:\n  - the prefix cache\n- Root cause: bank conflicts", "bank conflict") == "affirmed");
  CHECK(pol("Ruled out:\n- the prefix cache\n\nBank conflicts cause the stall.", "bank conflict") == "affirmed");
  // Other labels deny nothing.
  CHECK(pol("We checked:\n- the prefix cache", "prefix cache") == "affirmed");
  CHECK(pol("Root cause:\n- bank conflicts", "bank conflict") == "affirmed");
  CHECK(pol("Possible causes:\n- bank conflicts", "bank conflict") == "hedged");
}

TEST_CASE("a heading or a label a reader does not see is none: comments, hidden elements, link definitions") {
  const char* commented = "<!--\n## Root cause\n\nThe sink blocks are evicted.\n\nFix: pin the sinks.\n-->\n## Diagnosis\n\n"
                          "The root cause is the prefix cache.\n\nFix: raise the batch size.\n";
  CHECK_FALSE(section_of(commented, "root cause"));
  REQUIRE(labelled_line(commented, "fix"));
  CHECK(*labelled_line(commented, "fix") == "Fix: raise the batch size.");
  CHECK_FALSE(section_of("<div hidden>\n\n## Root cause\n\nX.\n\n</div>\n", "root cause"));
  CHECK_FALSE(labelled_line("[Fix]: # (pin the sinks)\n", "fix"));
  // A comment inside a section does not end it with a heading of its own.
  const char* todo = "## Root cause\n\nThe sinks are evicted.\n<!--\n# TODO\n-->\nThey hold the attention mass.\n\n## Fix\n\nPin.\n";
  REQUIRE(section_of(todo, "root cause"));
  CHECK(section_of(todo, "root cause")->find("They hold the attention mass.") != std::string_view::npos);
}
