#pragma once
// Prose as a stream of sentences of normalised tokens. Markdown is read the way a reader sees it:
// emphasis markers vanish, a link is its text, headings, list items, table rows and blank lines end
// sentences, and code (fenced blocks, `spans`) is kept apart from the prose. One pass, linear in
// the text: a sentence at a time, so memory is bounded by the longest sentence, not the answer.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "operators/text/stemmer.hpp"

namespace rubric::text {

struct Token {
  enum class Kind : std::uint8_t { word, number, punct, code };
  Kind kind = Kind::word;
  std::string lower;      // lower-cased surface: "conflicts", "n't", ",", "3.5"
  std::string stem;       // inflection key of a word (stemmer.hpp); `lower` for everything else
  std::string joined;     // stem of this word joined with the next across a hyphen ("pre-fill" → "prefil")
  std::size_t begin = 0;  // bytes of the original text
  std::size_t end = 0;
  bool hyphen_next = false;  // joined to the next token by a hyphen inside a word ("bank-conflict")
  bool glued_prev = false;   // no space before it ("3.1x": the "x")
  bool mixed_case = false;   // a capital after a small letter ("ZeRO", "vLLM"): a name, not a word
  bool capital = false;      // begins with a capital letter ("Python", "CUDA", "May")
  bool all_caps = false;     // two or more letters, all capitals ("CUDA", "GCC")
  bool in_code = false;      // a word of an inline code span: part of its sentence's polarity, never a claim
  bool quoted = false;       // inside double quotation marks: another's words, or words spoken of
  bool inner_dot = false;    // a dot that does not end its sentence (an abbreviation's, an initial's): no clause break
};

struct Sentence {
  std::vector<Token> tokens;
  std::size_t begin = 0, end = 0;  // bytes of the original text
  bool question = false;           // ended by '?'
  // A question answered at once ("Fever? No."): the answer word is the sentence's last token.
  enum class Answer : std::uint8_t { none, yes, no, unsure };
  Answer answer = Answer::none;
  std::size_t answer_begin = 0;  // the answer's first token, when there is one

  // A Markdown table row (its cells separated by '|' tokens), and per column whether the header
  // negates its values ("| Cause | Ruled out? |": "yes" there denies the row's cause).
  bool table_row = false;
  // An item of a Markdown list under a label that names candidates ("Possible causes:\n- A\n- B").
  bool candidate_item = false;
  // An item of a Markdown list under a label that denies ("Ruled out:\n- A\n- B", "Not the cause:").
  bool denied_item = false;
  // Where the sentence ends or begins was a guess: cut at the token limit, or a dot after an
  // abbreviation or an initial read as no end ("C. elegans").
  bool uncertain_split = false;
  // A Markdown or HTML heading ("## Bank conflicts"), one line.
  bool heading = false;
  std::vector<bool> negating_columns;
  // Per column (the first cell is column 0), 's' where the header names what the row judges
  // ("Cause", "Diagnosis", "Component"), 'c' where it names candidates ("Hypothesis", "Suspect"):
  // hedged unless the row's verdict decides; 'x' where it asks something else of the row ("Fix",
  // "Before", "After", "Owner"): no verdict on what the row names. Other columns are evidence.
  std::vector<char> column_roles;
  // Per column, the unit its header names in parentheses or brackets ("Time (µs)", "BW [GB/s]"),
  // lower-cased and joined ("µs", "gb/s"); "" where none. Body rows only, shared by the table's rows.
  std::shared_ptr<const std::vector<std::string>> column_units;
};

// A word that makes a label name candidates rather than findings: "Possible causes:",
// "Keywords:", "Suspects:".
bool names_candidates(std::string_view lower_word);
// The same for the word at k of a label, which may need the word before it ("To check:").
bool names_candidates(const std::vector<Token>& tokens, std::size_t k);
// Whether the word at k of a label is a denial or a check that the words before it deny ("not yet
// ruled out", "never tested", "not sure"): a doubt, not a finding.
bool doubted_denial(const std::vector<Token>& tokens, std::size_t k);

// The unit a table cell (tokens [a, b)) names last in parentheses or brackets, its words joined
// and lower-cased: "Time (µs)" → "µs", "BW [GB/s]" → "gb/s"; "" when none.
std::string cell_unit(std::string_view text, const std::vector<Token>& tokens, std::size_t a, std::size_t b);

// Cuts text into sentences. `markdown` off reads every character as prose (for phrases).
class SentenceStream {
 public:
  SentenceStream(std::string_view text, Stemmer& stemmer, bool markdown = true);
  // The next non-empty sentence; false at the end of the text.
  bool next(Sentence& out);

 private:
  bool at_line_start() const;
  bool block_start(std::size_t line_begin, std::size_t& content) const;  // list, heading, table, quote
  // Past a fenced block opening at line_begin (npos when none), with where its code ends.
  std::size_t skip_fence(std::size_t line_begin, std::size_t* code_end);
  void word(Sentence& s);
  void number(Sentence& s);
  bool prefixed_multiplier(Sentence& s);
  void push(Sentence& s, Token::Kind kind, std::size_t b, std::size_t e, std::string lower);
  void code_span_words(Sentence& s, std::size_t b, std::size_t e);
  void closing_quote(Sentence& s, std::size_t len);
  std::size_t closing_backticks(std::size_t from, std::size_t run);

  std::string rendered_;  // the text with its characters as rendered (html_tags.hpp), when that changes it
  std::string_view t_;
  Stemmer& stemmer_;
  bool markdown_;
  std::size_t i_ = 0;
  bool space_before_ = true;
  bool one_line_block_ = false;       // the current line is a heading or a table row
  bool item_start_ = false;           // the current sentence opens a list item
  bool heading_start_ = false;        // the current sentence is a heading
  bool candidates_open_ = false;      // list items now follow a label naming candidates
  bool denials_open_ = false;         // list items now follow a label that denies them
  enum class Row : std::uint8_t { none, header, separator, body };
  Row row_ = Row::none;               // the table row the current sentence is
  bool in_table_ = false;             // rows after a header and its separator line
  std::vector<bool> negating_columns_;  // of the current table's header
  std::vector<char> column_roles_;      // of the current table's header (Sentence::column_roles)
  std::shared_ptr<const std::vector<std::string>> column_units_;  // of the current table's header
  bool separator_line(std::size_t line_begin) const;
  // The one-word answer after a question ("Fever? No."), or the value that opens a topic heading's
  // section ("## Allergies" then "None."): `across_paragraph` lets blank lines come between.
  void answer_of_question(Sentence& s, bool across_paragraph = false);
  // Searches that strike-through and retraction markup would repeat, remembered (linear in the text).
  static constexpr std::size_t kUnsearched = static_cast<std::size_t>(-2), kNoneLeft = static_cast<std::size_t>(-3);
  std::size_t next_at(std::size_t& at, std::string_view what, std::size_t from) const;
  std::size_t closing_tag(std::size_t kind, std::string_view close, std::size_t from, std::size_t limit);
  std::size_t tilde_at_ = kUnsearched, blank_at_ = kUnsearched;  // the next "~~", the next blank line
  // The next line of white space only at or after `from` (a paragraph's end), remembered as next_at does.
  std::size_t next_blank_line(std::size_t from);
  std::size_t blank_line_at_ = kUnsearched;
  // A code span holding [content, close), its closing backticks ending at past: read as a reader
  // sees it when it holds the sentence's end mark (`ended` when the sentence ends); false when it is
  // code to push as usual.
  bool span_punctuation(Sentence& s, std::size_t content, std::size_t close, std::size_t past, bool& ended);
  std::array<std::size_t, 3> strike_found_{{std::string_view::npos, std::string_view::npos, std::string_view::npos}};
  std::array<std::size_t, 3> strike_scanned_{};
  bool quote_open_ = false;           // a double quotation mark is open in the current sentence
  bool block_quote_ = false;          // inside a Markdown block quote ("> ..."): another's words
  bool crossed_item_ = false;         // the current sentence is an item opened by "❌", "✗", ...
  bool cut_before_ = false;           // the previous sentence was cut at the token limit
  std::size_t paren_none_until_ = 0;  // no ')' on the line before this offset (linear link skipping)
  std::vector<std::vector<std::size_t>> backtick_runs_;  // run length → start offsets, ascending
  std::vector<std::size_t> backtick_cursor_;
};

// The code of a Markdown text: fenced blocks and inline spans, one per line, in order.
std::string code_of(std::string_view text);
class AnalysedText;
std::string code_of(AnalysedText& text);  // the same over a text cut once for every operator

// The prose of a text as one line of normalised words ("the thread of a warp collid ..."), for tests.
std::string normalised(std::string_view text, Stemmer& stemmer);

// A sentence of the original text for evidence: white space folded to single spaces, trimmed, and
// cut to about `max` bytes around [mark_begin, mark_end) when longer.
std::string quote(std::string_view text, std::size_t begin, std::size_t end, std::size_t max = 240);

// How a code span reads its text (`--page-size 32` as "page size 32", `max_num_seqs` as "max num
// seqs"): runs of ASCII letters and digits are words, a run of digits with a decimal part one
// number ("0.9"), each "=" itself; every other character only separates. Byte spans of `code`.
struct CodeWord {
  enum class Kind { word, number, equals };
  std::size_t begin = 0, end = 0;
  Kind kind = Kind::word;
};
std::vector<CodeWord> code_words(std::string_view code);

}  // namespace rubric::text
