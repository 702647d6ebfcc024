#include "operators/text/stemmer.hpp"

#include <libstemmer.h>

#include <stdexcept>

namespace rubric::text {

Stemmer::Stemmer() : stemmer_(sb_stemmer_new("english", "UTF_8")) {
  if (!stemmer_) throw std::runtime_error("the Snowball English stemmer is not available");
}

Stemmer::~Stemmer() { sb_stemmer_delete(stemmer_); }

const std::string& Stemmer::stem(const std::string& word) {
  auto it = memo_.find(word);
  if (it != memo_.end()) return it->second;
  bool letters = !word.empty();
  for (unsigned char c : word)
    if (!(c >= 'a' && c <= 'z') && c != '\'') letters = false;
  std::string out = word;
  if (letters && word.size() > 2) {
    const sb_symbol* s = sb_stemmer_stem(stemmer_, reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
    if (s) out.assign(reinterpret_cast<const char*>(s), static_cast<std::size_t>(sb_stemmer_length(stemmer_)));
  }
  // A text of endless distinct words must not grow the memo without bound: start it afresh.
  if (memo_.size() >= 100000) memo_.clear();
  return memo_.emplace(word, std::move(out)).first->second;
}

}  // namespace rubric::text
