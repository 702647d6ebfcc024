// `text mentions any/all phrases`: the phrases searched in the folded text, each found one shown
// with the words around it.
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/evaluator.hpp"
#include "interpreter/text_match.hpp"
#include "interpreter/verdicts.hpp"

namespace rubric {

namespace {

// A long text is folded once per run, however many `mentions` search it (criteria searching one
// answer share the fold); the cache entry keeps the string alive, so its address stays its key.
struct FoldedEntry {
  Value text;
  FoldedText folded;
};

std::shared_ptr<const FoldedText> folded_text(Evaluator& ev, const Value& text) {
  constexpr std::size_t kCacheFrom = 64 * 1024;
  const std::string& s = text.as_string();
  if (s.size() < kCacheFrom) return std::make_shared<const FoldedText>(s);
  const std::string key = fmt::format("folded:{}", static_cast<const void*>(&s));
  auto it = ev.cache.find(key);
  if (it == ev.cache.end()) it = ev.cache.emplace(key, std::make_shared<const FoldedEntry>(FoldedEntry{text, FoldedText(s)})).first;
  auto entry = std::static_pointer_cast<const FoldedEntry>(it->second);
  return std::shared_ptr<const FoldedText>(entry, &entry->folded);
}

// The phrases `mentions` searches for, each a string that asks something of the text; an error
// outcome when the list is empty, holds a blank phrase or something else.
std::optional<CheckOutcome> read_phrases(Evaluator& ev, const ast::Mentions& m, const Value& p, const EnvPtr& env,
                                         std::vector<std::string>& phrases) {
  if (p.is(ValueKind::string)) {
    phrases.push_back(p.as_string());
  } else if (p.is(ValueKind::list)) {
    for (const auto& item : p.as_list()) {
      if (!item.is(ValueKind::string))
        return outcome_of_error(ev.error_at(*m.phrases, env, fmt::format("'mentions' phrases must be strings, found {}", item.repr(5)),
                                            owner_of(item)));
      phrases.push_back(item.as_string());
    }
  } else {
    return outcome_of_error(ev.error_at(*m.phrases, env, fmt::format("'mentions' needs a string or a list of strings, got a {}", p.kind_name()),
                                        owner_of(p)));
  }
  // No phrase, or a blank one, asks nothing of the answer: `mentions any []` would FAIL every
  // answer and `mentions all []` PASS it, whatever it says.
  if (phrases.empty())
    return outcome_of_error(ev.error_at(*m.phrases, env, fmt::format("'mentions {}' of an empty list asks nothing of the text",
                                                                     m.mode == ast::MentionMode::all ? "all" : "any"),
                                        owner_of(p)));
  for (const auto& ph : phrases)
    if (ph.find_first_not_of(" \t\r\n\f\v") == std::string::npos)
      return outcome_of_error(ev.error_at(*m.phrases, env, fmt::format("'mentions' of a blank phrase (\"{}\") asks nothing of the text", ph),
                                          owner_of(p)));
  return std::nullopt;
}

}  // namespace

CheckOutcome Evaluator::decide_mentions(const ast::Mentions& m, const EnvPtr& env) {
  Value t = eval(*m.text, env);
  if (t.is_error()) return outcome_of_error(t);
  if (!t.is(ValueKind::string))
    return outcome_of_error(error_at(*m.text, env, fmt::format("'mentions' searches a string, got a {}{}", t.kind_name(),
                                                               candidate_value_note(t, m.text.get(), env)),
                                     owner_of(t)));
  Value p = eval(*m.phrases, env);
  if (p.is_error()) return outcome_of_error(p);
  if (auto held = p.held_error()) return outcome_of_error(*held);
  std::vector<std::string> phrases;
  if (auto bad = read_phrases(*this, m, p, env, phrases)) return *bad;
  const auto folded_ptr = folded_text(*this, t);
  const FoldedText& folded = *folded_ptr;
  std::vector<std::string> ev, found, missing;
  for (const auto& ph : phrases) {
    charge_steps(t.as_string().size() / 1024 + 1);  // one step per KiB searched, as the text builtins
    if (auto snippet = folded.find(ph)) {
      found.push_back(ph);
      ev.push_back(fmt::format("found \"{}\": {}", ph, *snippet));
    } else {
      missing.push_back(ph);
      ev.push_back(fmt::format("not found: \"{}\"", ph));
    }
  }
  bool passed = m.mode == ast::MentionMode::all ? missing.empty() : !found.empty();
  std::string expl;
  if (m.mode == ast::MentionMode::all)
    expl = passed ? fmt::format("all {} phrases found", phrases.size())
                  : fmt::format("missing {} of {}: \"{}\"", missing.size(), phrases.size(), fmt::join(missing, "\", \""));
  else
    expl = passed ? fmt::format("found \"{}\"", fmt::join(found, "\", \""))
                  : fmt::format("none of the phrases found in {} characters of text", t.as_string().size());
  return comparison_outcome(passed, ev, expl);
}

}  // namespace rubric
