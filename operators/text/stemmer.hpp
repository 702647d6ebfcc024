#pragma once
// English stemming with Snowball (libstemmer): "conflicts", "conflicting" → "conflict",
// "evicted", "eviction" → "evict". Stems of repeated words are memoised.
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

struct sb_stemmer;

namespace rubric::text {

class Stemmer {
 public:
  Stemmer();
  ~Stemmer();
  Stemmer(const Stemmer&) = delete;
  Stemmer& operator=(const Stemmer&) = delete;
  // The stem of a lower-case word; words with non-letters (numbers, identifiers) are kept whole.
  const std::string& stem(const std::string& word);

 private:
  sb_stemmer* stemmer_ = nullptr;
  std::unordered_map<std::string, std::string> memo_;
};

}  // namespace rubric::text
