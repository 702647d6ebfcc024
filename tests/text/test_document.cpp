// Sentences and tokens: Markdown read as a reader sees it, code kept apart, stems and hyphens.
#include <doctest/doctest.h>

#include "operators/text/claims.hpp"
#include "operators/text/concept.hpp"
#include "operators/text/document.hpp"
#include "polarity_cases.hpp"

using namespace rubric::text;

using rubric::text::cases::sentences;

namespace {
Polarity pol(std::string_view text, std::string_view phrase) {
  Stemmer st;
  return analyse(text, {make_phrase(phrase, st)}, st)[0].polarity;
}
// Each claim of the text as "text|unit" and its value.
using ClaimValues = std::vector<std::pair<std::string, double>>;
ClaimValues claim_values(std::string_view t) {
  Stemmer st;
  ClaimValues out;
  for (const auto& c : find_claims(t, st, 100, nullptr)) out.emplace_back(c.text + "|" + c.unit, c.value);
  return out;
}
}  // namespace

TEST_CASE("sentences: punctuation, abbreviations, numbers, Markdown blocks") {
  CHECK(sentences("It is 3.5 ms. The cache, e.g. the prefix cache, is fine! Why?") ==
        std::vector<std::string>{"It is 3.5 ms.", "The cache, e.g. the prefix cache, is fine!", "Why?"});
  CHECK(sentences("# Cause\n- bank conflicts\n- no spills\n\nSecond\nline.") ==
        std::vector<std::string>{"Cause", "bank conflicts", "no spills", "Second line."});
  CHECK(sentences("| a | b |\n|---|---|\n| x | y |").size() == 3);
}

TEST_CASE("a fenced block is not prose; an inline span's identifiers are words of its sentence") {
  std::string t = "We use `bank_conflict` here.\n```cuda\n__shared__ float bank_conflict[32];\n```\nDone.";
  CHECK(code_of(t) == "bank_conflict\n__shared__ float bank_conflict[32];");
  CHECK(pol(t, "bank conflict") == Polarity::affirmed);
  CHECK(pol("We never use `bank_conflict` here.", "bank conflict") == Polarity::negated);
  std::string fenced = "Done.\n```cuda\n__shared__ float bank_conflict[32];\n```\n";
  CHECK(pol(fenced, "bank conflict") == Polarity::absent);
  CHECK(pol(fenced, "bank_conflict") == Polarity::absent);
}

TEST_CASE("matching folds case, hyphens, white space, emphasis, links and inflection") {
  CHECK(pol("The threads of a warp **collide** on one\nBANK.", "collides on one bank") == Polarity::affirmed);
  CHECK(pol("It re-runs pre-fill for the evicted blocks.", "prefill") == Polarity::affirmed);
  CHECK(pol("It re-runs prefill for the evicted blocks.", "pre-fill") == Polarity::affirmed);
  CHECK(pol("Classic bank-conflicts.", "bank conflict") == Polarity::affirmed);
  CHECK(pol("See [the prefix cache](https://x.org/bank-conflict).", "prefix caching") == Polarity::affirmed);
  CHECK(pol("See [the docs](https://x.org/bank-conflict).", "bank conflict") == Polarity::absent);
  CHECK(pol("Evicting blocks.", "evicted block") == Polarity::affirmed);
  CHECK(pol("the bankconflict", "bank conflict") == Polarity::absent);
}

TEST_CASE("Unicode spaces, hyphens, apostrophes and compatibility forms read as their ASCII selves") {
  // No-break, narrow no-break and figure spaces are spaces.
  CHECK(pol("The kernel has bank\xc2\xa0" "conflicts.", "bank conflict") == Polarity::affirmed);
  CHECK(pol("The kernel has bank\xe2\x80\xaf" "conflicts.", "bank conflict") == Polarity::affirmed);
  CHECK(pol("The kernel has bank\xe2\x80\x87" "conflicts.", "bank conflict") == Polarity::affirmed);
  // Unicode hyphens join words as '-' does; an en dash glued between words too.
  for (const char* h : {"\xe2\x80\x90", "\xe2\x80\x91", "\xe2\x80\x92", "\xe2\x80\x93"})
    CHECK(pol(std::string("a conflict") + h + "free layout", "conflict-free layout") == Polarity::affirmed);
  // Zero-width characters, soft hyphens and a byte-order mark vanish.
  for (const char* z : {"\xe2\x80\x8b", "\xe2\x80\x8c", "\xe2\x80\x8d", "\xe2\x81\xa0", "\xc2\xad", "\xef\xbb\xbf"})
    CHECK(pol(std::string("bank con") + z + "flicts stall the warp.", "bank conflict") == Polarity::affirmed);
  CHECK(sentences("\xef\xbb\xbf# Cause\nbank conflicts").size() == 2);
  // A curly apostrophe is an apostrophe: "don’t" negates.
  CHECK(pol("We don\xe2\x80\x99t see bank conflicts.", "bank conflict") == Polarity::negated);
  CHECK(pol("It isn\xca\xbct the prefix cache.", "prefix cache") == Polarity::negated);
  // Fullwidth letters and ligatures read as ASCII; Latin-1 capitals fold to small letters.
  CHECK(pol("\xef\xbc\xa2\xef\xbc\xa1\xef\xbc\xae\xef\xbc\xab conflicts stall it.", "bank conflict") == Polarity::affirmed);
  CHECK(pol("The \xef\xac\x81x works.", "fix") == Polarity::affirmed);
  CHECK(pol("\xc3\x89VICTION is slow.", "\xc3\xa9viction") == Polarity::affirmed);
  // An em dash ends a clause; an ideographic full stop ends a sentence.
  CHECK(sentences("One\xe3\x80\x82Two.").size() == 2);
  // A bullet starts a list item.
  CHECK(sentences("Causes:\n\xe2\x80\xa2 bank conflicts\n\xe2\x80\xa2 spills").size() == 3);
}

TEST_CASE("text written on Windows: Windows-1252 bytes and C1 controls read as their characters") {
  // Bytes that are not UTF-8: 0x92 is the apostrophe, 0x93/0x94 the quotes, 0x96/0x97 the dashes.
  CHECK(pol("The kernel doesn\x92t spill.", "spill") == Polarity::negated);
  CHECK(pol("It isn\x92t the prefix cache.", "prefix cache") == Polarity::negated);
  CHECK(pol("The cause is bank conflicts \x97 not the prefix cache.", "prefix cache") == Polarity::negated);
  CHECK(pol("The cause is bank conflicts \x97 not the prefix cache.", "bank conflict") == Polarity::affirmed);
  CHECK(pol("\x93We fear nothing,\x94 said the lady.", "lady") == Polarity::affirmed);
  CHECK(pol("a conflict\x96" "free layout", "conflict-free layout") == Polarity::affirmed);
  // The same text decoded as Latin-1: C1 controls encoded in UTF-8 (U+0092, U+0097).
  CHECK(pol("The kernel doesn\xc2\x92t spill.", "spill") == Polarity::negated);
  CHECK(pol("The cause is bank conflicts \xc2\x97 not the prefix cache.", "prefix cache") == Polarity::negated);
  // Evidence quotes the characters, as UTF-8; a lone byte of another kind stays a letter.
  CHECK(quote("doesn\x92t \x93spill\x94", 0, 20) == "doesn\xe2\x80\x99t \xe2\x80\x9cspill\xe2\x80\x9d");
  CHECK(quote("doesn\xc2\x92t", 0, 20) == "doesn\xe2\x80\x99t");
  CHECK(pol("The kernel doesn\x81t spill.", "spill") == Polarity::affirmed);  // 0x81: undefined in Windows-1252
  // Above 0x9F a lone byte is the Latin-1 letter or sign: "caf\xe9" is "café", 0xA0 a no-break space.
  CHECK(pol("No caf\xe9 here.", "caf\xc3\xa9") == Polarity::negated);
  CHECK(pol("The kernel has bank\xa0" "conflicts.", "bank conflict") == Polarity::affirmed);
  CHECK(quote("caf\xe9 \xabnot\xbb", 0, 20) == "caf\xc3\xa9 \xc2\xabnot\xc2\xbb");
  // Valid UTF-8 is read as UTF-8: its continuation bytes are no Windows-1252 characters.
  CHECK(quote("don\xe2\x80\x99t \xc3\xa9", 0, 20) == "don\xe2\x80\x99t \xc3\xa9");
}

TEST_CASE("quotes never cut a UTF-8 character") {
  std::string t;
  for (int i = 0; i < 200; ++i) t += "\xe4\xb8\xad";  // 600 bytes of CJK
  for (std::size_t max : {10, 11, 12, 13, 100, 241}) {
    std::string q = quote(t, 0, t.size(), max);
    CHECK(q.size() <= max + 3);
    CHECK((q.size() - 3) % 3 == 0);  // whole characters, then "..."
  }
  // A quote that starts or ends inside a character keeps the bytes it was given, whole characters.
  CHECK(quote("a\xc2\xa0" "b", 0, 4) == "a b");
}

TEST_CASE("quotes drop emphasis markers and HTML comments, keep arithmetic and identifiers") {
  CHECK(quote("It was *not* caused", 0, 19) == "It was not caused");
  CHECK(quote("It was _not_ caused", 0, 19) == "It was not caused");
  std::string t = "It was *not* caused";
  CHECK(quote(t, 0, 8) == "It was");  // the piece before a marked trigger
  CHECK(quote(t, 11, t.size()) == "caused");
  CHECK(quote("2 * 3 and a*b and snake_case", 0, 28) == "2 * 3 and a*b and snake_case");
  CHECK(quote("The cause is <!-- not --> bank conflicts.", 0, 41) == "The cause is bank conflicts.");
  // Emphasis next to punctuation: "a classic *bank-conflict*." and "(*not* the cache)".
  CHECK(quote("a classic *bank-conflict*.", 0, 26) == "a classic bank-conflict.");
  CHECK(quote("(*not* the cache), _really_!", 0, 28) == "(not the cache), really!");
  CHECK(quote("x*y, 2*3.", 0, 9) == "x*y, 2*3.");
}

TEST_CASE("HTML comments and struck text are not prose; bare contractions and lookalike letters fold") {
  auto words = [](std::string_view t) {
    Stemmer st;
    SentenceStream s(t, st);
    Sentence x;
    std::string out;
    while (s.next(x))
      for (const Token& k : x.tokens) out += (out.empty() ? "" : " ") + k.lower;
    return out;
  };
  CHECK(words("A <!-- hidden words --> B.") == "a b .");
  CHECK(words("<!-- unclosed\nB.") == "");
  CHECK(words("A ~~struck out~~ B.") == "a b .");
  CHECK(words("A <del>struck</del> B <S>out</S> C <strike>too</strike>.") == "a b c .");
  CHECK(words("A <del>never closed B.") == "a never closed b .");  // an unclosed tag strikes nothing; the tag is markup
  CHECK(words("It isnt. It cant.") == "it is n't . it ca n't .");
  CHECK(words("n\xce\xbft") == "not");  // Greek omicron
}

TEST_CASE("HTML in an answer reads as the rendered page: tags are markup, hidden elements are dropped") {
  Stemmer st;
  auto words = [&](std::string_view text) {
    SentenceStream s(text, st);
    Sentence x;
    std::string out;
    while (s.next(x)) {
      for (const Token& k : x.tokens) out += (out.empty() ? "" : " ") + k.lower;
      out += " |";
    }
    return out;
  };
  // Tag names and attribute values are never words; a block tag ends the sentence.
  CHECK(words("<p class=\"no-bug\">The copy stalls</p><p>The kernel is fine</p>") == "the copy stalls | the kernel is fine |");
  CHECK(words("Bank <b>conflicts</b> dominate.") == "bank conflicts dominate . |");
  // What a browser never shows is no part of the answer.
  CHECK(words("<div style=\"display: none\">The cause is the NIC.</div>Fine.") == "fine . |");
  CHECK(words("<span hidden>The cause is the NIC.</span> Fine.") == "fine . |");
  CHECK(words("<p style='font-size:0'>The cause is the NIC.</p>Fine.") == "fine . |");
  CHECK(words("<script>grade('PASS')</script>Fine.") == "fine . |");
  CHECK(words("<div hidden><div>nested</div>still hidden</div>Fine.") == "fine . |");
  CHECK(words("<div style=\"display:none\">never closed, so the rest is hidden too.") == "");
  // However the style is written: a zero in any form, a comment or a character reference inside it,
  // a transparent colour, text moved off the screen.
  CHECK(words("<span style=\"opacity:0.0\">hidden</span>Fine.") == "fine . |");
  // White type on the white page, with no background of its own.
  CHECK(words("<span style=\"color:white\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"color: #FFF\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<font color=\"#ffffff\">hidden</font>Fine.") == "fine . |");
  CHECK(words("<span style=\"color:white;background:black\">shown</span>") == "shown |");
  CHECK(words("<span style=\"background-color:white\">shown</span>") == "shown |");
  CHECK(words("<span style=\"color:silver\">shown</span>") == "shown |");
  CHECK(words("<span style=\"color: rgba(255,255,255,1)\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"color:hsl(0,0%,100%)\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"color:#fefefe\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"color:#ffffffff\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"color:#888\">shown</span>") == "shown |");
  CHECK(words("<span style=\"color:white !important\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"font-size: 0.0em\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"display:/**/none\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"display&#58;none\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"color:transparent\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<div style=\"position:absolute;left:-9999px\">hidden</div>Fine.") == "fine . |");
  CHECK(words("<noembed>hidden</noembed>Fine.") == "fine . |");
  CHECK(words("<span style=\"opacity:0.5\">shown</span>") == "shown |");
  CHECK(words("<span style=\"font-size:0.1px\">hidden</span>Fine.") == "fine . |");
  CHECK(words("<span style=\"font-size:12px\">shown</span>") == "shown |");
  // A class the text's own style sheet hides.
  CHECK(words("<style>.n { display: none }</style><span class=\"n\">The NIC is the cause.</span> Fine.") == "fine . |");
  CHECK(words("<style>span.x, .y{font-size:0}</style><p class=\"a y\">hidden</p><p class=\"a\">Shown.</p>") == "shown . |");
  CHECK(words("<style>.n{color:red}</style><span class=\"n\">Shown.</span>") == "shown . |");
  // An image's alt text is shown only when the image is not.
  CHECK(words("![The cause is the NIC](x.png) Fine.") == "fine . |");
  // Markdown that renders as nothing: a link reference definition, an empty comment.
  CHECK(words("[//]: # (The cause is the NIC.)\nFine.") == "fine . |");
  CHECK(words("A <!--> B.") == "a b . |");
  CHECK(words("A ~~ not struck ~~ B.") == "a not struck b . |");
  // Shown: aria-hidden (read aloud no, shown yes), opacity 0.5, and what only looks like a tag.
  CHECK(words("<span aria-hidden=\"true\">shown</span> <span style=\"opacity:0.5\">too</span>") == "shown too |");
  CHECK(words("If a < b then vector<int> holds <your name>.") == "if a < b then vector < int > holds < your name > . |");
  // Headings and items: "<h2>Ruled out</h2>" denies the items under it, as "## Ruled out" does.
  CHECK(rubric::text::cases::pol("<h2>Ruled out</h2><ul><li>the NIC</li><li>the switch</li></ul>", "switch") == "negated");
}

TEST_CASE("claims: names, versions, dates, indices and list markers are not quantities") {
  Stemmer st;
  auto texts = [&](std::string_view t) {
    std::vector<std::string> out;
    std::size_t more = 0;
    for (const auto& c : find_claims(t, st, 100, &more)) out.push_back(c.text);
    return out;
  };
  CHECK(texts("We ran Llama-3.1-8B, Qwen2.5-7B and Mixtral-8x7B on vLLM 0.6.3.").empty());
  CHECK(texts("CUDA 12.4, Python 3.11, GCC 12 and Ubuntu 22.04 on an H100 (sm_90) with x86-64 and top-5.").empty());
  CHECK(texts("On 2024-05-01, on May 3, 2024 and in 2024 at 10:30 with 2:4 sparsity.").empty());
  CHECK(texts("See \xc2\xa7" "3.2, Section 4.1, Table 2, step 3, issue 42, PR #1234 and version 1.2.3.").empty());
  CHECK(texts("1. The fix is 3.1x faster.\n2) It reaches 45 GB/s at `1.2 ms`.") == std::vector<std::string>{"3.1x", "45 GB/s"});
  // A unit after a name's number makes it a quantity: "H100 80 GB" is a size.
  CHECK(texts("The H100 80 GB card is 2x faster; 16k tokens, 87% and 32-way.") ==
        std::vector<std::string>{"80 GB", "2x", "16k tokens", "87%", "32-way"});
  CHECK(texts("The fix is 3.1\xc3\x97 faster.") == std::vector<std::string>{"3.1\xc3\x97"});
  CHECK(texts("About 32 banks serve it.") == std::vector<std::string>{"32"});
}

TEST_CASE("claims: multiplier prefixes, powers, exponents and fractions are one number; model sizes are names") {
  const auto claims = claim_values;
  using V = ClaimValues;
  CHECK(claims("The fix gives x2.3 on the benchmark.") == V{{"x2.3|x", 2.3}});
  CHECK(claims("It is x4 faster now.") == V{{"x4|x", 4.0}});
  CHECK(claims("It runs on x86 and x86-64.").empty());  // an architecture, not a multiplier
  CHECK(claims("We need 10^6 requests.") == V{{"10^6 requests|req", 1e6}});
  CHECK(claims("We need 1e6 requests.") == V{{"1e6 requests|req", 1e6}});
  CHECK(claims("About 2^20 entries.") == V{{"2^20|", 1048576.0}});
  auto third = claims("Only 1/3 of the warps stall.");
  REQUIRE(third.size() == 1);
  CHECK(third[0].first == "1/3|");
  CHECK(third[0].second == doctest::Approx(1.0 / 3));
  CHECK(claims("On 05/01/2024 it ran.").empty());  // a date stays a date
  CHECK(claims("The 70B model and the 8B variant were served.").empty());
  CHECK(claims("It has 70B parameters.") == V{{"70B|", 70e9}});
  CHECK(claims("It reaches 45 GB/s.") == V{{"45 GB/s|GB/s", 45.0}});
}

TEST_CASE("claims: a range's first number takes the unit written after the second") {
  const auto claims = claim_values;
  using V = ClaimValues;
  CHECK(claims("A 2-3x speedup.") == V{{"2-3x|x", 2.0}, {"3x|x", 3.0}});
  CHECK(claims("A 2\xe2\x80\x93" "3x speedup.") == V{{"2\xe2\x80\x93" "3x|x", 2.0}, {"3x|x", 3.0}});
  CHECK(claims("It is 30-40% faster.") == V{{"30-40%|%", 30.0}, {"40%|%", 40.0}});
  CHECK(claims("It is between 2 and 3 times faster.") == V{{"2 and 3 times|x", 2.0}, {"3 times|x", 3.0}});
  CHECK(claims("It rose from 2 to 3x.") == V{{"2 to 3x|x", 2.0}, {"3x|x", 3.0}});
  CHECK(claims("Prefill takes 1-3 ms.") == V{{"1-3 ms|ms", 1.0}, {"3 ms|ms", 3.0}});
  CHECK(claims("A 2x-3x speedup, 10ms-20ms each.") == V{{"2x|x", 2.0}, {"3x|x", 3.0}, {"10ms|ms", 10.0}, {"20ms|ms", 20.0}});
  CHECK(claims("Prompts of 2-4k tokens.") == V{{"2-4k tokens|tok", 2000.0}, {"4k tokens|tok", 4000.0}});
  // Not ranges: two quantities of their own, or a count then a multiplier.
  CHECK(claims("It went from 10 ms to 4 ms.") == V{{"10 ms|ms", 10.0}, {"4 ms|ms", 4.0}});
  CHECK(claims("We scale from 8 to 16 GPUs.") == V{{"8|", 8.0}, {"16|", 16.0}});
}

TEST_CASE("claims: FLOPS in capitals is a rate; versions after tool names and dates without a comma are not claims") {
  Stemmer st;
  auto claims = [&](std::string_view t) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& c : find_claims(t, st, 100, nullptr)) out.emplace_back(c.text, c.unit + "|" + c.noun);
    return out;
  };
  using V = std::vector<std::pair<std::string, std::string>>;
  CHECK(claims("We reach 900 TFLOPS and 450 TFLOP/s.") == V{{"900 TFLOPS", "TFLOP/s|"}, {"450 TFLOP/s", "TFLOP/s|"}});
  CHECK(claims("A step costs 2 TFLOPs.") == V{{"2 TFLOPs", "TFLOP|"}});
  CHECK(claims("With gcc 13.2, clang 17, python 3.11, driver 550.54 and compute capability 9.0.").empty());
  CHECK(claims("Tested on Jan 5 2025 and on March 3 2024.").empty());
  // The word after a bare number is its noun only when it is not a function word.
  CHECK(claims("The loss is 3e-4 and falls.") == V{{"3e-4", "|"}});
  CHECK(claims("About 32 banks serve it.") == V{{"32", "|banks"}});
}

TEST_CASE("claims: a mathematical sign glued to a number does not hide it") {
  const auto claims = claim_values;
  using V = ClaimValues;
  CHECK(claims("It is (\xe2\x89\x88" "1.6\xc3\x97 better).") == V{{"1.6\xc3\x97|x", 1.6}});  // ≈1.6×
  CHECK(claims("Latency \xe2\x89\xa4" "5 ms, throughput \xe2\x89\xa5" "2x.") == V{{"5 ms|ms", 5.0}, {"2x|x", 2.0}});  // ≤ ≥
  CHECK(claims("It went 10 ms\xe2\x86\x92" "4 ms, 2.3\xc2\xb1" "0.1 ms.") ==
        V{{"10 ms|ms", 10.0}, {"4 ms|ms", 4.0}, {"2.3\xc2\xb1" "0.1 ms|ms", 2.3}, {"0.1 ms|ms", 0.1}});  // → ±
}

TEST_CASE("claims: 'N times' is a multiplier only with a comparison, else it counts repetitions") {
  Stemmer st;
  auto claims = [&](std::string_view t) {
    std::vector<std::string> out;
    for (const auto& c : find_claims(t, st, 100, nullptr)) out.push_back(c.text + "|" + c.unit + "|" + c.noun);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(claims("I measured it 10 times and took the median.") == V{"10 times||times"});
  CHECK(claims("We repeat each measurement 5 times.") == V{"5 times||times"});
  CHECK(claims("It is 3 times faster, 2 times the baseline, and grew by 2.1 times.") ==
        V{"3 times|x|", "2 times|x|", "2.1 times|x|"});
  CHECK(claims("It is 3 times as fast and 4 times more efficient.") == V{"3 times|x|", "4 times|x|"});
  CHECK(claims("A speedup of 3 times.") == V{"3 times|x|"});
}

TEST_CASE("claims: a bare number in a table cell takes the unit its column's header names") {
  const auto claims = claim_values;
  using V = ClaimValues;
  CHECK(claims("| Kernel | Time (\xc2\xb5s) | BW [GB/s] | Speedup | Hit rate (%) |\n|---|---|---|---|---|\n"
               "| naive | 120 | 1.2 | 1.0x | 61 |\n| tiled | 45 | 2.9 | 2.67x | 88 |\n") ==
        V{{"120|us", 120.0}, {"1.2|GB/s", 1.2}, {"1.0x|x", 1.0}, {"61|%", 61.0},
          {"45|us", 45.0}, {"2.9|GB/s", 2.9}, {"2.67x|x", 2.67}, {"88|%", 88.0}});
  // Or the unit the row's label names, when the header names none.
  CHECK(claims("| Metric | Before | After |\n|---|---|---|\n| Time (\xc2\xb5s) | 120 | 45 |\n| Bandwidth [TB/s] | 1.1 | 2.9 |\n") ==
        V{{"120|us", 120.0}, {"45|us", 45.0}, {"1.1|TB/s", 1.1}, {"2.9|TB/s", 2.9}});
  // A unit written in the cell wins; a header without one leaves the number bare; prose after the
  // table is not in it.
  CHECK(claims("| Config | Latency (ms) | Batch |\n|---|---|---|\n| a | 900 us | 64 |\n\nIt took 3 more.\n") ==
        V{{"900 us|us", 900.0}, {"64|", 64.0}, {"3|", 3.0}});
}

TEST_CASE("claims: the Unicode minus, bits per second and spelt-out time units") {
  const auto claims = claim_values;
  using V = ClaimValues;
  CHECK(claims("The offset was \xe2\x88\x92" "5 ms.") == V{{"\xe2\x88\x92" "5 ms|ms", -5.0}});
  // "Gb/s" and "Gbps" are bits: a claim in bytes per second (÷ 8); "GB/s" stays bytes.
  CHECK(claims("The link gives 400 Gb/s, 3.2 Gbps and 50 GB/s.") ==
        V{{"400 Gb/s|GB/s", 50.0}, {"3.2 Gbps|GB/s", 0.4}, {"50 GB/s|GB/s", 50.0}});
  CHECK(claims("It took 1.5 hrs, 3 mins, 2 hr and 40 usecs.") ==
        V{{"1.5 hrs|h", 1.5}, {"3 mins|min", 3.0}, {"2 hr|h", 2.0}, {"40 usecs|us", 40.0}});
}
