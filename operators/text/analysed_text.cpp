#include "operators/text/analysed_text.hpp"

#include <utility>

namespace rubric::text {

namespace {

// What a kept copy of a sentence holds: its tokens and the strings too long to sit inside a token.
std::size_t footprint(const Sentence& s) {
  static const std::size_t inline_chars = std::string().capacity();
  constexpr std::size_t kAllocation = 16;  // what malloc adds to each block
  std::size_t b = sizeof(Sentence) + kAllocation + s.tokens.size() * sizeof(Token) + (s.negating_columns.size() + 63) / 64 * 8;
  for (const Token& t : s.tokens)
    for (const std::string* x : {&t.lower, &t.stem, &t.joined})
      if (x->capacity() > inline_chars) b += x->capacity() + 1 + kAllocation;
  return b;
}

}  // namespace

bool AnalysisBudget::take(std::size_t bytes) {
  if (bytes > left_) return false;
  left_ -= bytes;
  return true;
}

AnalysedText::AnalysedText(std::string_view text, Stemmer& stemmer, std::shared_ptr<AnalysisBudget> budget)
    : text_(text), stemmer_(stemmer), budget_(std::move(budget)) {
  dropped_ = !budget_;
}

AnalysedText::~AnalysedText() { drop(); }

void AnalysedText::drop() {
  dropped_ = true;
  builder_.reset();
  std::deque<Sentence>().swap(sentences_);
  if (budget_) budget_->give(bytes_);
  bytes_ = 0;
}

const Sentence* AnalysedText::Reader::next() {
  if (own_) return own_->next(local_) ? &local_ : nullptr;
  AnalysedText& a = a_;
  if (!a.dropped_) {
    if (index_ < a.sentences_.size()) return &a.sentences_[index_++];
    if (a.complete_) return nullptr;
    if (!a.builder_) a.builder_ = std::make_unique<SentenceStream>(a.text_, a.stemmer_);
    // The builder fills one Sentence over and over, as a stream's own reader does, and a copy of
    // it is kept: the copy holds no spare capacity, the scratch keeps its own for the next.
    if (!a.builder_->next(a.scratch_)) {
      a.complete_ = true;
      a.builder_.reset();
      return nullptr;
    }
    std::size_t cost = footprint(a.scratch_);
    if (a.budget_->take(cost)) {
      a.bytes_ += cost;
      a.sentences_.push_back(a.scratch_);
      return &a.sentences_[index_++];
    }
    // Past the budget: this reader carries on with the builder's stream, the others start their own.
    own_ = std::move(a.builder_);
    local_ = std::move(a.scratch_);
    a.drop();
    ++index_;
    return &local_;
  }
  // Streaming: from the start of the text, past the sentences this reader has already read.
  own_ = std::make_unique<SentenceStream>(a.text_, a.stemmer_);
  for (std::size_t k = 0; k < index_; ++k) own_->next(local_);
  return own_->next(local_) ? &local_ : nullptr;
}

}  // namespace rubric::text
