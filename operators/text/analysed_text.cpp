#include "operators/text/analysed_text.hpp"

#include <algorithm>
#include <utility>

namespace rubric::text {

namespace {

constexpr std::size_t kAllocation = 16;   // what malloc adds to each block
constexpr std::size_t kKeyChunk = 16384;  // start keys per chunk (64 KiB)

// What a kept copy of a sentence holds besides its place in the array: its tokens and the strings
// too long to sit inside a token.
std::size_t footprint(const Sentence& s) {
  static const std::size_t inline_chars = std::string().capacity();
  std::size_t b = kAllocation + s.tokens.size() * sizeof(Token) + (s.negating_columns.size() + 63) / 64 * 8;
  for (const Token& t : s.tokens)
    for (const std::string* x : {&t.lower, &t.stem, &t.joined})
      if (x->capacity() > inline_chars) b += x->capacity() + 1 + kAllocation;
  return b;
}

}  // namespace

std::uint32_t stem_digest(std::string_view s) {
  const std::size_t n = s.size();
  if (n == 0) return 0;
  auto at = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i])); };
  std::uint32_t h = static_cast<std::uint32_t>(n) * 0x9E3779B1u;
  h = (h ^ at(0)) * 0x85EBCA77u;
  h = (h ^ at(n - 1)) * 0xC2B2AE3Du;
  h = (h ^ at(n / 2)) * 0x27D4EB2Fu;
  h = (h ^ at(n > 1 ? 1 : 0)) * 0x165667B1u;
  return (h ^ (h >> 15)) & 0x7FFF;
}

std::uint32_t start_key(const Token& t) {
  std::uint32_t k = t.kind != Token::Kind::punct ? kWord : 0;
  if (t.kind == Token::Kind::code) return k;
  if (!t.stem.empty()) k |= kStemStarts | stem_digest(t.stem);
  if (t.hyphen_next && !t.joined.empty()) k |= kJoinedStarts | (stem_digest(t.joined) & 0x3FFF) << 16;
  return k;
}

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
  std::vector<Kept>().swap(sentences_);
  key_chunks_.clear();
  key_chunks_.shrink_to_fit();
  chunk_next_ = nullptr;
  chunk_left_ = 0;
  if (budget_) budget_->give(bytes_);
  bytes_ = 0;
}

namespace {

void fill_keys(const Sentence& s, std::uint32_t* keys) {
  for (std::size_t k = 0; k < s.tokens.size(); ++k) keys[k] = start_key(s.tokens[k]);
}

void fill_keys(const Sentence& s, std::vector<std::uint32_t>& keys) {
  keys.resize(s.tokens.size());
  fill_keys(s, keys.data());
}

}  // namespace

const Sentence* AnalysedText::Reader::streamed() {
  if (!own_->next(local_)) return nullptr;
  fill_keys(local_, local_keys_);
  keys_ = local_keys_.data();
  return &local_;
}

const Sentence* AnalysedText::Reader::next() {
  if (own_) return streamed();
  AnalysedText& a = a_;
  if (!a.dropped_) {
    if (index_ < a.sentences_.size()) {
      const Kept& kept = a.sentences_[index_++];
      keys_ = kept.start_keys;
      return &kept.sentence;
    }
    if (a.complete_) return nullptr;
    if (!a.builder_) a.builder_ = std::make_unique<SentenceStream>(a.text_, a.stemmer_);
    // The builder fills one Sentence over and over, as a stream's own reader does, and a copy of
    // it is kept: the copy holds no spare capacity, the scratch keeps its own for the next.
    if (!a.builder_->next(a.scratch_)) {
      a.complete_ = true;
      a.builder_.reset();
      const std::size_t spare = (a.sentences_.capacity() - a.sentences_.size()) * sizeof(Kept);
      a.sentences_.shrink_to_fit();
      a.budget_->give(spare);
      a.bytes_ -= spare;
      return nullptr;
    }
    std::size_t cost = footprint(a.scratch_);
    // The array of kept sentences grows by doubling, charged for its capacity.
    const std::size_t capacity = a.sentences_.capacity();
    const std::size_t grown = a.sentences_.size() < capacity ? capacity : std::max<std::size_t>(8, 2 * capacity);
    cost += (grown - capacity) * sizeof(Kept) + (capacity ? 0 : kAllocation);
    // A new chunk of keys when this sentence's do not fit: no larger than the rest of the text
    // could fill (a token is at least a byte), so a short text takes a short chunk.
    const std::size_t n = a.scratch_.tokens.size();
    const std::size_t chunk = n <= a.chunk_left_ ? 0 : std::max(n, std::min(kKeyChunk, n + (a.text_.size() - a.scratch_.end)));
    if (chunk) cost += chunk * sizeof(std::uint32_t) + kAllocation;
    if (a.budget_->take(cost)) {
      a.bytes_ += cost;
      if (chunk) {
        a.key_chunks_.push_back(std::make_unique<std::uint32_t[]>(chunk));
        a.chunk_next_ = a.key_chunks_.back().get();
        a.chunk_left_ = chunk;
      }
      std::uint32_t* keys = a.chunk_next_;
      a.chunk_next_ += n;
      a.chunk_left_ -= n;
      fill_keys(a.scratch_, keys);
      a.sentences_.reserve(grown);
      a.sentences_.push_back(Kept{a.scratch_, keys});
      ++index_;
      keys_ = keys;
      return &a.sentences_.back().sentence;
    }
    // Past the budget: this reader carries on with the builder's stream, the others start their own.
    own_ = std::move(a.builder_);
    local_ = std::move(a.scratch_);
    a.drop();
    ++index_;
    fill_keys(local_, local_keys_);
    keys_ = local_keys_.data();
    return &local_;
  }
  // Streaming: from the start of the text, past the sentences this reader has already read.
  own_ = std::make_unique<SentenceStream>(a.text_, a.stemmer_);
  for (std::size_t k = 0; k < index_; ++k) own_->next(local_);
  return streamed();
}

}  // namespace rubric::text
