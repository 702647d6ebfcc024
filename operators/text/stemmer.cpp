#include "operators/text/stemmer.hpp"

#include <unordered_map>
#include <unordered_set>

namespace rubric::text {

namespace {

bool consonant(std::string_view w, std::size_t i) {
  switch (w[i]) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return false;
    case 'y': return i == 0 || !consonant(w, i - 1);
    default: return true;
  }
}

bool has_vowel(std::string_view w) {
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!consonant(w, i)) return true;
  return false;
}

// Porter's measure: the number of vowel-consonant sequences ("tr" 0, "cach" 1, "relat" 2).
int measure(std::string_view w) {
  int m = 0;
  for (std::size_t i = 1; i < w.size(); ++i) m += consonant(w, i) && !consonant(w, i - 1);
  return m;
}

// Ends consonant-vowel-consonant, the last not w, x or y: a short syllable ("hop", "rat", "til"),
// whose silent e a stem keeps ("hope", "rate", "tile" stay apart from "hop", "rat", "till").
bool short_syllable(std::string_view w) {
  std::size_t n = w.size();
  if (n < 3 || !consonant(w, n - 1) || consonant(w, n - 2) || !consonant(w, n - 3)) return false;
  char c = w[n - 1];
  return c != 'w' && c != 'x' && c != 'y';
}

bool ends(std::string_view w, std::string_view suffix) {
  return w.size() >= suffix.size() && w.substr(w.size() - suffix.size()) == suffix;
}

// Singular words that end in s, which no plural rule may cut ("status", "analysis", "bias").
bool singular_in_s(std::string_view w) {
  static const std::unordered_set<std::string_view> kWords = {
      "this", "his", "has", "was", "is", "as", "us", "yes", "thus", "plus", "minus", "versus", "status", "focus", "virus",
      "bonus", "campus", "corpus", "consensus", "census", "radius", "stimulus", "apparatus", "surplus", "onus", "genus",
      "sinus", "fungus", "cactus", "syllabus", "circus", "chorus", "octopus", "prospectus", "hiatus", "impetus", "exodus",
      "tinnitus", "caucus", "fetus", "locus", "modulus", "calculus", "abacus", "nucleus", "bus", "nexus", "stylus",
      "terminus", "emeritus", "opus", "omnibus", "walrus", "uterus", "humerus", "papyrus", "iris", "chassis", "tennis",
      "debris", "pelvis", "trellis", "marquis", "mantis", "epidermis", "metropolis", "gas", "bias", "alias", "atlas",
      "canvas", "whereas", "christmas", "pancreas", "overseas", "chaos", "kudos", "cosmos", "ethos", "pathos", "thermos",
      "logos", "asbestos", "macos", "news", "lens", "species", "series", "gross", "less", "unless", "across", "always",
      "perhaps", "its", "ours", "yours", "theirs", "hers", "does", "goes"};
  return kWords.count(w) > 0 || ends(w, "ss") || ends(w, "ous") || ends(w, "sis") || ends(w, "itis") || ends(w, "xis");
}

// Nouns in -ing that are no form of a verb their stem names: "evening" is not "even", "ceiling"
// not "ceil", "meaning" not "mean" (an average).
bool noun_in_ing(std::string_view w) {
  static const std::unordered_set<std::string_view> kWords = {
      "evening", "morning", "ceiling", "meaning", "bedding", "pudding", "wedding", "herring", "during", "sibling",
      "darling", "awning", "lightning", "shilling", "farthing", "viking"};
  return kWords.count(w) > 0;
}

// Plurals that no suffix rule reaches: "matrices" is "matrix", "halves" is "half".
const std::unordered_map<std::string_view, std::string_view>& irregular_plurals() {
  static const std::unordered_map<std::string_view, std::string_view> kWords = {
      {"matrices", "matrix"}, {"indices", "index"}, {"vertices", "vertex"}, {"appendices", "appendix"},
      {"halves", "half"}, {"shelves", "shelf"}, {"knives", "knife"},
      {"wives", "wife"}, {"selves", "self"}, {"wolves", "wolf"}, {"loaves", "loaf"}, {"thieves", "thief"},
      {"children", "child"}, {"men", "man"}, {"women", "woman"}, {"mice", "mouse"}, {"feet", "foot"},
      {"teeth", "tooth"}, {"geese", "goose"}, {"axes", "axis"},
      {"crises", "crisis"}, {"hypotheses", "hypothesis"}, {"theses", "thesis"},
      {"criteria", "criterion"}, {"phenomena", "phenomenon"}, {"nuclei", "nucleus"}, {"stimuli", "stimulus"},
      {"radii", "radius"}, {"loci", "locus"}};
  return kWords;
}

// What is left of a word once -ed or -ing is cut, put back into its base's shape: a doubled
// consonant undone ("stopp" → "stop", "padd" → "pad"; not "spill"), a silent e restored after
// "at", "bl", "iz" and a short syllable ("hop" → "hope": "hoping" is "hope", "hopping" "hop").
std::string verb_base(std::string r) {
  std::size_t n = r.size();
  if (ends(r, "at") || ends(r, "bl") || ends(r, "iz")) return r + "e";
  if (n >= 4 && r[n - 1] == r[n - 2] && consonant(r, n - 1) && r[n - 1] != 'l' && r[n - 1] != 's' && r[n - 1] != 'z') {
    r.pop_back();
    return r;
  }
  if ((measure(r) == 1 && short_syllable(r)) || (n == 2 && consonant(r, 1))) return r + "e";  // "us" → "use"
  return r;
}

}  // namespace

std::string inflection_key(std::string_view word) {
  if (word.size() <= 2) return std::string(word);
  for (char c : word)
    if (!(c >= 'a' && c <= 'z') && c != '\'') return std::string(word);
  std::string w(word);
  if (ends(w, "'s")) w.resize(w.size() - 2);
  else if (ends(w, "s'")) w.pop_back();
  if (w.size() <= 2) return w;

  if (auto it = irregular_plurals().find(w); it != irregular_plurals().end()) w = std::string(it->second);
  // Plural and third person: "-ies" → "-y", "-oes" → "-o", "-ses" of a singular in s → it ("buses",
  // "gases"), else the s alone ("caches" → "cache").
  if (w.size() >= 4 && ends(w, "s") && !singular_in_s(w)) {
    if (ends(w, "ies")) w = w.size() >= 5 ? w.substr(0, w.size() - 3) + "y" : w.substr(0, w.size() - 1);
    else if (ends(w, "ses") && w.size() >= 5 && singular_in_s(std::string_view(w.data(), w.size() - 2))) w.resize(w.size() - 2);
    else if (ends(w, "oes") && w.size() >= 5) w.resize(w.size() - 2);
    else w.pop_back();
  }
  // Past and participle: "-ied" → "-y"; "-ed" and "-ing" after a stem with a vowel ("evicted",
  // "caching"; not "need", "shed", "string"). A gerund's plural too ("settings" → "set").
  bool cut = false;  // an -ed or -ing was cut
  if (w.size() >= 4 && ends(w, "ied")) {
    w = w.size() >= 5 ? w.substr(0, w.size() - 3) + "y" : w.substr(0, w.size() - 1);
  } else if (w.size() >= 4 && ends(w, "ed") && !ends(w, "eed") && has_vowel(w.substr(0, w.size() - 2))) {
    cut = true;
    w = verb_base(w.substr(0, w.size() - 2));
    if (w.back() == 'u') w += 'e';  // "queued", "issued", "argued": the base ends in -ue
  } else if (w.size() >= 5 && ends(w, "ing") && has_vowel(w.substr(0, w.size() - 3)) && !noun_in_ing(w)) {
    cut = true;
    w = verb_base(w.substr(0, w.size() - 3));
    if (w.back() == 'u') w += 'e';  // "queuing", "issuing", "continuing"
  }
  // A base in -ic takes a k before -ed and -ing ("panicked", "mimicking", "trafficked"); "kicked",
  // "clicked" keep theirs (a one-syllable base in -ick).
  if (cut && w.size() >= 5 && ends(w, "ick") && measure(std::string_view(w.data(), w.size() - 1)) >= 2) w.pop_back();
  // A base in -ee takes a bare d ("freed", "agreed", "guaranteed"): cut it, and so cut the d of
  // every word in -eed past four letters ("speed", "exceed" become "spee", "excee" whatever follows,
  // so their own inflections still meet); "need", "seed", "feed" stay apart from "nee", "see", "fee".
  if (w.size() >= 5 && ends(w, "eed")) w.pop_back();
  // A silent e goes, so the base and its inflections meet ("cache", "cached" → "cach"), except
  // after a short syllable ("rate", "note", "plane" stay themselves) or in a short word ("use").
  if (ends(w, "e") && w.size() >= 4 && consonant(w, w.size() - 2)) {
    std::string_view r(w.data(), w.size() - 1);
    if (measure(r) > 1 || (measure(r) == 1 && !short_syllable(r))) w.pop_back();
  }
  // A final y after a consonant is i, as "-ies" and "-ied" leave it ("apply", "applies", "applied").
  if (w.size() >= 3 && w.back() == 'y' && consonant(w, w.size() - 2)) w.back() = 'i';
  return w;
}

const std::string& Stemmer::stem(const std::string& word) {
  auto it = memo_.find(word);
  if (it != memo_.end()) return it->second;
  // A text of endless distinct words must not grow the memo without bound: start it afresh.
  if (memo_.size() >= 100000) memo_.clear();
  return memo_.emplace(word, inflection_key(word)).first->second;
}

}  // namespace rubric::text
