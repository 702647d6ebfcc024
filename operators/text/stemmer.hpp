#pragma once
// English inflection folding for matching: "tokens" and "token", "evicted", "evicts" and "evicting"
// share a key, while derivations stay apart ("tokenizer" is not "token", "normalization" not
// "normal", "computer" not "compute"): a grader keeps those apart, and Snowball-style stemmers fold
// them by design. The key is not a dictionary lemma, only the same for a word's inflections
// (plural, possessive, -ed, -ing, third person), built by rules that every phrase and every text
// go through alike. Keys of repeated words are memoised.
#include <string>
#include <string_view>
#include <unordered_map>

namespace rubric::text {

// The key of a lower-case word: its inflectional ending stripped ("conflicts" → "conflict",
// "caches", "cached", "caching" and "cache" → "cach", "applies" → "appli"). Words with
// non-letters (numbers, identifiers) and words of two letters are kept whole.
std::string inflection_key(std::string_view word);

class Stemmer {
 public:
  // inflection_key(word), memoised.
  const std::string& stem(const std::string& word);

 private:
  std::unordered_map<std::string, std::string> memo_;
};

}  // namespace rubric::text
