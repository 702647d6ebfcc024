#include "interpreter/text_analyses.hpp"

#include <xxh_x86dispatch.h>  // XXH3_* resolve to the library's AVX2/AVX-512 dispatching entry points
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <unordered_map>

#include "interpreter/evaluator.hpp"
#include "interpreter/text_concepts.hpp"

namespace rubric {

namespace {

// What the kept sentences of all texts of one evaluation may hold. Prose costs about 27 times
// its text kept (a token is 128 bytes: its folded word, stem and joined stem, offsets, flags), so
// 64 MiB keeps an answer of about 2 MiB whole; a text that passes the budget streams as it did
// without the cache (its entry stays, remembering that).
constexpr std::size_t kBudget = kTextAnalysisBudget;
// A longer text is never kept, so the memory of a very long answer stays what streaming needs
// (docs/text.md, "Limits and cost").
constexpr std::size_t kKeptTextUpTo = kBudget / 32;
// Bytes charged for an entry besides its text and sentences (the entry, maps, an empty deque).
constexpr std::size_t kEntryBytes = 1024;
const char* const kCacheKey = "text-analyses";

// One kept text: the string (kept alive, so the analysis never outlives the bytes it points
// into) and its analysis, charged to the budget as long as it lives.
struct Held {
  Held(const Value& v, std::shared_ptr<text::AnalysisBudget> b, std::size_t charged)
      : text(v), budget(std::move(b)), charged(charged), analysed(text.as_string(), shared_stemmer(), budget) {}
  ~Held() {
    if (budget) budget->give(charged);
  }
  Value text;
  std::shared_ptr<text::AnalysisBudget> budget;
  std::size_t charged;
  text::AnalysedText analysed;
};

class TextAnalyses {
 public:
  std::shared_ptr<text::AnalysedText> of(const Value& v) {
    const std::string& s = v.as_string();
    if (s.size() > kKeptTextUpTo) return streamed(v);
    // The same string: found by its address, which the entry keeps alive.
    if (auto it = by_string_.find(&s); it != by_string_.end()) return use(it->second);
    // An equal string read again: found by its hash, and compared, so no crafted collision can
    // share another text's analysis.
    const std::uint64_t h = XXH3_64bits(s.data(), s.size());
    auto [b, e] = by_content_.equal_range(h);
    for (auto it = b; it != e; ++it)
      if (it->second->held->text.as_string() == s) return use(it->second);
    // A new text: room for it and its sentences at their usual cost, the least recently used
    // texts going first.
    const std::size_t want = std::min(kBudget, s.size() * 32 + kEntryBytes);
    while (budget_->left() < want && !lru_.empty()) erase(std::prev(lru_.end()));
    const std::size_t charged = s.size() + kEntryBytes;
    if (!budget_->take(charged)) return streamed(v);
    lru_.push_front(Entry{std::make_shared<Held>(v, budget_, charged), h});
    by_string_[&s] = lru_.begin();
    by_content_.emplace(h, lru_.begin());
    return alias(lru_.front().held);
  }

 private:
  struct Entry {
    std::shared_ptr<Held> held;
    std::uint64_t hash;
  };
  using Iter = std::list<Entry>::iterator;

  static std::shared_ptr<text::AnalysedText> alias(const std::shared_ptr<Held>& h) {
    return std::shared_ptr<text::AnalysedText>(h, &h->analysed);
  }
  // Read by streaming, kept nowhere.
  static std::shared_ptr<text::AnalysedText> streamed(const Value& v) {
    return alias(std::make_shared<Held>(v, nullptr, 0));
  }
  std::shared_ptr<text::AnalysedText> use(Iter it) {
    lru_.splice(lru_.begin(), lru_, it);
    return alias(it->held);
  }
  void erase(Iter it) {
    by_string_.erase(&it->held->text.as_string());
    auto [b, e] = by_content_.equal_range(it->hash);
    for (auto c = b; c != e; ++c)
      if (c->second == it) {
        by_content_.erase(c);
        break;
      }
    lru_.erase(it);
  }

  std::shared_ptr<text::AnalysisBudget> budget_ = std::make_shared<text::AnalysisBudget>(kBudget);
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<const std::string*, Iter> by_string_;
  std::unordered_multimap<std::uint64_t, Iter> by_content_;
};

TextAnalyses& analyses_of(std::shared_ptr<const void>& slot) {
  if (!slot) slot = std::make_shared<TextAnalyses>();
  return *std::const_pointer_cast<TextAnalyses>(std::static_pointer_cast<const TextAnalyses>(slot));
}

}  // namespace

std::shared_ptr<text::AnalysedText> analysed_text(CallContext& ctx, const Value& text) {
  std::shared_ptr<const void> slot = ctx.cached(kCacheKey);
  if (!slot) ctx.store(kCacheKey, slot = std::make_shared<TextAnalyses>());
  return analyses_of(slot).of(text);
}

std::shared_ptr<text::AnalysedText> analysed_text(Evaluator& ev, const Value& text) {
  return analyses_of(ev.cache[kCacheKey]).of(text);
}

}  // namespace rubric
