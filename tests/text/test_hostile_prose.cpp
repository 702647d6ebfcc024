// Prose written to hide what it says from the rules: a question mark behind an invisible character
// or inside backticks, a question mark of another script, quotation marks of every kind.
#include <doctest/doctest.h>

#include <string>

#include "operators/text/concept.hpp"
#include "polarity_cases.hpp"

using namespace rubric::text;
using rubric::text::cases::pol;
using rubric::text::cases::sentences;

namespace {
// The reason the finding rests on an ambiguous reading, "" when clear.
std::string doubt(std::string_view text, std::string_view phrase) {
  Stemmer st;
  auto f = analyse(text, {make_phrase(phrase, st)}, st)[0];
  return f.ambiguous ? f.ambiguous->ambiguous : "";
}
}  // namespace

TEST_CASE("what a reader does not see after an end mark does not hide it") {
  // Zero-width space, word joiner, soft hyphen, byte-order mark, direction mark, NUL, escape, DEL.
  for (std::string hidden : {std::string("\xe2\x80\x8b"), std::string("\xe2\x81\xa0"), std::string("\xc2\xad"),
                             std::string("\xef\xbb\xbf"), std::string("\xe2\x80\x8e"), std::string(1, '\0'),
                             std::string("\x1b"), std::string("\x7f"), std::string("\xe2\x80\x8b") + std::string(1, '\0')}) {
    CAPTURE(hidden.size());
    CHECK(pol("Is it the prefix cache?" + hidden, "prefix cache") == "hedged");
    CHECK(pol("Is it the prefix cache?" + hidden + " The scheduler is busy.", "scheduler") == "affirmed");
    CHECK(doubt("Is it the prefix cache?" + hidden + "\nThe scheduler is busy.", "prefix cache") == "a question");
    CHECK(pol("Is it the prefix cache?\"" + hidden + ") The scheduler is busy.", "prefix cache") == "hedged");
    // '!' and '.' end their sentence alike: the question after them is its own.
    CHECK(sentences("The cache is cold!" + hidden + " Is it the scheduler?").size() == 2);
    CHECK(sentences("The cache is cold." + hidden + " Is it the scheduler?").size() == 2);
    CHECK(pol("The cache is cold." + hidden + " Is it the scheduler?", "cache") == "affirmed");
    // An answer after the hidden character still answers.
    CHECK(pol("Is it the prefix cache?" + hidden + " No.", "prefix cache") == "negated");
  }
  // Controls vanish inside a word as invisible characters do, and from the evidence's quote.
  CHECK(pol(std::string("There are bank con\0flicts.", 26), "bank conflict") == "affirmed");
  CHECK(sentences(std::string("Is it\0 the cache?", 17)) == std::vector<std::string>{"Is it the cache?"});
}

TEST_CASE("characters that render as nothing do not hide a negation inside a word") {
  // Bidirectional isolates and embeddings, the combining grapheme joiner, variation selectors,
  // tag characters, the Arabic letter mark, Hangul fillers.
  for (std::string hidden : {std::string("\xe2\x81\xa6"), std::string("\xe2\x80\xaa"), std::string("\xcd\x8f"),
                             std::string("\xef\xb8\x80"), std::string("\xf3\xa0\x80\xa0"), std::string("\xd8\x9c"),
                             std::string("\xe3\x85\xa4"), std::string("\xf3\xa0\x84\x80")}) {
    CAPTURE(hidden.size());
    CHECK(pol("Bank conflicts are n" + hidden + "ot the cause.", "bank conflict") == "negated");
    CHECK(pol("Occupancy is too l" + hidden + "ow.", "low") == "affirmed");
  }
}

TEST_CASE("a terminal's escape sequences show nothing: the words around them read as a terminal shows them") {
  // Colour codes (CSI), a window title (OSC, ended by BEL or by ESC backslash), a two-byte escape.
  for (std::string esc : {std::string("\x1b[0m"), std::string("\x1b[31;1m"), std::string("\x1b]0;title\x07"),
                          std::string("\x1b]8;;http://x\x1b\\"), std::string("\x1b" "c")}) {
    CAPTURE(esc.size());
    CHECK(pol("Bank conflicts are " + esc + "not the cause.", "bank conflict") == "negated");
    CHECK(pol("Bank conflicts are n" + esc + "ot the cause.", "bank conflict") == "negated");
    CHECK(pol("The cause is " + esc + "bank conflicts" + esc + ".", "bank conflict") == "affirmed");
    CHECK(sentences("Is it the " + esc + "cache?") == std::vector<std::string>{"Is it the cache?"});
  }
}

TEST_CASE("a colour code whose escape byte was lost reads as the terminal showed it") {
  CHECK(pol("[31mbank conflicts[0m are the cause.", "bank conflicts") == "affirmed");
  CHECK(pol("^[[31mbank conflicts^[[0m are the cause.", "bank conflicts") == "affirmed");
  CHECK(pol("\\033[31mbank conflicts\\033[0m are the cause.", "bank conflicts") == "affirmed");
  CHECK(pol("[1;31mERROR[0m bank conflicts are the cause.", "bank conflicts") == "affirmed");
  CHECK(pol("Bank conflicts are [1mnot[0m the cause.", "bank conflicts") == "negated");
  CHECK(pol("See [1] for bank conflicts.", "bank conflicts") == "affirmed");  // a reference is no colour code
}

TEST_CASE("a word split by markup or written with character references reads as it renders") {
  for (std::string not_ : {std::string("&#110;ot"), std::string("&#x6E;ot"), std::string("n<!-- -->ot"), std::string("n<span></span>ot"),
                           std::string("n<b>o</b>t")}) {
    CAPTURE(not_);
    CHECK(pol("Bank conflicts are " + not_ + " the cause.", "bank conflict") == "negated");
  }
  CHECK(pol("Bank conflicts are&nbsp;not the cause.", "bank conflict") == "negated");
  CHECK(pol("Occupancy is too l&#111;w.", "low") == "affirmed");
  // A reference that would make markup is shown, never read as markup.
  CHECK(pol("The tag &lt;div hidden&gt; holds the NIC.", "NIC") == "affirmed");
  // A hidden element's own closing tag is no glue: what it hides stays hidden.
  CHECK(pol("<span style=\"display:none\">The NIC is the cause</span>Fine.", "NIC") == "absent");
}

TEST_CASE("a question mark inside backticks is the sentence's; a code span ends with its paragraph") {
  CHECK(pol("Is it the prefix cache`?`", "prefix cache") == "hedged");
  CHECK(pol("Is it the prefix cache` ? ` The scheduler is busy.", "scheduler") == "affirmed");
  CHECK(pol("Is it the prefix cache``?``\n\nThe scheduler is busy.", "prefix cache") == "hedged");
  CHECK(pol("Is it the `prefix cache?`\nThe scheduler is busy.", "prefix cache") == "hedged");
  CHECK(pol("Is it the `prefix cache?`\nThe scheduler is busy.", "scheduler") == "affirmed");
  CHECK(pol("Is it `--enable-prefix-caching?`", "enable prefix caching") == "hedged");
  CHECK(pol("It is the prefix cache`.` The scheduler is busy.", "prefix cache") == "affirmed");
  CHECK(sentences("It is the prefix cache`.` Is it?").size() == 2);
  // A '?' inside code that goes on is code: Rust's `?` operator in a sentence states.
  CHECK(pol("We call `read_config()?` in the prefix cache loader.", "prefix cache") == "affirmed");
  CHECK(pol("Is it `the prefix cache`?", "prefix cache") == "hedged");
  // A span never crosses a blank line: the backticks are literal and the '?' ends the question.
  CHECK(pol("Is it the prefix cache ``` the cause?\n\nThe scheduler ``` is fine.", "prefix cache") == "hedged");
  CHECK(pol("Is it the prefix cache ` the cause?\n  \t\nThe scheduler ` is busy.", "prefix cache") == "hedged");
  CHECK(pol("Is it the prefix cache ` the cause?\n\nThe scheduler ` is busy.", "scheduler") == "affirmed");
  // Within a paragraph a span still runs across a line break.
  CHECK(code_of("We set `max_num\nseqs` here.") == "max_num\nseqs");
  CHECK(code_of("We set `max_num\n\nseqs` here.") == "");
  CHECK(code_of("Is it`?`") == "");
}

TEST_CASE("question and exclamation marks of Unicode end a sentence as '?' and '!' do") {
  for (std::string mark : {"\xe2\x80\xbd" /* ‽ */, "\xe2\x81\x87" /* ⁇ */, "\xe2\x81\x88" /* ⁈ */, "\xe2\x81\x89" /* ⁉ */,
                           "\xef\xbc\x9f" /* ？ */, "\xe2\x9d\x93" /* ❓ */, "\xef\xb9\x96" /* ﹖ */}) {
    CAPTURE(mark);
    CHECK(pol("Is it the prefix cache" + mark, "prefix cache") == "hedged");
    CHECK(pol("Is it the prefix cache" + mark + " The scheduler is busy.", "scheduler") == "affirmed");
    CHECK(doubt("Is it the prefix cache" + mark, "prefix cache") == "a question");
    CHECK(pol("Is it the prefix cache" + mark + " No.", "prefix cache") == "negated");
  }
  // "¿...?" and "¡...!": the inverted mark opens and carries no word.
  CHECK(pol("\xc2\xbfIs it the prefix cache?", "prefix cache") == "hedged");
  CHECK(pol("\xc2\xbf" "Prefix cache?", "prefix cache") == "hedged");
  CHECK(pol("\xc2\xa1" "Prefix caches are the cause!", "prefix cache") == "affirmed");
  for (std::string mark : {"\xe2\x80\xbc" /* ‼ */, "\xe2\x9d\x97" /* ❗ */, "\xef\xbc\x81" /* ！ */}) {
    CAPTURE(mark);
    CHECK(sentences("The cache is cold" + mark + " Is it the scheduler?").size() == 2);
    CHECK(pol("The cache is cold" + mark + " Is it the scheduler?", "cache") == "affirmed");
  }
}

TEST_CASE("quotation marks of every kind quote; the phrase alone in them is a quotation when words are spoken of") {
  // Another's words, between straight, typographic, low, fullwidth and corner marks.
  for (auto [open, close] : std::vector<std::pair<std::string, std::string>>{{"\"", "\""},
                                                                             {"\xe2\x80\x9c", "\xe2\x80\x9d"},
                                                                             {"\xe2\x80\x9e", "\xe2\x80\x9f"},
                                                                             {"\xc2\xab", "\xc2\xbb"},
                                                                             {"\xef\xbc\x82", "\xef\xbc\x82"},
                                                                             {"\xe3\x80\x8c", "\xe3\x80\x8d"}}) {
    CAPTURE(open);
    CHECK(doubt("He wrote " + open + "the prefix cache is the cause" + close + " in the log.", "prefix cache") == "a quotation");
    // The quotation closes: what follows it is read plainly.
    CHECK(doubt("He wrote " + open + "nothing" + close + " and the prefix cache is the cause.", "prefix cache") == "");
    // Words spoken of: the phrase alone in quotation marks after a word about words.
    CHECK(doubt("The word " + open + "prefix cache" + close + " appears in the log.", "prefix cache") == "a quotation");
    CHECK(doubt("The profiler prints " + open + "bank conflict" + close + " twice.", "bank conflict") == "a quotation");
  }
  CHECK(doubt("A component called \"prefix cache\" was added.", "prefix cache") == "a quotation");
  CHECK(doubt("The log reads \"prefix cache\".", "prefix cache") == "a quotation");
  // A term set in quotation marks is only named: the "prefix cache" is the cause.
  CHECK(doubt("The \"prefix cache\" is the cause.", "prefix cache") == "");
  CHECK(doubt("It is the \xe2\x80\x9cprefix cache\xe2\x80\x9d that thrashes.", "prefix cache") == "");
  CHECK(pol("The word \"prefix cache\" appears in the log.", "prefix cache") == "affirmed");  // the verdict is kept
}

TEST_CASE("a comma before a clause with its own subject and verb ends a negation's reach") {
  CHECK(pol("It is not slow, prefix caches are not involved.", "prefix cache") == "negated");
  CHECK(pol("We did not profile it, schedulers are busy.", "scheduler") == "affirmed");
  CHECK(pol("The prefix cache is not evicted, the sink blocks are.", "sink block") == "affirmed");
  CHECK(pol("It is not the cache, the scheduler isn't either.", "scheduler") == "negated");
  // A negation that opens the clause still spans its list; a list with no verb after it stays denied.
  CHECK(pol("No fever, chills or cough were reported.", "chills") == "negated");
  CHECK(pol("We saw no stalls, spills or bank conflicts.", "bank conflict") == "negated");
  CHECK(pol("We did not see stalls, spills or bank conflicts in the profile.", "bank conflict") == "negated");
}

TEST_CASE("a reading that turns on two negations cancelling, or a negation past its reach, is marked") {
  CHECK(pol("The rewrite is hardly risk-free.", "risk") == "affirmed");
  CHECK(doubt("The rewrite is hardly risk-free.", "risk") == "two negations ('hardly' and 'free') read as cancelling");
  CHECK(pol("It is not true that the cache is not involved.", "cache") == "affirmed");
  CHECK(doubt("We never saw the prefix cache not evicted.", "prefix cache").rfind("two negations ('never' and", 0) == 0);
  CHECK(doubt("The prefix cache is not involved.", "prefix cache") == "");
  // Past the twelve-word reach, not at a clause's edge: stated, in doubt.
  std::string far = "Not in the long run of the benchmark on the big machine with the new driver did we see the prefix cache.";
  CHECK(pol(far, "prefix cache") == "affirmed");
  CHECK(doubt(far, "prefix cache").find("past its reach") != std::string::npos);
  // Cut at a clause's edge: clear.
  CHECK(doubt("We did not profile it, and the prefix cache is fine.", "prefix cache") == "");
  // A fronted negation with its inverted auxiliary reaches over "and" within its window.
  CHECK(pol("Not in the long and slow and careful run did we see the prefix cache.", "prefix cache") == "negated");
  CHECK(doubt("Not in the long and slow and careful run did we see the prefix cache.", "prefix cache") ==
        "the negation 'not' is 12 words from the phrase");
}

TEST_CASE("emphasis by a negation affirms; a denied denial states; a myth is declared false") {
  CHECK(pol("There is no denying that the random seed is the cause.", "random seed") == "affirmed");
  CHECK(pol("The random seed is not innocent.", "random seed") == "affirmed");
  CHECK(pol("It cannot be anything but the random seed.", "random seed") == "affirmed");
  CHECK(pol("Nothing short of the seed explains the drift.", "seed") == "affirmed");
  CHECK(pol("The seed cannot be ignored: it is the cause.", "seed") == "affirmed");
  CHECK(pol("Never underestimate the seed here.", "seed") == "affirmed");
  CHECK(pol("Myth: the kernel is latency bound. Fact: a 32-way bank conflict.", "latency bound") == "negated");
  CHECK(pol("Myth: the kernel is latency bound. Fact: a 32-way bank conflict.", "bank conflict") == "affirmed");
  // A figure after a comma is no item of a denied list: the overclaim is still a claim.
  CHECK(pol("Zero bank conflicts, 3.1x faster.", "faster") == "affirmed");
  CHECK(pol("Zero bank conflicts, spills or stalls.", "stall") == "negated");
  // A component cleared of blame is denied; evidence that came back clean is stated.
  CHECK(pol("The scheduler is fine; the allocator is the problem.", "scheduler") == "negated");
  CHECK(pol("- NIC: OK (x16 Gen5)", "NIC") == "negated");
  CHECK(pol("The switch counters were clean.", "switch counter") == "affirmed");
  CHECK(pol("The lock is fine-grained.", "lock") == "affirmed");
}
