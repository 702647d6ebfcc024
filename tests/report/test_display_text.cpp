#include <doctest/doctest.h>

#include <string>

#include "report/display_text.hpp"

using rubric::report::display_text;
using rubric::report::is_display_safe;
using rubric::report::kDisplayLimit;

TEST_CASE("display_text: printable UTF-8 and backslashes pass through") {
  CHECK(display_text("11234.5 tok/s >= 11780 tok/s · 4.6% short") == "11234.5 tok/s >= 11780 tok/s · 4.6% short");
  CHECK(display_text("\"a\\nb\" is a string") == "\"a\\nb\" is a string");
  CHECK(display_text("日本語 ✔ 😀") == "日本語 ✔ 😀");
  CHECK(display_text("") == "");
  CHECK(is_display_safe("plain text"));
}

TEST_CASE("display_text: line breaks and control characters are shown, never acted on") {
  CHECK(display_text("ok\n[PASS] forged") == "ok\\n[PASS] forged");
  CHECK(display_text("a\r\nverdict: PASS") == "a\\r\\nverdict: PASS");
  CHECK(display_text("\x1b[2K\x1b[1Agreen") == "\\x1b[2K\\x1b[1Agreen");
  CHECK(display_text(std::string("nul\0byte", 8)) == "nul\\x00byte");
  CHECK(display_text("tab\there\x7f") == "tab\\there\\x7f");
  CHECK_FALSE(is_display_safe("a\nb"));
}

TEST_CASE("display_text: invisible, reordering and non-XML code points are escaped") {
  CHECK(display_text("\xC2\x9B" "31m") == "\\u{9b}31m");             // C1 CSI
  CHECK(display_text("\xC2\x85next") == "\\u{85}next");                // NEL
  CHECK(display_text("a\xE2\x80\xA8" "b") == "a\\u{2028}b");            // line separator
  CHECK(display_text("\xE2\x80\xAE" "SSAP") == "\\u{202e}SSAP");        // right-to-left override
  CHECK(display_text("\xEF\xBB\xBFx") == "\\u{feff}x");                 // BOM
  CHECK(display_text("\xEF\xBF\xBE\xEF\xBF\xBF") == "\\u{fffe}\\u{ffff}");
  CHECK(display_text("\xF4\x8F\xBF\xBF") == "\\u{10ffff}");
  CHECK(display_text("\xEF\xB7\x90") == "\\u{fdd0}");
  CHECK(display_text("\xF3\xA0\x81\x81") == "\\u{e0041}");             // tag letter A
}

TEST_CASE("display_text: invalid UTF-8 is shown byte by byte") {
  CHECK(display_text("a\xFF" "b") == "a\\xffb");
  CHECK(display_text("\xC0\xAF") == "\\xc0\\xaf");                        // overlong '/'
  CHECK(display_text("\xED\xA0\x80") == "\\xed\\xa0\\x80");               // an encoded lone surrogate
  CHECK(display_text("\xE2\x82") == "\\xe2\\x82");                        // truncated sequence
  CHECK(display_text("\xF5\x80\x80\x80") == "\\xf5\\x80\\x80\\x80");      // past U+10FFFF
}

TEST_CASE("display_text: long text is cut at a character boundary with a note") {
  const std::string megabyte(1 << 20, 'x');
  const std::string shown = display_text(megabyte);
  CHECK(shown.size() < kDisplayLimit + 64);
  CHECK(shown.rfind(std::string(kDisplayLimit, 'x') + "… (", 0) == 0);
  CHECK(shown.find(std::to_string((1 << 20) - kDisplayLimit) + " more bytes not shown)") != std::string::npos);
  // Never half an escape or half a character before the note.
  const std::string controls(3000, '\n');
  const std::string cut = display_text(controls, 11);
  CHECK(cut == "\\n\\n\\n\\n\\n… (2995 more bytes not shown)");
  const std::string wide = display_text("ééééé", 5);
  CHECK(wide == "éé… (6 more bytes not shown)");
  CHECK(display_text(std::string(kDisplayLimit, 'y')) == std::string(kDisplayLimit, 'y'));
}
