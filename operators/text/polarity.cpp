#include "operators/text/polarity.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rubric::text {

const char* polarity_name(Polarity p) {
  switch (p) {
    case Polarity::absent: return "absent";
    case Polarity::negated: return "negated";
    case Polarity::hedged: return "hedged";
    case Polarity::affirmed: return "affirmed";
  }
  return "?";
}

namespace {

using Seq = std::vector<std::string_view>;

// Negation before the mention: its scope runs forward to the end of the clause (at most
// kPreScope words).
const std::vector<Seq> kPreNegation = {
    {"not"}, {"n't"}, {"no"}, {"never"}, {"without"}, {"none"}, {"nor"}, {"neither"}, {"nothing"}, {"nobody"},
    {"nowhere"}, {"rather", "than"}, {"instead", "of"}, {"as", "opposed", "to"}, {"in", "place", "of"}, {"ruled", "out"},
    {"rule", "out"}, {"rules", "out"}, {"ruling", "out"}, {"exclude"}, {"excluded"}, {"excludes"}, {"excluding"},
    {"unrelated", "to"}, {"independent", "of"}, {"irrelevant", "to"}, {"absence", "of"}, {"lack", "of"}, {"lacks"},
    {"lacking"}, {"free", "of"}, {"far", "from"}, {"eliminated", "as"}, {"regardless", "of"}};
constexpr std::size_t kPreScope = 12;

// Negation after the mention, reached across at most kPostGap words ending in an auxiliary
// ("X is not", "X in this kernel was never"), or statements that something plays no part.
const std::vector<Seq> kPostNegation = {{"not"}, {"n't"}, {"never"}, {"no"}};
const std::vector<Seq> kPostPredicate = {
    {"ruled", "out"}, {"excluded"}, {"unrelated"}, {"irrelevant"}, {"a", "red", "herring"}, {"not", "involved"},
    {"not", "to", "blame"}, {"no", "role"}, {"no", "effect"}, {"no", "impact"}, {"no", "bearing"}, {"no", "part"},
    {"nothing", "to", "do"}, {"no", "influence"}, {"no", "difference"}, {"no", "contribution"}, {"innocent"},
    {"eliminated"}, {"a", "non-issue"}, {"not", "an", "issue"}, {"not", "a", "factor"}, {"far", "from"}};

// After the mention and a copula ("X is negligible", "X was disabled"): predicates that deny it.
const std::vector<std::string_view> kNegativePredicates = {
    "negligible", "insignificant", "unnecessary", "unneeded", "unaffected", "unchanged", "disabled", "off", "absent",
    "rare", "unused", "unimportant", "irrelevant", "unrelated", "impossible", "minimal", "nonexistent", "harmless",
    "immaterial", "unsupported", "unavailable", "inactive"};
const std::vector<std::string_view> kPredicateAdverbs = {"very", "completely", "entirely", "largely", "mostly", "turned",
                                                         "switched", "fully", "clearly", "simply", "now", "still", "also",
                                                         "quite", "totally", "practically", "essentially"};
// Short-scope triggers: their scope ends at the next comma ("Rather than X, do Y").
const std::vector<std::string_view> kShortScope = {"rather", "instead", "as", "in", "unlike"};
constexpr std::size_t kPostGap = 5;
constexpr std::size_t kClauseReach = 40;

// Look like negations, negate nothing.
const std::vector<Seq> kPseudo = {
    {"not", "only"}, {"not", "just"}, {"not", "merely"}, {"not", "simply"}, {"not", "least"}, {"not", "to", "mention"},
    {"not", "surprisingly"}, {"not", "unexpectedly"}, {"not", "unlike"}, {"no", "doubt"}, {"no", "question"},
    {"no", "wonder"}, {"no", "matter"}, {"without", "doubt"}, {"without", "question"}, {"without", "a", "doubt"},
    {"nothing", "but"}, {"none", "other", "than"}, {"not", "until"}, {"never", "mind"}, {"no", "less", "than"},
    {"no", "fewer", "than"}, {"no", "more", "than"}, {"not", "the", "only"}, {"n't", "the", "only"},
    {"no", "exception"}, {"n't", "only"}, {"n't", "just"}, {"not", "all"}, {"n't", "all"}, {"no", "sooner"},
    {"not", "bad"}, {"never", "been", "clearer"}, {"not", "one", "but"}};

// Words that cancel a preceding "not": "not negligible", "not uncommon", "not unrelated".
const std::vector<std::string_view> kNegativeAdjectives = {
    "negligible", "uncommon", "unusual", "unimportant", "unrelated", "insignificant", "irrelevant", "rare", "trivial",
    "minor", "small", "absent", "impossible", "infrequent", "unexpected", "immaterial", "unreasonable", "innocent",
    "harmless", "benign", "without", "unaffected", "zero", "nothing", "no", "never", "free"};

// Uncertainty anywhere in the mention's clause.
const std::vector<Seq> kHedges = {
    {"might"}, {"may"}, {"could"}, {"possibly"}, {"possible"}, {"perhaps"}, {"maybe"}, {"potentially"}, {"suspect"},
    {"suspects"}, {"suspected"}, {"seems"}, {"seem"}, {"seemed"}, {"appears", "to"}, {"appear", "to"}, {"appeared", "to"}, {"it", "appears"},
    {"apparently"},
    {"unclear"}, {"uncertain"}, {"unsure"}, {"unlikely"}, {"hypothesis"}, {"hypothesize"}, {"hypothesise"},
    {"hypothesized"}, {"speculate"}, {"speculatively"}, {"guess"}, {"presumably"}, {"conceivably"}, {"not", "sure"},
    {"not", "certain"}, {"not", "clear"}, {"not", "necessarily"}, {"n't", "necessarily"}, {"n't", "sure"},
    {"can", "not", "rule", "out"}, {"ca", "n't", "rule", "out"}, {"can", "not", "exclude"}, {"ca", "n't", "exclude"},
    {"not", "ruled", "out"}, {"n't", "ruled", "out"}, {"not", "be", "ruled", "out"}, {"n't", "be", "ruled", "out"},
    {"not", "excluded"}, {"n't", "excluded"}, {"not", "unlikely"}, {"worth", "checking"}, {"worth", "investigating"},
    {"to", "be", "confirmed"}, {"remains", "to", "be", "seen"}, {"candidate"}, {"candidates"}, {"plausible"},
    {"plausibly"}, {"wondering"}, {"suspicion"}, {"perchance"}};

// Conditionals: their scope runs forward to the next comma or clause boundary.
const std::vector<Seq> kConditionals = {{"if"}, {"whether"}, {"unless"}, {"suppose"}, {"supposing"}, {"assuming"},
                                        {"assume"}, {"in", "case"}, {"hypothetically"}, {"were", "it"}, {"had", "it"},
                                        {"what", "if"}, {"should", "it"}, {"provided", "that"}, {"imagine"}};

// Words that end a negation's or hedge's scope: contrast, cause, relative clauses.
const std::vector<std::string_view> kTerminators = {
    "but", "however", "although", "though", "yet", "whereas", "while", "except", "because", "since", "so", "therefore",
    "thus", "hence", "which", "who", "whose", "whom", "where", "when", "then", "nevertheless", "nonetheless", "instead",
    "rather", "actually", "meanwhile", "otherwise", "unlike", "besides", "whereby", "after", "before", "once"};

// After a comma, these start a new clause (", and the hit rate", ", which"): the scope ends.
const std::vector<std::string_view> kClauseStarters = {
    "the", "this", "that", "these", "those", "it", "its", "we", "they", "i", "he", "she", "there", "you", "our", "their",
    "which", "who", "so", "but", "yet", "then", "however", "although", "though", "because", "since", "while", "whereas",
    "instead", "rather", "a", "an", "my", "your", "what", "here", "now"};

const std::vector<std::string_view> kAuxiliaries = {"is", "are", "was", "were", "be", "been", "being", "am", "'s", "'re",
                                                    "do", "does", "did", "has", "have", "had", "can", "ca", "could",
                                                    "should", "would", "will", "wo", "must", "may", "might", "shall"};
const std::vector<std::string_view> kCopulas = {"is", "are", "was", "were", "be", "been", "being", "am", "'s", "'re"};

// After "X does not", the verbs that deny X's part ("does not matter"), by stem; other verbs say
// something about X ("the cache does not evict the sinks" still names the cache).
const std::vector<std::string_view> kDenyingVerbs = {
    "matter", "appli", "occur", "happen", "exist", "explain", "caus", "contribut", "affect", "account", "play", "aris",
    "involv", "limit", "domin", "show", "impact", "trigger", "seem", "make", "lead", "hold", "produc", "come", "kick",
    "appear", "fire", "take", "slow", "hurt", "bottleneck", "factor", "role", "effect", "bear", "influenc", "relat",
    "connect", "relev", "part", "reason", "sourc", "culprit", "problem", "issu", "there", "need", "use", "requir",
    "help", "chang", "drop", "improv", "work", "fix", "solv", "reduc", "increas", "scale", "fit", "overflow",
    "underflow", "diverg", "stall", "fail", "spill", "degrad", "regress", "interfer", "benefit", "speed", "save"};

// Word lists as hash sets and sequence lists indexed by their first word, built once (thread-safe
// static initialisation): a mention's clause is scanned token by token, so each lookup must be
// one hash probe.
using WordSet = std::unordered_set<std::string_view>;
using FirstWordIndex = std::unordered_map<std::string_view, std::vector<const Seq*>>;

const std::unordered_map<const void*, WordSet>& word_sets() {
  static const std::unordered_map<const void*, WordSet> sets = [] {
    std::unordered_map<const void*, WordSet> m;
    for (const auto* xs : {&kNegativeAdjectives, &kTerminators, &kClauseStarters, &kAuxiliaries, &kCopulas, &kDenyingVerbs,
                           &kNegativePredicates, &kPredicateAdverbs, &kShortScope})
      m.emplace(xs, WordSet(xs->begin(), xs->end()));
    return m;
  }();
  return sets;
}

const std::unordered_map<const void*, FirstWordIndex>& seq_indexes() {
  static const std::unordered_map<const void*, FirstWordIndex> indexes = [] {
    std::unordered_map<const void*, FirstWordIndex> m;
    for (const auto* list : {&kPreNegation, &kPostNegation, &kPostPredicate, &kPseudo, &kHedges, &kConditionals}) {
      FirstWordIndex idx;
      for (const Seq& q : *list) idx[q[0]].push_back(&q);
      m.emplace(list, std::move(idx));
    }
    return m;
  }();
  return indexes;
}

bool in(std::string_view w, const std::vector<std::string_view>& xs) { return word_sets().at(&xs).count(w) > 0; }
const FirstWordIndex& index_of(const std::vector<Seq>& list) { return seq_indexes().at(&list); }

struct Cursor {
  const Sentence& s;
  std::string_view w(std::size_t k) const { return k < s.tokens.size() ? std::string_view(s.tokens[k].lower) : std::string_view(); }
  bool punct(std::size_t k) const { return k < s.tokens.size() && s.tokens[k].kind == Token::Kind::punct; }
  bool at(std::size_t k, const Seq& q) const {
    if (k + q.size() > s.tokens.size()) return false;
    for (std::size_t j = 0; j < q.size(); ++j)
      if (s.tokens[k + j].lower != q[j]) return false;
    return true;
  }
  // The longest sequence of `list` starting at k (its length), or 0.
  std::size_t match(std::size_t k, const std::vector<Seq>& list) const {
    if (k >= s.tokens.size() || s.tokens[k].kind != Token::Kind::word) return 0;
    const auto& idx = index_of(list);
    auto it = idx.find(s.tokens[k].lower);
    if (it == idx.end()) return 0;
    std::size_t best = 0;
    for (const Seq* q : it->second)
      if (q->size() > best && at(k, *q)) best = q->size();
    return best;
  }
  bool clause_punct(std::size_t k) const {
    if (!punct(k)) return false;
    std::string_view p = w(k);
    return p == "." || p == "?" || p == "!" || p == ";" || p == ":" || p == "(" || p == ")" || p == "--" || p == "|" ||
           p == "..." || p == "-";
  }
  // A comma that starts a new clause rather than continuing a list.
  bool clause_comma(std::size_t k) const {
    if (w(k) != ",") return false;
    std::string_view nx = w(k + 1);
    if (nx == "and" || nx == "or" || nx == "nor") return in(w(k + 2), kClauseStarters);
    return in(nx, kClauseStarters);
  }
  bool boundary(std::size_t k) const {
    return clause_punct(k) || clause_comma(k) ||
           (s.tokens[k].kind == Token::Kind::word && in(w(k), kTerminators) && !at(k, {"rather", "than"}) &&
            !at(k, {"instead", "of"}) && !at(k, {"so", "that"}));
  }
  // Part of a pseudo-trigger starting at or just before k.
  bool pseudo(std::size_t k) const {
    for (std::size_t back = 0; back <= 1 && back <= k; ++back)
      if (match(k - back, kPseudo) > back) return true;
    // "not negligible", "isn't uncommon": the second negative cancels the first.
    if ((w(k) == "not" || w(k) == "n't" || w(k) == "never") && in(w(k + 1), kNegativeAdjectives) && w(k + 1) != "no") return true;
    return false;
  }
};

bool is_negator(std::string_view w) { return w == "not" || w == "n't" || w == "never" || w == "no"; }

}  // namespace

Judgement judge_mention(const Sentence& s, std::size_t b, std::size_t e) {
  Cursor c{s};
  const std::size_t n = s.tokens.size();
  Judgement j;
  if (s.question) {
    j.polarity = Polarity::hedged;
    j.trigger_begin = n ? n - 1 : 0;
    j.trigger_end = n;
    return j;
  }
  // The clause around the mention, at most kClauseReach tokens either side: the work per mention
  // is bounded whatever the sentence (scopes are 12 words; a hedge 40 tokens away is another clause
  // in all but name).
  std::size_t L = b;
  while (L > 0 && b - L < kClauseReach && !c.boundary(L - 1)) --L;
  std::size_t R = e;
  while (R < n && R - e < kClauseReach && !c.boundary(R)) ++R;
  // A terminator just before the clause ("but X", "rather X") belongs to it only as a limit.

  // Hedges anywhere in the clause; conditionals before the mention up to the nearest comma.
  for (std::size_t k = L; k < R; ++k) {
    if (k >= b && k < e) continue;
    std::size_t len = c.match(k, kHedges);
    if (!len) continue;
    // "could not", "can't": an inability stated, not a possibility ("we could not find X").
    if ((c.w(k) == "could" || c.w(k) == "can") && (c.w(k + 1) == "not" || c.w(k + 1) == "n't") && len == 1) continue;
    j.polarity = Polarity::hedged;
    j.trigger_begin = k;
    j.trigger_end = k + len;
    return j;
  }
  for (std::size_t k = b; k-- > L;) {
    if (c.w(k) == ",") break;
    std::size_t len = c.match(k, kConditionals);
    if (len) {
      j.polarity = Polarity::hedged;
      j.trigger_begin = k;
      j.trigger_end = k + len;
      return j;
    }
  }

  // A hypothetical: "would"/"should" in the clause and a conditional in the sentence ("X would
  // only matter if ...", "padding would fix it if ...").
  for (std::size_t k = L; k < R; ++k) {
    if (c.w(k) != "would" && c.w(k) != "should") continue;
    std::size_t from = b > kClauseReach ? b - kClauseReach : 0, to = std::min(n, e + kClauseReach);
    for (std::size_t m = from; m < to; ++m)
      if (std::size_t len = c.match(m, kConditionals)) {
        j.polarity = Polarity::hedged;
        j.trigger_begin = m;
        j.trigger_end = m + len;
        return j;
      }
    break;
  }

  // Negations: the nearest one before the mention (a later trigger ends an earlier one's scope:
  // "no X, no Y and no Z" is three denials, not a double negation), plus one after it. Two that
  // both cover the mention cancel out ("not without X" is handled as a pseudo-trigger).
  int count = 0;
  std::size_t tb = 0, te = 0;
  bool seen_negation = false, pre = false;
  for (std::size_t k = L; k < b; ++k) {
    std::size_t len = c.match(k, kPreNegation);
    if (!len) continue;
    if (c.pseudo(k)) {
      // "not without X": the two negations cancel; skip the second as well.
      if (in(c.w(k + 1), kNegativeAdjectives) && c.match(k + 1, kPreNegation)) ++k;
      pre = false;
      continue;
    }
    if (c.w(k) == "no" && len == 1 && c.punct(k + 1)) continue;  // "No, ..." answers; it negates nothing
    if (c.w(k) == "nor" && seen_negation) continue;  // "neither X nor Y", "not X nor Y": one negation
    // Within the window: the words between the trigger and the mention; short-scope triggers
    // ("rather than", "instead of") stop at a comma.
    std::size_t words = 0;
    bool comma = false;
    for (std::size_t m = k + len; m < b; ++m) {
      words += s.tokens[m].kind != Token::Kind::punct;
      comma = comma || c.w(m) == ",";
    }
    seen_negation = true;
    if (words > kPreScope || (comma && len > 1 && in(c.w(k), kShortScope))) {
      pre = false;
      continue;
    }
    pre = true;
    tb = k;
    te = k + len;
    k += len - 1;
  }
  count += pre;
  for (std::size_t k = e; k < R; ++k) {
    std::size_t gap = k - e;
    if (gap > kPostGap + 3) break;
    std::size_t len = c.match(k, kPostPredicate);
    if (len && !c.pseudo(k) && gap <= kPostGap) {
      ++count;
      tb = k;
      te = k + len;
      break;
    }
    if (gap >= 1 && gap <= kPostGap && in(c.w(k - 1), kCopulas)) {
      std::size_t p = k;
      while (p < R && in(c.w(p), kPredicateAdverbs)) ++p;
      if (p < R && in(c.w(p), kNegativePredicates) && !(c.w(p) == "off" && p + 1 < R && s.tokens[p + 1].kind == Token::Kind::word)) {
        ++count;
        tb = p;
        te = p + 1;
        break;
      }
    }
    // "X never occurs", "X no longer appears": the adverb denies X without an auxiliary.
    if ((c.w(k) == "never" || c.at(k, {"no", "longer"})) && gap <= kPostGap && !c.pseudo(k)) {
      std::size_t v = k + (c.w(k) == "never" ? 1 : 2);
      if (v < n && in(s.tokens[v].stem, kDenyingVerbs)) {
        ++count;
        tb = k;
        te = v;
        break;
      }
    }
    if (c.match(k, kPostNegation) && is_negator(c.w(k)) && !c.pseudo(k) && gap >= 1 && gap <= kPostGap &&
        in(c.w(k - 1), kAuxiliaries)) {
      // "X is not ...": a copula denies X; "X does not <verb>" only with a verb of being or causing.
      bool copula = in(c.w(k - 1), kCopulas) || (c.w(k) == "not" && c.w(k + 1) == "be") || c.w(k + 1) == "been" ||
                    c.at(k, {"no", "longer"});
      std::size_t v = k + 1;
      while (v < n && (c.w(v) == "really" || c.w(v) == "actually" || c.w(v) == "even" || c.w(v) == "seem" || c.w(v) == "to"))
        ++v;
      bool denying = v < n && in(s.tokens[v].stem, kDenyingVerbs);
      if (copula || denying) {
        ++count;
        tb = k;
        te = k + 1 + (c.at(k, {"no", "longer"}) ? 1 : 0);
        break;
      }
    }
  }
  if (count % 2 == 1) {
    j.polarity = Polarity::negated;
    j.trigger_begin = tb;
    j.trigger_end = te;
  }
  return j;
}

}  // namespace rubric::text
