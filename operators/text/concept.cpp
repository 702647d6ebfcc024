#include "operators/text/concept.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <unordered_map>

#include "operators/error.hpp"
#include "operators/text/analysed_text.hpp"
#include "operators/text/document.hpp"

namespace rubric::text {

namespace {

constexpr std::size_t kMaxOccurrencesPerSentence = 32;  // per concept: bounds `near`'s pairs

struct Occurrence {
  std::size_t b, e;  // tokens of the sentence
  Judgement judgement;
  Polarity polarity;
  const Concept* leaf;  // the member that matched: a phrase, or the `near` pair
  bool judged;  // judgement and polarity are set (judging is deferred until a mention counts)
};

struct NodeState {
  const Concept* concept = nullptr;
  std::vector<std::size_t> children;  // node indices
  std::vector<Occurrence> occ;        // in the current sentence
  std::array<std::optional<Mention>, 4> first;  // per polarity, the first mention in the text
  std::optional<Mention> first_ambiguous;       // the first mention read from an ambiguous construction
  std::optional<Mention> topic;                 // the first topic heading naming it: decides only alone
  std::size_t count = 0;
  Polarity aggregated = Polarity::absent;
  bool counted = false;  // its mentions make a polarity of their own (a root, a member of any/all, a near)
};

// Most tokens start no phrase: a bitmap of the digests of the phrases' first stems turns them away
// from their start keys alone, before the token or the hash table is read. It never turns a
// start away.
class StartFilter {
 public:
  void add(std::string_view stem) {
    const std::uint32_t d = stem_digest(stem), j = d & 0x3FFF;
    stems_[d >> 6] |= std::uint64_t{1} << (d & 63);
    joined_[j >> 6] |= std::uint64_t{1} << (j & 63);
  }
  // The stem of a token with this start key may start a phrase; its joined stem may.
  bool stem_may_start(std::uint32_t key) const { return (key & kStemStarts) && bit(stems_, stem_bits(key)); }
  bool joined_may_start(std::uint32_t key) const { return (key & kJoinedStarts) && bit(joined_, joined_bits(key)); }

 private:
  template <std::size_t N>
  static bool bit(const std::array<std::uint64_t, N>& bits, std::uint32_t d) {
    return (bits[d >> 6] >> (d & 63)) & 1;
  }
  std::array<std::uint64_t, 512> stems_{};   // one per 15-bit digest
  std::array<std::uint64_t, 256> joined_{};  // one per 14-bit digest of a joined stem
};

Polarity stronger(Polarity a, Polarity b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

// Near's two sides: hedged if either is, negated if either is.
Polarity combine(Polarity a, Polarity b) {
  if (a == Polarity::hedged || b == Polarity::hedged) return Polarity::hedged;
  if (a == Polarity::negated || b == Polarity::negated) return Polarity::negated;
  return Polarity::affirmed;
}

}  // namespace

ConceptPtr make_phrase(std::string_view text, Stemmer& stemmer) {
  SentenceStream stream(text, stemmer, false);
  Sentence s;
  std::vector<Token> toks;
  while (stream.next(s))
    for (std::size_t k = 0; k < s.tokens.size(); ++k) {
      Token& t = s.tokens[k];
      // A dot inside the phrase is kept ("C. elegans", "Dr. Jones", "U.S. office": the text has it
      // too), and may be left out (below); one that ends it is not.
      const bool mark = t.kind == Token::Kind::punct && (t.lower == "." || t.lower == "?" || t.lower == "!");
      if (mark && k + 1 == s.tokens.size()) continue;
      if (mark) t.inner_dot = true;
      toks.push_back(t);
    }
  bool words = false;
  for (const auto& t : toks) words = words || t.kind != Token::Kind::punct;
  if (!words) throw OperatorError(fmt::format("the phrase \"{}\" has no words to match", text));
  auto c = std::make_shared<Concept>();
  c->kind = Concept::Kind::phrase;
  c->label = std::string(text);
  // Every way of writing its hyphenated pairs: "pre-fill" matches "pre fill", "pre-fill", "prefill".
  std::vector<std::pair<std::vector<std::string>, bool>> alts = {{{}, false}};  // stems, next token already joined
  for (std::size_t k = 0; k < toks.size(); ++k) {
    std::vector<std::pair<std::vector<std::string>, bool>> next;
    for (auto& [alt, skip] : alts) {
      if (skip) {
        next.push_back({alt, false});
        continue;
      }
      auto split = alt;
      split.push_back(toks[k].stem);
      next.push_back({std::move(split), false});
      if (toks[k].inner_dot && alts.size() < 16) next.push_back({alt, false});  // "C elegans" written without it
      if (toks[k].hyphen_next && k + 1 < toks.size() && alts.size() < 16) {
        auto joined = alt;
        joined.push_back(stemmer.stem(toks[k].lower + toks[k + 1].lower));
        next.push_back({std::move(joined), true});
      }
    }
    alts = std::move(next);
  }
  for (auto& [alt, skip] : alts) c->alternatives.push_back(std::move(alt));
  // A phrase written as code ("expandable_segments", "--num-gpu-blocks-override", "std::vector",
  // "tokens/s") also matches it in a code span, which reads it as words split at every character
  // that is neither a letter nor a digit (document.hpp).
  if (text.find_first_of("_=:/()[]<>#*&|\\") != std::string_view::npos || text.rfind("-", 0) == 0 ||
      text.rfind(".", 0) == 0) {
    std::vector<std::string> words;
    for (const CodeWord& cw : code_words(text)) {
      std::string lower(text.substr(cw.begin, cw.end - cw.begin));
      for (char& ch : lower) ch = (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
      words.push_back(cw.kind == CodeWord::Kind::word ? stemmer.stem(lower) : lower);
    }
    bool known = words.empty();
    for (const auto& alt : c->alternatives) known = known || alt == words;
    if (!known) {
      c->code_only_from = c->alternatives.size();
      c->alternatives.push_back(std::move(words));
    }
  }
  return c;
}

ConceptPtr make_any(std::vector<ConceptPtr> parts, std::string label) {
  auto c = std::make_shared<Concept>();
  c->kind = Concept::Kind::any;
  c->parts = std::move(parts);
  c->label = std::move(label);
  return c;
}

ConceptPtr make_all(std::vector<ConceptPtr> parts, std::string label) {
  auto c = std::make_shared<Concept>();
  c->kind = Concept::Kind::all;
  c->parts = std::move(parts);
  c->label = std::move(label);
  return c;
}

ConceptPtr make_near(ConceptPtr a, ConceptPtr b, std::size_t window) {
  auto c = std::make_shared<Concept>();
  c->kind = Concept::Kind::near;
  c->window = window;
  c->parts = {std::move(a), std::move(b)};
  return c;
}

std::string describe(const Concept& c) {
  switch (c.kind) {
    case Concept::Kind::phrase: return fmt::format("\"{}\"", c.label);
    case Concept::Kind::near:
      return fmt::format("{} near{} {}", describe(*c.parts[0]), c.window ? fmt::format("({})", c.window) : "",
                         describe(*c.parts[1]));
    case Concept::Kind::any:
    case Concept::Kind::all: {
      if (!c.label.empty()) return c.label;
      std::string s = c.kind == Concept::Kind::any ? "any [" : "all [";
      for (std::size_t i = 0; i < c.parts.size(); ++i) {
        if (i == 4) {
          s += fmt::format(", ... {} more", c.parts.size() - 4);
          break;
        }
        s += (i ? ", " : "") + describe(*c.parts[i]);
      }
      return s + "]";
    }
  }
  return "?";
}

std::vector<Finding> analyse(std::string_view text, const std::vector<ConceptPtr>& concepts, Stemmer& stemmer) {
  AnalysedText streamed(text, stemmer, nullptr);
  return analyse(streamed, concepts);
}

std::vector<Finding> analyse(AnalysedText& text, const std::vector<ConceptPtr>& concepts) {
  // Flatten the concepts into nodes, children before parents; shared sub-concepts once.
  std::vector<NodeState> nodes;
  std::unordered_map<const Concept*, std::size_t> index;
  std::vector<std::size_t> roots;
  auto add = [&](auto&& self, const Concept* c) -> std::size_t {
    auto it = index.find(c);
    if (it != index.end()) return it->second;
    std::vector<std::size_t> kids;
    for (const auto& p : c->parts) kids.push_back(self(self, p.get()));
    NodeState st;
    st.concept = c;
    st.children = std::move(kids);
    nodes.push_back(std::move(st));
    index[c] = nodes.size() - 1;
    return nodes.size() - 1;
  };
  for (const auto& c : concepts) roots.push_back(add(add, c.get()));
  // Which nodes need a polarity of their own: roots, members of a counted any/all, near nodes. The
  // two sides of a `near` (and an any/all standing as a side) need one only where they are also
  // counted elsewhere: a side's mentions are judged when they pair, so a common word ("block",
  // "order") costs a lookup, not a judgement.
  for (std::size_t r : roots) nodes[r].counted = true;
  for (std::size_t i = nodes.size(); i-- > 0;) {  // parents come after their children: top down
    NodeState& st = nodes[i];
    if (st.concept->kind == Concept::Kind::near) st.counted = true;
    if (st.counted && (st.concept->kind == Concept::Kind::any || st.concept->kind == Concept::Kind::all))
      for (std::size_t ch : st.children) nodes[ch].counted = true;
  }
  // Phrases by their first stem.
  // One hash probe per token: stem → every (node, alternative) starting with it.
  std::unordered_map<std::string_view, std::vector<std::pair<std::size_t, std::size_t>>> starts;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].concept->kind == Concept::Kind::phrase)
      for (std::size_t a = 0; a < nodes[i].concept->alternatives.size(); ++a)
        starts[nodes[i].concept->alternatives[a][0]].emplace_back(i, a);
  auto filter = std::make_unique<StartFilter>();
  for (const auto& [stem, where] : starts) filter->add(stem);
  // Composite nodes whose children had no mention in a sentence are skipped: the work per
  // sentence follows the mentions in it, not the size of the vocabulary.
  std::vector<std::size_t> touched;  // nodes with occurrences in the current sentence
  std::vector<char> has_occ(nodes.size(), 0);

  AnalysedText::Reader reader(text);
  const Sentence* sp = nullptr;  // the sentence being read
  auto record = [&](NodeState& st, const Occurrence& o) {
    if (st.occ.size() >= kMaxOccurrencesPerSentence) return;
    if (st.occ.empty()) {
      std::size_t i = static_cast<std::size_t>(&st - nodes.data());
      has_occ[i] = 1;
      touched.push_back(i);
    }
    st.occ.push_back(o);
  };
  auto match_at = [&](const std::vector<std::string>& alt, std::size_t k) -> std::size_t {
    const Sentence& s = *sp;
    std::size_t p = k;
    for (const std::string& stem : alt) {
      // An abbreviation's dot the phrase leaves out: "C elegans" names "C. elegans".
      if (p > k && p < s.tokens.size() && s.tokens[p].inner_dot && stem != ".") ++p;
      if (p >= s.tokens.size()) return std::string::npos;
      const Token& t = s.tokens[p];
      if (t.kind == Token::Kind::code) return std::string::npos;
      if (t.stem == stem) ++p;
      else if (t.hyphen_next && t.joined == stem) p += 2;
      else return std::string::npos;
    }
    return p;
  };
  std::vector<std::size_t> words_before;  // per token of the sentence: the words before it
  // Judgements of this sentence by mention span: concepts sharing a phrase judge it once.
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, Judgement>> memo;
  auto judge = [&](Occurrence& o) {
    if (o.judged) return;
    auto key = std::make_pair(o.b, o.e);
    auto it = std::find_if(memo.begin(), memo.end(), [&](const auto& m) { return m.first == key; });
    if (it == memo.end()) {
      memo.emplace_back(key, judge_mention(*sp, o.b, o.e));
      it = memo.end() - 1;
    }
    o.judgement = it->second;
    o.polarity = o.judgement.polarity;
    o.judged = true;
  };
  while ((sp = reader.next())) {
    const Sentence& s = *sp;
    memo.clear();
    for (std::size_t i : touched) {
      nodes[i].occ.clear();
      has_occ[i] = 0;
    }
    touched.clear();
    const std::uint32_t* keys = reader.start_keys();
    for (std::size_t k = 0; k < s.tokens.size(); ++k) {
      // Code has no start key; a token whose stems start no phrase is passed over unread.
      const std::uint32_t sk = keys[k];
      const bool stem_may = filter->stem_may_start(sk), joined_may = filter->joined_may_start(sk);
      if (!stem_may && !joined_may) continue;
      const Token& t = s.tokens[k];
      for (const std::string* key : {&t.stem, &t.joined}) {
        if (!(key == &t.joined ? joined_may : stem_may)) continue;
        auto found = starts.find(std::string_view(*key));
        if (found == starts.end()) continue;
        for (auto [ni, ai] : found->second) {
          if (nodes[ni].occ.size() >= kMaxOccurrencesPerSentence) continue;  // enough of this phrase here
          std::size_t e = match_at(nodes[ni].concept->alternatives[ai], k);
          if (e == std::string::npos) continue;
          if (ai >= nodes[ni].concept->code_only_from) {  // an identifier's words: in a code span only
            bool code = true;
            for (std::size_t m = k; m < e && code; ++m) code = s.tokens[m].in_code || s.tokens[m].kind == Token::Kind::punct;
            if (!code) continue;
          }
          bool dup = false;
          for (const auto& o : nodes[ni].occ) dup = dup || (o.b == k && o.e == e);
          if (dup) continue;
          record(nodes[ni], Occurrence{k, e, Judgement{}, Polarity::affirmed, nodes[ni].concept, false});
        }
      }
    }
    if (touched.empty()) continue;
    words_before.assign(s.tokens.size() + 1, 0);
    for (std::size_t k = 0; k < s.tokens.size(); ++k) words_before[k + 1] = words_before[k] + ((keys[k] & kWord) != 0);
    // Composite nodes, children first (flattening order).
    for (auto& st : nodes) {
      const Concept& c = *st.concept;
      if (c.kind == Concept::Kind::phrase && !has_occ[static_cast<std::size_t>(&st - nodes.data())]) continue;
      if (c.kind != Concept::Kind::phrase) {
        bool any_child = false;
        for (std::size_t ch : st.children) any_child = any_child || has_occ[ch];
        if (!any_child) continue;
      }
      if (c.kind == Concept::Kind::any || c.kind == Concept::Kind::all) {
        for (std::size_t ch : st.children)
          for (auto& o : nodes[ch].occ) {
            if (st.counted) judge(o);  // a side of a `near` is judged only where it pairs
            record(st, o);
          }
      } else if (c.kind == Concept::Kind::near) {
        auto& A = nodes[st.children[0]].occ;
        auto& B = nodes[st.children[1]].occ;
        for (auto& x : A)
          for (auto& y : B) {
            if (st.occ.size() >= kMaxOccurrencesPerSentence) break;
            if (x.b < y.e && y.b < x.e) continue;  // overlapping: one mention, not two
            std::size_t gap_b = std::min(x.e, y.e), gap_e = std::max(x.b, y.b);
            std::size_t words = words_before[gap_e] - words_before[gap_b];
            if (c.window && words > c.window) continue;
            judge(x);
            judge(y);
            Occurrence o = x;
            o.leaf = &c;
            o.b = std::min(x.b, y.b);
            o.e = std::max(x.e, y.e);
            o.polarity = combine(x.polarity, y.polarity);
            if (o.polarity != x.polarity) o.judgement = y.judgement;
            if (o.judgement.ambiguous.empty()) o.judgement.ambiguous = x.judgement.ambiguous.empty() ? y.judgement.ambiguous : x.judgement.ambiguous;
            // A side hedged on a clear reading settles it: however the other side were read, the
            // pair is hedged ("We could try to pad the tile to 33 columns").
            const bool x_settles = x.polarity == Polarity::hedged && x.judgement.ambiguous.empty();
            const bool y_settles = y.polarity == Polarity::hedged && y.judgement.ambiguous.empty();
            if (x_settles || y_settles) o.judgement = x_settles ? x.judgement : y.judgement;
            o.judgement.polarity = o.polarity;
            record(st, o);
          }
      }
      if (!st.counted) continue;
      for (auto& o : st.occ) {
        judge(o);
        ++st.count;
        // Per polarity the first mention read clearly, else the first: a finding rests on a clear
        // reading where it has one.
        auto& slot = st.first[static_cast<int>(o.polarity)];
        const bool clear = o.judgement.ambiguous.empty();
        const bool replaces = !slot || (clear && !slot->ambiguous.empty());
        if (!replaces && (clear || st.first_ambiguous)) continue;
        Mention m;
        m.polarity = o.polarity;
        m.phrase = describe(*o.leaf);
        m.sentence_begin = s.begin;
        m.sentence_end = s.end;
        m.match_begin = s.tokens[o.b].begin;
        m.match_end = s.tokens[o.e - 1].end;
        if (o.judgement.trigger_end > o.judgement.trigger_begin && o.judgement.trigger_end <= s.tokens.size()) {
          m.trigger_begin = s.tokens[o.judgement.trigger_begin].begin;
          m.trigger_end = s.tokens[o.judgement.trigger_end - 1].end;
        }
        m.ambiguous = o.judgement.ambiguous;
        if (o.judgement.topic) {  // "## Bank conflicts": kept apart, for a text that says nothing else of it
          if (!st.topic) st.topic = std::move(m);
          continue;
        }
        if (!clear && !st.first_ambiguous) st.first_ambiguous = m;
        if (replaces) slot = std::move(m);
      }
    }
  }
  // A topic heading decides only a phrase the text mentions nowhere else: hedged, in doubt.
  for (auto& st : nodes)
    if (st.topic && !st.first[1] && !st.first[2] && !st.first[3]) {
      st.first[static_cast<int>(Polarity::hedged)] = st.topic;
      if (!st.first_ambiguous) st.first_ambiguous = st.topic;
    }
  // Text-level polarity, children first.
  for (auto& st : nodes) {
    const Concept& c = *st.concept;
    if (c.kind == Concept::Kind::phrase || c.kind == Concept::Kind::near) {
      for (int p = 3; p >= 1; --p)
        if (st.first[p]) {
          st.aggregated = static_cast<Polarity>(p);
          break;
        }
    } else if (c.kind == Concept::Kind::any) {
      for (std::size_t ch : st.children) st.aggregated = stronger(st.aggregated, nodes[ch].aggregated);
    } else {
      bool absent = false, all_affirmed = true, negated = false;
      for (std::size_t ch : st.children) {
        Polarity p = nodes[ch].aggregated;
        absent = absent || p == Polarity::absent;
        all_affirmed = all_affirmed && p == Polarity::affirmed;
        negated = negated || p == Polarity::negated;
      }
      st.aggregated = absent || st.children.empty() ? Polarity::absent
                      : all_affirmed                ? Polarity::affirmed
                      : negated                     ? Polarity::negated
                                                    : Polarity::hedged;
    }
  }
  std::vector<Finding> out;
  for (std::size_t r : roots) {
    const NodeState& st = nodes[r];
    Finding f;
    f.polarity = st.aggregated;
    f.mentions = st.count;
    f.composite = st.concept->kind == Concept::Kind::any || st.concept->kind == Concept::Kind::all;
    if (f.polarity != Polarity::absent) {
      // The deciding mention: the first with the finding's polarity, else the first of any.
      f.deciding = st.first[static_cast<int>(f.polarity)];
      for (int p = 3; p >= 1 && !f.deciding; --p) f.deciding = st.first[p];
      if (f.deciding && !f.deciding->ambiguous.empty()) f.ambiguous = f.deciding;
      else if (f.polarity != Polarity::affirmed) f.ambiguous = st.first_ambiguous;
    }
    if (st.concept->kind == Concept::Kind::any || st.concept->kind == Concept::Kind::all)
      for (std::size_t ch : st.children) {
        f.parts.emplace_back(describe(*nodes[ch].concept), nodes[ch].aggregated);
        // Every member of an `all` decides it: each one's sentence is evidence.
        if (st.concept->kind == Concept::Kind::all) f.part_deciding.push_back(nodes[ch].first[static_cast<int>(nodes[ch].aggregated)]);
      }
    out.push_back(std::move(f));
  }
  return out;
}

std::string explain(std::string_view text, const Finding& f) {
  if (!f.deciding) {
    // An `all` with some members mentioned and others not is absent as a whole, not unmentioned.
    const bool some = std::any_of(f.parts.begin(), f.parts.end(), [](const auto& p) { return p.second != Polarity::absent; });
    return some ? "not every member mentioned" : "not mentioned";
  }
  const Mention& m = *f.deciding;
  const char* verb = m.polarity == Polarity::negated ? "denied" : m.polarity == Polarity::hedged ? "hedged" : "stated";
  std::string sentence;
  std::string trigger;
  if (m.trigger_end > m.trigger_begin && m.trigger_begin >= m.sentence_begin && m.trigger_end <= m.sentence_end) {
    trigger = quote(text, m.trigger_begin, m.trigger_end, 60);
    std::string before = quote(text, m.sentence_begin, m.trigger_begin, 200);
    std::string after = quote(text, m.trigger_end, m.sentence_end, 200);
    // The quote keeps the spaces around the marked trigger as the text has them.
    // Emphasis around the trigger ("**not**") is dropped from the quote; look past it for the space.
    std::size_t pb = m.trigger_begin, pa = m.trigger_end;
    while (pb > m.sentence_begin && (text[pb - 1] == '*' || text[pb - 1] == '_')) --pb;
    while (pa < m.sentence_end && (text[pa] == '*' || text[pa] == '_')) ++pa;
    bool sp_before = pb > m.sentence_begin && std::isspace(static_cast<unsigned char>(text[pb - 1]));
    bool sp_after = pa < m.sentence_end && std::isspace(static_cast<unsigned char>(text[pa]));
    sentence = before + (sp_before && !before.empty() ? " " : "") + "[" + trigger + "]" +
               (sp_after && !after.empty() ? " " : "") + after;
  } else {
    sentence = quote(text, m.sentence_begin, m.sentence_end, 240);
  }
  // A concept names the member that matched: "stated by "requests" near(6) "evicted" in ...".
  std::string s = f.composite ? fmt::format("{} by {} in \"{}\"", verb, m.phrase, sentence) : fmt::format("{} in \"{}\"", verb, sentence);
  if (!trigger.empty()) s += fmt::format(" (trigger: {})", trigger);
  if (f.mentions > 1) s += fmt::format("; {} mentions in all", f.mentions);
  if (f.ambiguous) {
    s += fmt::format("; ambiguous: {}", f.ambiguous->ambiguous);
    if (f.ambiguous->sentence_begin != m.sentence_begin)
      s += fmt::format(" in \"{}\"", quote(text, f.ambiguous->sentence_begin, f.ambiguous->sentence_end, 160));
  }
  return s;
}

}  // namespace rubric::text
