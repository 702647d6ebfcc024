// `text affirms X` and `text denies X`: polarity checks over the prose of an answer, with the
// deciding sentence quoted and its trigger marked (docs/text.md).
#include <fmt/format.h>

#include "interpreter/evaluator.hpp"
#include "interpreter/text_concepts.hpp"

namespace rubric {

namespace {

// Evidence lines per check before the rest are counted: a check over a long answer stays short.
constexpr std::size_t kEvidenceItems = 6;

// An operand that could not be evaluated: not decided, blamed as the error says (the evaluator's
// one conversion, so `not` and the connectives treat it as every other undecided check).
CheckOutcome error_outcome(const Value& v) { return outcome_of_error(v); }

}  // namespace

CheckOutcome Evaluator::decide_polarity(const ast::Mentions& mt, const ast::Expr& e, const EnvPtr& env) {
  const bool affirms = mt.verb == ast::MentionVerb::affirms;
  const char* verb = affirms ? "affirms" : "denies";
  Value t = eval(*mt.text, env);
  if (t.is_error()) return error_outcome(t);
  if (!t.is(ValueKind::string))
    return error_outcome(error_at(*mt.text, env, fmt::format("'{}' reads a string, got a {}", verb, t.kind_name())));
  Value x = eval(*mt.phrases, env);
  if (x.is_error()) return error_outcome(x);
  // The items judged: one phrase or concept, or each item of the list under any/all.
  std::vector<Value> items;
  if (mt.mode != ast::MentionMode::one) {
    if (!x.is(ValueKind::list))
      return error_outcome(error_at(*mt.phrases, env, fmt::format("'{} {}' takes a list, got a {}", verb,
                                                                  mt.mode == ast::MentionMode::any ? "any" : "all", x.kind_name())));
    items = x.as_list();
    if (items.empty()) return error_outcome(error_at(*mt.phrases, env, fmt::format("'{}' over an empty list", verb)));
  } else {
    items.push_back(x);
  }
  std::vector<text::ConceptPtr> concepts;
  for (const Value& item : items) {
    std::string why;
    auto c = compile_concept(item, why);
    if (!c) return error_outcome(error_at(*mt.phrases, env, fmt::format("'{}': {}", verb, why)));
    concepts.push_back(*c);
  }
  const std::string& text_value = t.as_string();
  charge_steps(text_value.size() / 1024 + 1 + concepts.size());
  auto found = text::analyse(text_value, concepts, shared_stemmer());

  const text::Polarity wanted = affirms ? text::Polarity::affirmed : text::Polarity::negated;
  std::vector<std::string> evidence, passed_labels, failed;
  std::size_t passed = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const auto& f = found[i];
    bool ok = f.polarity == wanted;
    passed += ok;
    std::string label = text::describe(*concepts[i]);
    (ok ? passed_labels : failed).push_back(fmt::format("{} ({})", label, text::polarity_name(f.polarity)));
    if (evidence.size() < kEvidenceItems) {
      std::string line = fmt::format("{}: {}", label, text::explain(text_value, f));
      // A concept's members, when it was not stated as a whole.
      if (!f.parts.empty() && f.polarity != text::Polarity::affirmed) {
        std::string ps;
        for (std::size_t k = 0; k < f.parts.size() && k < 8; ++k)
          ps += fmt::format("{}{} {}", k ? ", " : "", f.parts[k].first, text::polarity_name(f.parts[k].second));
        if (f.parts.size() > 8) ps += fmt::format(", ... {} more", f.parts.size() - 8);
        line += fmt::format(" [{}]", ps);
      }
      evidence.push_back(std::move(line));
    } else if (evidence.size() == kEvidenceItems) {
      evidence.push_back(fmt::format("... and {} more", found.size() - kEvidenceItems));
    }
  }
  bool ok = mt.mode == ast::MentionMode::all ? passed == found.size() : passed > 0;
  CheckOutcome o;
  o.verdict = ok ? Verdict::pass : Verdict::fail;
  o.blame = ok ? Blame::none : Blame::submission;
  o.evidence = std::move(evidence);
  const char* state = affirms ? "stated" : "denied";
  if (found.size() == 1) {
    o.explanation = ok ? fmt::format("{}", state)
                       : fmt::format("{}, not {}", found[0].polarity == text::Polarity::absent ? "not mentioned"
                                                                                               : text::polarity_name(found[0].polarity),
                                     state);
  } else if (mt.mode == ast::MentionMode::all) {
    o.explanation = ok ? fmt::format("all {} {}", found.size(), state)
                       : fmt::format("{} of {} not {}: {}", failed.size(), found.size(), state, fmt::join(failed, ", "));
  } else {
    o.explanation = ok ? fmt::format("{}: {}", state, fmt::join(passed_labels, ", "))
                       : fmt::format("none of {} {}: {}", found.size(), state, fmt::join(failed, ", "));
  }
  (void)e;
  return o;
}

}  // namespace rubric
