#pragma once
// A text cut into sentences once for every operator that reads it. The sentences (tokens folded,
// stemmed, code kept apart) are built lazily, a sentence at a time as the first reader asks for
// them, and kept, so `affirms`, `denies`, `polarity`, `claims` and `code_of` over one answer
// tokenise it once. What is kept is charged to a memory budget shared by the texts of one
// evaluation: past it, the kept sentences are dropped and every reader streams the text as
// SentenceStream does, holding one sentence at a time, so no text makes the cache grow past it.
// Readers build as they read: one thread at a time (an evaluation is one thread).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "operators/text/document.hpp"
#include "operators/text/stemmer.hpp"

namespace rubric::text {

// A 15-bit digest of a stem (its length and four bytes), for turning away at a glance the tokens
// that start no phrase: equal stems have equal digests.
std::uint32_t stem_digest(std::string_view stem);

// Per token, what matching a phrase looks at first, packed in 32 bits so a pass over a sentence
// reads 4 bytes a token rather than the token: the digest of its stem (bits 0-14) with bit 15
// set when the stem can start a phrase (prose, not code); the digest of the stem joined with the
// next word across a hyphen, cut to 14 bits (bits 16-29), with bit 31 set when there is one; and
// bit 30 set when the token counts as a word for `near` (anything but punctuation).
constexpr std::uint32_t kStemStarts = 1u << 15, kWord = 1u << 30, kJoinedStarts = 1u << 31;
constexpr std::uint32_t stem_bits(std::uint32_t key) { return key & 0x7FFF; }
constexpr std::uint32_t joined_bits(std::uint32_t key) { return (key >> 16) & 0x3FFF; }
std::uint32_t start_key(const Token& t);

// Bytes the kept sentences of every analysed text sharing it may hold.
class AnalysisBudget {
 public:
  explicit AnalysisBudget(std::size_t bytes) : left_(bytes) {}
  std::size_t left() const { return left_; }
  bool take(std::size_t bytes);  // false (nothing taken) when fewer are left
  void give(std::size_t bytes) { left_ += bytes; }

 private:
  std::size_t left_;
};

class AnalysedText {
 public:
  // `text` and `stemmer` must outlive it. A null budget keeps nothing: each reader streams.
  AnalysedText(std::string_view text, Stemmer& stemmer, std::shared_ptr<AnalysisBudget> budget);
  ~AnalysedText();
  AnalysedText(const AnalysedText&) = delete;
  AnalysedText& operator=(const AnalysedText&) = delete;

  std::string_view text() const { return text_; }
  Stemmer& stemmer() const { return stemmer_; }
  // Memory the kept sentences hold, as charged to the budget.
  std::size_t bytes() const { return bytes_; }
  // Every sentence of the text is kept (a reader has read to the end within the budget).
  bool complete() const { return complete_ && !dropped_; }

  // The sentences in order, each exactly as one SentenceStream over the text gives it. A pointer
  // stays valid until the next call of next() on a reader of the same text.
  class Reader {
   public:
    explicit Reader(AnalysedText& analysed) : a_(analysed) {}
    const Sentence* next();  // null at the end
    // start_key of each token of the sentence next() gave, valid as long as it is.
    const std::uint32_t* start_keys() const { return keys_; }

   private:
    const Sentence* streamed();
    AnalysedText& a_;
    std::size_t index_ = 0;                  // sentences read
    std::unique_ptr<SentenceStream> own_;    // streaming: the text's sentences past the budget
    Sentence local_;                         // the current sentence when streaming
    std::vector<std::uint32_t> local_keys_;  // and its start keys
    const std::uint32_t* keys_ = nullptr;
  };

 private:
  void drop();  // past the budget: the kept sentences go, readers stream

  std::string_view text_;
  Stemmer& stemmer_;
  std::shared_ptr<AnalysisBudget> budget_;
  struct Kept {
    Sentence sentence;
    const std::uint32_t* start_keys;  // in key_chunks_
  };
  std::vector<Kept> sentences_;              // kept, one after the other: a pass reads memory in order
  // The start keys of the kept sentences, one after the other in chunks that never move, so a
  // pass over them reads memory in order.
  std::vector<std::unique_ptr<std::uint32_t[]>> key_chunks_;
  std::uint32_t* chunk_next_ = nullptr;  // where the next sentence's keys go
  std::size_t chunk_left_ = 0;
  std::unique_ptr<SentenceStream> builder_;  // where the kept sentences stop; null when complete
  Sentence scratch_;                         // what the builder fills, as one stream's reader does
  std::size_t bytes_ = 0;
  bool complete_ = false;
  bool dropped_ = false;
};

}  // namespace rubric::text
