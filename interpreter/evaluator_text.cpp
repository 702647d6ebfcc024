// `text affirms X` and `text denies X`: polarity checks over the prose of an answer, with the
// deciding sentence quoted and its trigger marked (docs/text.md).
#include <algorithm>
#include <fmt/format.h>

#include "interpreter/evaluator.hpp"
#include "interpreter/environment.hpp"
#include "interpreter/review_marks.hpp"
#include "interpreter/text_analyses.hpp"
#include "interpreter/text_concepts.hpp"
#include "interpreter/verdicts.hpp"
#include "operators/text/document.hpp"

namespace rubric {

namespace {

// Evidence lines per check before the rest are counted: a check over a long answer stays short.
constexpr std::size_t kEvidenceItems = 6;

}  // namespace

CheckOutcome Evaluator::decide_polarity(const ast::Mentions& mt, const ast::Expr& e, const EnvPtr& env) {
  const bool affirms = mt.verb == ast::MentionVerb::affirms;
  const char* verb = affirms ? "affirms" : "denies";
  Value t = eval(*mt.text, env);
  if (t.is_error()) return outcome_of_error(t);
  if (!t.is(ValueKind::string))
    return outcome_of_error(error_at(*mt.text, env, fmt::format("'{}' reads a string, got a {}{}", verb, t.kind_name(),
                                                             candidate_value_note(t, mt.text.get(), env)),
                                  owner_of(t)));
  Value x = eval(*mt.phrases, env);
  if (x.is_error()) return outcome_of_error(x);
  // The items judged: one phrase or concept, or each item of the list under any/all.
  std::vector<Value> items;
  if (mt.mode != ast::MentionMode::one) {
    if (!x.is(ValueKind::list))
      return outcome_of_error(error_at(*mt.phrases, env, fmt::format("'{} {}' takes a list, got a {}", verb,
                                                                  mt.mode == ast::MentionMode::any ? "any" : "all", x.kind_name())));
    items = x.as_list();
    if (items.empty()) return outcome_of_error(error_at(*mt.phrases, env, fmt::format("'{}' over an empty list", verb)));
  } else {
    items.push_back(x);
  }
  std::vector<text::ConceptPtr> concepts;
  for (const Value& item : items) {
    std::string why;
    auto c = compile_concept(item, why);
    if (!c) return outcome_of_error(error_at(*mt.phrases, env, fmt::format("'{}': {}", verb, why)));
    concepts.push_back(*c);
  }
  const std::string& text_value = t.as_string();
  charge_steps(text_value.size() / 1024 + 1 + concepts.size());
  auto found = text::analyse(*analysed_text(*this, t), concepts);

  const text::Polarity wanted = affirms ? text::Polarity::affirmed : text::Polarity::negated;
  std::vector<std::string> evidence, passed_labels, failed;
  std::vector<ReviewedPart> items_read;
  std::size_t passed = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const auto& f = found[i];
    bool ok = f.polarity == wanted;
    passed += ok;
    std::string label = text::describe(*concepts[i]);
    (ok ? passed_labels : failed).push_back(fmt::format("{} ({})", label, text::polarity_name(f.polarity)));
    items_read.push_back({ok, {}});
    if (f.ambiguous) items_read.back().reasons.push_back(fmt::format("{}: {}", label, f.ambiguous->ambiguous));
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
      // An `all` concept stated: each member, by what matched it and where (five at most):
      // `both: stated, every member: conflict stated by "same bank" in "..."; fix stated by "pad"
      // near(6) "column" in "..."`.
      if (f.polarity == text::Polarity::affirmed && f.deciding && !f.part_deciding.empty()) {
        std::string members;
        std::vector<std::size_t> quoted;
        std::size_t shown = 0;
        for (std::size_t k = 0; k < f.part_deciding.size() && k < f.parts.size(); ++k) {
          const auto& m = f.part_deciding[k];
          if (!m) continue;
          if (++shown > 5) {
            members += "; ...";
            break;
          }
          // A member that is itself a list or an `all` names the phrase that matched it.
          const auto kind = k < concepts[i]->parts.size() ? concepts[i]->parts[k]->kind : text::Concept::Kind::phrase;
          const bool composite = kind == text::Concept::Kind::any || kind == text::Concept::Kind::all;
          std::string where = composite ? fmt::format("stated by {} in the same sentence", m->phrase) : "stated in the same sentence";
          if (std::find(quoted.begin(), quoted.end(), m->sentence_begin) == quoted.end()) {
            quoted.push_back(m->sentence_begin);
            text::Finding part;
            part.polarity = m->polarity;
            part.deciding = m;
            part.composite = composite;
            where = text::explain(text_value, part);
          }
          members += fmt::format("{}{} {}", shown > 1 ? "; " : "", f.parts[k].first, where);
        }
        line = fmt::format("{}: stated, every member: {}", label, members);
      }
      evidence.push_back(std::move(line));
    } else if (evidence.size() == kEvidenceItems) {
      evidence.push_back(fmt::format("... and {} more", found.size() - kEvidenceItems));
    }
  }
  bool ok = mt.mode == ast::MentionMode::all ? passed == found.size() : passed > 0;
  for (const auto& reason : deciding_reasons(items_read, mt.mode != ast::MentionMode::all)) note_review(reason);
  CheckOutcome o = comparison_outcome(ok, std::move(evidence), "");
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

namespace {

// Claims shown per check before the rest are counted.
constexpr std::size_t kClaimsShown = 8;

bool is_claim(const Value& v) { return v.is(ValueKind::record) && v.as_record().origin == "claims(...)"; }

std::string field_text(const Value& claim, const char* name) {
  const Value* f = claim.as_record().find(name);
  return f && f->is(ValueKind::string) ? f->as_string() : std::string();
}

// Why a claim's polarity was read from an ambiguous construction (its `ambiguous` field), or "".
std::string claim_ambiguity(const Value& claim) { return field_text(claim, "ambiguous"); }

}  // namespace

std::optional<CheckOutcome> Evaluator::decide_over_claims(const ast::Expr& e, const EnvPtr& env) {
  const auto* call = std::get_if<ast::Call>(&e.node);
  if (!call || call->args.size() != 2 || !call->named.empty()) return std::nullopt;
  const auto* name = std::get_if<ast::Name>(&call->callee->node);
  if (!name || (name->name != "any" && name->name != "all")) return std::nullopt;
  Value fn = eval(*call->callee, env);
  if (!fn.is(ValueKind::function) || fn.as_function().kind != Function::Kind::builtin || fn.as_function().name != name->name)
    return std::nullopt;  // a rubric's own `any`
  const bool want_all = name->name == "all";
  // From here the call is decided here: its arguments are evaluated once.
  Value xs = eval(*call->args[0], env);
  Value pred = eval(*call->args[1], env);
  bool claims = xs.is(ValueKind::list) && !xs.as_list().empty() && pred.is(ValueKind::function) &&
                pred.as_function().kind == Function::Kind::lambda && pred.as_function().lambda->params.size() == 1;
  if (claims)
    for (const Value& item : xs.as_list()) claims = claims && is_claim(item);
  if (!claims) {
    // Any other list: the builtin, and the verdict of its value as every other condition has.
    Value v = xs.is_error() ? xs : pred.is_error() ? pred : call_value(fn, {xs, pred}, {}, &e, env);
    if (v.is_error()) return outcome_of_error(v);
    if (!v.is(ValueKind::boolean))
      return unusable_operand(v.from_submission(), fmt::format("an expect needs a bool, got a {} ({}) ({})", v.kind_name(), v.repr(5),
                                                               error_location_text(error_location(e, env))));
    CheckOutcome o = comparison_outcome(v.as_bool(), {}, v.as_bool() ? "holds" : "does not hold");
    if (!v.as_bool()) {
      bool no_claims = xs.is(ValueKind::list) && xs.as_list().empty() && source_text(*call->args[0], env).find("claims(") != std::string::npos;
      o.evidence.push_back(no_claims ? "the answer makes no claim of this kind" : fmt::format("{} is false", source_text(e, env)));
      if (no_claims) o.explanation = "no claims";
    }
    return o;
  }
  // Each claim decided by the predicate's body, so its evidence says why it matched or not.
  const Function& f = pred.as_function();
  const std::string& param = f.lambda->params[0].name;
  const List& items = xs.as_list();
  const bool honour_polarity = source_text(*call->args[1], env).find("polarity") == std::string::npos;
  std::vector<std::string> evidence;
  std::vector<std::string> matched, unmatched;
  std::optional<CheckOutcome> pending;  // a skipped or inconclusive claim: kept unless one settles it
  struct Decided {
    std::string text, sentence, polarity, explanation, ambiguous;
    bool ok;
  };
  std::vector<Decided> decided;
  std::vector<ReviewedPart> claims_read;
  // A predicate that reads a claim's polarity notes the doubt of that reading (evaluator_expr.cpp):
  // it is the claim's own, kept only where the claim decides (deciding_reasons, below).
  const std::string outer_reviews = take_reviews();
  std::vector<std::string> read_in_doubt(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto scope = std::make_shared<Environment>(f.closure, f.closure->module());
    scope->define(param, items[i]);
    CheckOutcome r = decide(*f.lambda->body, scope);
    read_in_doubt[i] = take_reviews();
    std::string text = field_text(items[i], "text");
    std::string sentence = field_text(items[i], "sentence");
    if (!r.decided) {
      if (r.verdict == Verdict::error || r.verdict == Verdict::fail) {
        r.evidence.insert(r.evidence.begin(), fmt::format("claim {} in \"{}\"", text, text::quote(sentence, 0, sentence.size(), 120)));
        if (!outer_reviews.empty()) note_review(outer_reviews);
        return r;  // an error, or the submission's data failing, settles it
      }
      if (!pending) pending = r;
      continue;
    }
    bool ok = r.verdict == Verdict::pass;
    std::string polarity = field_text(items[i], "polarity");
    // `any` wants a claim the answer makes: a hedged or denied number, or one under "Keywords:",
    // is not one, unless the predicate itself reads the polarity.
    if (ok && !want_all && honour_polarity && !polarity.empty() && polarity != "affirmed") {
      ok = false;
      r.explanation += fmt::format("; not counted: the answer does not state it ({})", polarity);
    }
    // A claim whose polarity was read from an ambiguous construction, where its polarity decides
    // it: the predicate matched its value, so reading it otherwise could change whether it counts.
    claims_read.push_back({ok, {}});
    if (std::string why = claim_review(items[i]); !why.empty() && honour_polarity && !want_all && r.verdict == Verdict::pass)
      claims_read.back().reasons.push_back(std::move(why));
    if (!read_in_doubt[i].empty()) claims_read.back().reasons.push_back(read_in_doubt[i]);
    (ok ? matched : unmatched).push_back(text);
    decided.push_back({std::move(text), std::move(sentence), std::move(polarity), std::move(r.explanation), claim_ambiguity(items[i]), ok});
  }
  // The claims shown: those that decide the check first (the matches of `any`, the misses of
  // `all`), wherever they are in the answer, then the earliest others; in the answer's order.
  std::vector<bool> shown(decided.size(), false);
  std::size_t room = kClaimsShown;
  for (std::size_t i = 0; i < decided.size() && room > 0; ++i)
    if (decided[i].ok != want_all) shown[i] = true, --room;
  for (std::size_t i = 0; i < decided.size() && room > 0; ++i)
    if (!shown[i]) shown[i] = true, --room;
  std::string last_sentence;
  for (std::size_t i = 0; i < decided.size(); ++i) {
    if (!shown[i]) continue;
    const Decided& d = decided[i];
    // The sentence is quoted once for the claims it holds.
    std::string where = d.sentence == last_sentence ? std::string("in the same sentence")
                                                    : fmt::format("in \"{}\"", text::quote(d.sentence, 0, d.sentence.size(), 160));
    last_sentence = d.sentence;
    // Its polarity, and why that could be read otherwise: "(hedged; ambiguous: a question)".
    std::vector<std::string> how;
    if (d.polarity != "affirmed" && !d.polarity.empty()) how.push_back(d.polarity);
    if (!d.ambiguous.empty()) how.push_back("ambiguous: " + d.ambiguous);
    evidence.push_back(fmt::format("claims {} {}{}: {} ({})", d.text, where, how.empty() ? "" : fmt::format(" ({})", fmt::join(how, "; ")),
                                   d.ok ? "matches" : "no match", d.explanation));
  }
  if (items.size() > kClaimsShown - room)
    evidence.push_back(fmt::format("... and {} more claims", items.size() - (kClaimsShown - room)));
  bool passed = want_all ? unmatched.empty() : !matched.empty();
  // The mark names the first claims it rests on and counts the rest: an answer of 10,000 doubtful
  // claims gives a line, not 10,000.
  if (!outer_reviews.empty()) note_review(outer_reviews);
  std::vector<std::string> reasons = deciding_reasons(claims_read, !want_all);
  for (std::size_t i = 0; i < reasons.size() && i < kClaimsShown; ++i) note_review(reasons[i]);
  if (reasons.size() > kClaimsShown) note_review(fmt::format("... and {} more claims read in doubt", reasons.size() - kClaimsShown));
  if (pending && (want_all ? passed : !passed)) {
    pending->evidence.insert(pending->evidence.begin(), evidence.begin(), evidence.end());
    return pending;
  }
  CheckOutcome o = comparison_outcome(passed, std::move(evidence), "");
  const std::size_t n = matched.size() + unmatched.size();
  if (n == 1)
    o.explanation = passed ? fmt::format("the one claim, {}, matches", matched.empty() ? "" : matched[0])
                           : fmt::format("the one claim, {}, does not match", unmatched.empty() ? "" : unmatched[0]);
  else if (want_all)
    o.explanation = passed ? fmt::format("all {} claims match", n)
                           : fmt::format("{} of {} claims do not match: {}", unmatched.size(), n, fmt::join(unmatched.begin(), unmatched.begin() + std::min<std::size_t>(unmatched.size(), 6), ", "));
  else
    o.explanation = passed ? fmt::format("matches: {}", fmt::join(matched.begin(), matched.begin() + std::min<std::size_t>(matched.size(), 6), ", "))
                           : fmt::format("none of {} claims matches", n);
  return o;
}

}  // namespace rubric
