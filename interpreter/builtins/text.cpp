// Text: regex find lines numbers lower upper trim split join contains.
#include <fmt/format.h>

#include <cmath>
#include <cctype>
#include <stdexcept>

#include "interpreter/builtins/args.hpp"
#include "operators/regex/regex.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/text_analyses.hpp"
#include "interpreter/text_concepts.hpp"
#include "interpreter/text_match.hpp"
#include "interpreter/units.hpp"
#include "operators/text/claims.hpp"
#include "operators/text/stemmer.hpp"
#include "operators/text/sections.hpp"
#include "operators/text/concept.hpp"
#include "operators/text/document.hpp"
#include "operators/text/html_tags.hpp"

namespace rubric {

namespace {

// A heading or a label to look for needs a word: "" or ":" would match no line.
bool has_word(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || (ch & 0x80); });
}

using builtins::want;
using builtins::want_plain;

// What a claim measures, for comparing it with a measurement: a ratio ("2.1x"), a percentage, an
// arity ("a 2-way bank conflict"), a count of things (a bare number before a plural noun: "8 GPUs"),
// a bare number, or a quantity with a unit.
const char* claim_kind(const text::Claim& c) {
  if (c.unit == "x") return "ratio";
  if (c.unit == "%") return "percent";
  if (c.unit == "way") return "arity";
  if (!c.unit.empty()) return "quantity";
  const std::string& n = c.noun;
  const bool plural = n.size() > 2 && n.back() == 's' && text::inflection_key(n) != n;  // "gpus", "loads"; not "status"
  return plural ? "count" : "number";
}

// A string made from the text `t` (a part of it, what of it is shown, how it reads): the
// submission's when `t` is.
Value text_from(const Value& t, std::string s) {
  Value v = Value::string(std::move(s));
  if (t.from_submission()) v.mark_from_submission();
  return v;
}

// Patterns are matched by operators/regex: in linear time (RE2) wherever the pattern allows it,
// else by bounded backtracking (Boost.Regex), never by libstdc++'s recursive matcher, which
// overflowed the stack on a few megabytes of submission text.

// Compiles an ECMAScript pattern; a bad pattern is the error of whoever wrote it: the rubric's
// ERROR, or the submission's FAIL for a pattern read from its files.
std::optional<regex::Regex> compile(CallContext& ctx, const Value& pattern_value, Value& err) {
  const std::string& pattern = pattern_value.as_string();
  try {
    return regex::Regex(pattern);
  } catch (const regex::RegexError& e) {
    err = ctx.error(fmt::format("bad argument #2 to '{}' (invalid regular expression \"{}\": {})", ctx.function_name(),
                                pattern, e.what()),
                    owner_of(pattern_value));
    return std::nullopt;
  }
}

// Backtracking gave up (a pattern that needs it, on a text that makes it explode): whoever wrote
// the text pays for it, as for any input too costly to read: the submission's FAIL for its text,
// the rubric's ERROR when text and pattern are both its own.
Value too_complex(CallContext& ctx, const Value& text, const Value& pattern, const regex::RegexTooCostly& e) {
  const Value& payer = carries_submission_data(text) ? text : pattern;
  return ctx.error(fmt::format("'{}': the regular expression \"{}\" is too costly to match on this text ({}; it needs "
                               "backtracking: a pattern without backreferences, lookaround or ^/$ is matched in linear time)",
                               ctx.function_name(), pattern.as_string(), e.what()),
                   owner_of(payer));
}

// Work inside a text builtin counts against the criterion's step budget: one step per KiB walked
// and one per item produced, so a 128 MiB answer costs about 131,000 of the 20,000,000 steps and a
// rubric cannot loop a text builtin over submission data without bound.
void charge_text(CallContext& ctx, std::size_t bytes, std::size_t items = 0) { ctx.charge_steps(bytes / 1024 + 1 + items); }

std::optional<Value> want_text(CallContext& ctx, const std::vector<Value>& a) {
  if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return e;
  return want(ctx, a, 1, ValueKind::string, "a string (the pattern)");
}

}  // namespace

void open_text(Registry& r) {
  const std::string fam = "text";
  r.add("regex", {P("t"), P("pattern")}, false,
         "True when the ECMAScript regular expression matches somewhere in t. Use raw strings: r\"\\d+ tok/s\".", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want_text(ctx, a)) return *e;
           Value err;
           auto re = compile(ctx, a[1], err);
           if (!re) return err;
           charge_text(ctx, a[0].as_string().size());
           try {
             return Value::boolean(re->search(a[0].as_string()));
           } catch (const regex::RegexTooCostly& e) {
             return too_complex(ctx, a[0], a[1], e);
           }
         });
  r.add("find", {P("t"), P("pattern")}, false,
         "Every match of the pattern in t: a list of strings, or, when the pattern has groups, a list of capture lists.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want_text(ctx, a)) return *e;
           Value err;
           auto re = compile(ctx, a[1], err);
           if (!re) return err;
           const std::string& t = a[0].as_string();
           charge_text(ctx, t.size());
           List out;
           try {
             std::optional<Value> stop;
             re->for_each_match(t, [&](const regex::Match& m) {
               if (m.size() <= 1) {
                 out.push_back(Value::string(std::string(*m[0])));
               } else {
                 List groups;
                 for (std::size_t g = 1; g < m.size(); ++g) groups.push_back(m[g] ? Value::string(std::string(*m[g])) : Value());
                 out.push_back(Value::list(std::move(groups)));
               }
               ctx.charge_steps(1);
               // Too many matches in a submission's text is the submission's FAIL, not the rubric's ERROR.
               if (out.size() > 1'000'000) stop = ctx.error("'find': more than 1000000 matches", owner_of(a[0]));
               return !stop;
             });
             if (stop) return *stop;
           } catch (const regex::RegexTooCostly& e) {
             return too_complex(ctx, a[0], a[1], e);
           }
           return Value::list(std::move(out));
         });
  r.add("lines", {P("t")}, false, "The lines of t, without their line ends (\\n or \\r\\n).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           const std::string& t = a[0].as_string();
           charge_text(ctx, t.size());
           List out;
           std::size_t pos = 0;
           while (pos < t.size()) {
             ctx.charge_steps(1);
             std::size_t nl = t.find('\n', pos);
             std::size_t end = nl == std::string::npos ? t.size() : nl;
             std::size_t e2 = end > pos && t[end - 1] == '\r' ? end - 1 : end;
             out.push_back(Value::string(t.substr(pos, e2 - pos)));
             if (nl == std::string::npos) break;
             pos = nl + 1;
           }
           return Value::list(std::move(out));
         });
  r.add("numbers", {P("t")}, false,
         "The numbers written in t, in order, as plain numbers (\"11,234.5\" counts as 11234.5; \"fp32\" has none).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           auto xs = scan_numbers(a[0].as_string());
           charge_text(ctx, a[0].as_string().size(), xs.size());
           List out;
           out.reserve(xs.size());
           for (double x : xs) out.push_back(Value::number(x));
           return Value::list(std::move(out));
         });
  r.add("quoted_numbers", {P("t"), P("unit")}, false,
         "The numbers written directly before the unit text: quoted_numbers(t, \"tok/s\") reads \"reached 11,234 tok/s\" as "
         "[11234]. The unit is plain text, not a pattern; one pass over t.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string (the unit)")) return *e;
           const std::string &t = a[0].as_string(), &unit = a[1].as_string();
           if (unit.empty()) return ctx.error("'quoted_numbers' with an empty unit");
           charge_text(ctx, t.size());
           List out;
           auto numeric = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == ',' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'; };
           // Each occurrence of the unit looks back over white space and one number; the look-back
           // stops at the previous occurrence's letters, so the whole is linear in t.
           for (std::size_t pos = t.find(unit); pos != std::string::npos; pos = t.find(unit, pos + unit.size())) {
             std::size_t e = pos;
             while (e > 0 && std::isspace(static_cast<unsigned char>(t[e - 1]))) --e;
             std::size_t b = e;
             while (b > 0 && numeric(t[b - 1]) && e - b < 64) --b;
             while (b < e && !std::isdigit(static_cast<unsigned char>(t[b])) && t[b] != '-') ++b;
             if (b == e || (b > 0 && (std::isalnum(static_cast<unsigned char>(t[b - 1])) || t[b - 1] == '_'))) continue;
             auto xs = scan_numbers(std::string_view(t).substr(b, e - b));
             if (!xs.empty()) out.push_back(Value::number(xs.back()));
             ctx.charge_steps(1);
           }
           return Value::list(std::move(out));
         });
  r.add("polarity", {P("t"), P("x")}, false,
         "How the prose of t speaks of x (a phrase, a list of phrases or a concept): \"affirmed\" (stated in some sentence), "
         "\"hedged\" (only supposed, asked or doubted), \"negated\" (every mention denied) or \"absent\". See docs/text.md.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           std::string why;
           auto c = compile_concept(a[1], why);
           if (!c) return ctx.error(fmt::format("bad argument #2 to 'polarity' ({})", why));
           charge_text(ctx, a[0].as_string().size());
           auto found = text::analyse(*analysed_text(ctx, a[0]), {*c});
           if (found[0].ambiguous) {  // the value rests on an ambiguous reading: say which, mark the check
             const std::string label = text::describe(**c);
             ctx.note_evidence(fmt::format("polarity of {}: {}", label, text::explain(a[0].as_string(), found[0])));
             ctx.note_review(fmt::format("{}: {}", label, found[0].ambiguous->ambiguous));
           }
           return text_from(a[0], text::polarity_name(found[0].polarity));
         });
  r.add("concept", {P("x"), P("mode", Value::string("one")), P("name", Value::string(""))}, false,
         "A concept from a phrase, a list of phrases (mode \"any\" or \"all\") or another concept, named for evidence. "
         "`concept NAME = any [...]` declares one.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string (\"one\", \"any\" or \"all\")")) return *e;
           if (auto e = want(ctx, a, 2, ValueKind::string, "a string (the name)")) return *e;
           const std::string& mode = a[1].as_string();
           if (mode != "one" && mode != "any" && mode != "all")
             return ctx.error(fmt::format("bad argument #2 to 'concept' (\"one\", \"any\" or \"all\", got \"{}\")", mode));
           std::string why;
           if (!compile_concept(a[0], why)) return ctx.error(fmt::format("bad argument #1 to 'concept' ({})", why));
           if (a[0].is(ValueKind::list))
             return concept_record(mode == "all" ? "all" : "any", a[0].as_list(), a[2].as_string());
           if (is_concept(a[0])) {
             Record r = a[0].as_record();
             for (auto& f : r.fields)
               if (f.first == "name" && !a[2].as_string().empty() &&
                   (r.find("concept")->as_string() != "near" || f.second.as_string().empty()))
                 f.second = Value::string(a[2].as_string());
             if (r.find("concept")->as_string() == "near" && !a[2].as_string().empty())
               return concept_record("any", {Value::record(std::move(r))}, a[2].as_string());
             return Value::record(std::move(r));
           }
           return concept_record("any", {a[0]}, a[2].as_string());
         });
  r.add("near", {P("a"), P("b"), P("window", Value::number(0))}, false,
         "A concept: a and b (phrases or concepts) in one sentence, at most `window` words apart when window > 0. "
         "Written `a near b` or `a near(5) b`.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want_plain(ctx, a, 2)) return *e;
           double w = a[2].as_number();
           if (w < 0 || w != std::floor(w) || w > 1000)
             return ctx.error(fmt::format("bad argument #3 to 'near' (a whole number of words from 0 to 1000, got {})", w));
           std::string why;
           for (int i = 0; i < 2; ++i)
             if (!compile_concept(a[i], why)) return ctx.error(fmt::format("bad argument #{} to 'near' ({})", i + 1, why));
           return concept_record("near", {a[0], a[1]}, "", w);
         });
  r.add("section", {P("t"), P("heading")}, false,
         "The section of a Markdown text under the first heading whose words hold `heading`'s (\"## Root causes\" for "
         "\"root cause\"), heading line included, to the next heading of its level or higher; \"\" when none. The prose "
         "operators read it with every rule intact: `section(answer, \"Diagnosis\") affirms ...`.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string (the heading's words)")) return *e;
           if (!has_word(a[1].as_string()))
             return ctx.error(fmt::format("bad argument #2 to 'section' (the heading's words, got \"{}\": it would match nothing)", a[1].as_string()));
           charge_text(ctx, a[0].as_string().size());
           auto part = text::section_of(a[0].as_string(), a[1].as_string());
           return text_from(a[0], part ? std::string(*part) : std::string());
         });
  r.add("labelled", {P("t"), P("label")}, false,
         "The first line of a Markdown text that opens with `label` and a colon (\"Root cause: ...\", \"- **Fix**: ...\"), "
         "label included, so \"Ruled out: X\" still denies X; when nothing follows the colon, its block (the list under "
         "it, a blank line between allowed), whose items such a label denies too; \"\" when none.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string (the label's words)")) return *e;
           if (!has_word(a[1].as_string()))
             return ctx.error(fmt::format("bad argument #2 to 'labelled' (the label's words, got \"{}\": it would match nothing)", a[1].as_string()));
           charge_text(ctx, a[0].as_string().size());
           auto part = text::labelled_line(a[0].as_string(), a[1].as_string());
           return text_from(a[0], part ? std::string(*part) : std::string());
         });
  r.add("visible_text", {P("t")}, false,
         "t as a reader of the rendered Markdown sees its words: HTML comments, hidden elements, link reference "
         "definitions and HTML tags made spaces (line breaks and code kept), so counting its words counts what is shown.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           charge_text(ctx, a[0].as_string().size());
           return text_from(a[0], text::rendered_layout(a[0].as_string(), true));
         });
  r.add("code_of", {P("t")}, false,
         "The code of a Markdown text: its fenced blocks and `inline spans`, one per line. Prose operators read inline spans as "
         "words of their sentence and never read fenced blocks; search this for identifiers.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           charge_text(ctx, a[0].as_string().size());
           return text_from(a[0], text::code_of(*analysed_text(ctx, a[0])));
         });
  r.add("claims", {P("t"), P("like", Value())}, false,
         "The quantitative claims in the prose of t, in order: records {value, unit, text, sentence, polarity, noun, kind, "
         "ambiguous, source}. value "
         "carries the unit (\"45 GB/s\" is 45 GB/s; \"2.3x\" is 2.3; \"87%\" is 0.87; \"16k tokens\" is 16000 tok), so "
         "`any(claims(t), c => c.value within 10% of measured)` compares with a measurement; a claim of another "
         "dimension is no match (not an error); `like` keeps only the claims of its dimension. Names, versions, dates "
         "and indices (\"Llama-3.1-8B\", \"CUDA 12.4\", \"2024-05-01\", \"Table 2\") are not claims. kind is \"ratio\" "
         "(2.1x), \"percent\", \"arity\" (a 2-way conflict), \"count\" (a number before a plural noun: 8 GPUs), "
         "\"number\" (bare) or \"quantity\" (with a unit). ambiguous says why the "
         "polarity could be read otherwise (\"a question\"), \"\" when clear. source is \"answer\" (the answer's own), "
         "\"another\" (\"the vendor claims 5x\"), \"listed\" (\"Keywords: 2.1x\") or \"past belief\" (\"we expected "
         "2.5x before profiling\"). `any` over claims counts only "
         "a claim the answer states (not a hedged, denied or listed one) unless its predicate reads `polarity`. At most 10,000.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           if (!a[1].is_null())
             if (auto e = want(ctx, a, 1, ValueKind::number, "a number with the unit to keep (like = 1 GB/s)")) return *e;
           const std::string& t = a[0].as_string();
           charge_text(ctx, t.size());
           std::size_t more = 0;
           auto found = text::find_claims(*analysed_text(ctx, a[0]), 10000, &more);
           ctx.charge_steps(found.size());
           List out;
           for (const auto& c : found) {
             Value value;
             if (c.unit == "%") value = Value::number(c.value / 100);
             else if (c.unit.empty() || c.unit == "x" || c.unit == "way") value = Value::number(c.value);
             else if (auto u = parse_unit(c.unit)) value = Value::number(c.value * u->scale, u->dim);
             else value = Value::number(c.value);
             if (!a[1].is_null() && value.as_quantity().dim != a[1].as_quantity().dim) continue;
             value.mark_claimed();
             Record r;
             r.fields.emplace_back("value", value);
             r.fields.emplace_back("unit", Value::string(c.unit));
             r.fields.emplace_back("text", Value::string(c.text));
             r.fields.emplace_back("sentence", Value::string(text::quote(t, c.sentence_begin, c.sentence_end)));
             r.fields.emplace_back("polarity", Value::string(text::polarity_name(c.polarity)));
             r.fields.emplace_back("noun", Value::string(c.noun));
             r.fields.emplace_back("kind", Value::string(claim_kind(c)));
             // Why its polarity could be read otherwise ("a question"), "" when clear: `any` over claims
             // marks a verdict resting on it and says so on the claim's own line.
             r.fields.emplace_back("ambiguous", Value::string(c.ambiguous));
             r.fields.emplace_back("source", Value::string(c.source));
             r.origin = "claims(...)";
             Value rv = Value::record(std::move(r));
             if (a[0].from_submission()) rv.mark_from_submission();
             out.push_back(std::move(rv));
           }
           Value v = Value::list(std::move(out));
           if (a[0].from_submission()) v.mark_from_submission();
           return v;
         });
  r.add("lower", {P("t")}, false, "t in lower case (ASCII).", fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           charge_text(ctx, a[0].as_string().size());
           std::string s = a[0].as_string();
           for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
           return Value::string(std::move(s));
         });
  r.add("upper", {P("t")}, false, "t in upper case (ASCII).", fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           charge_text(ctx, a[0].as_string().size());
           std::string s = a[0].as_string();
           for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
           return Value::string(std::move(s));
         });
  r.add("trim", {P("t")}, false, "t without leading and trailing white space.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           const std::string& s = a[0].as_string();
           std::size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
           return Value::string(b == std::string::npos ? "" : s.substr(b, e - b + 1));
         });
  r.add("split", {P("t"), P("sep")}, false, "t cut at every occurrence of the separator string.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want_text(ctx, a)) return *e;
           const std::string &t = a[0].as_string(), &sep = a[1].as_string();
           if (sep.empty()) return ctx.error("'split' with an empty separator");
           charge_text(ctx, t.size());
           List out;
           std::size_t pos = 0;
           for (;;) {
             std::size_t k = t.find(sep, pos);
             ctx.charge_steps(1);
             out.push_back(Value::string(t.substr(pos, k == std::string::npos ? std::string::npos : k - pos)));
             if (k == std::string::npos) break;
             pos = k + sep.size();
           }
           return Value::list(std::move(out));
         });
  r.add("join", {P("xs"), P("sep", Value::string(", "))}, false, "The items printed and joined with the separator.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::list, "a list")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string")) return *e;
           std::string s;
           for (std::size_t i = 0; i < a[0].as_list().size(); ++i) {
             s += (i ? a[1].as_string() : "") + a[0].as_list()[i].to_string();
             if (s.size() > max_string_bytes)
               return ctx.error(fmt::format("'join': the result passes the string size limit ({} bytes)", max_string_bytes));
           }
           return Value::string(std::move(s));
         });
  r.add("contains", {P("t"), P("s")}, false, "True when t contains s exactly (case-sensitive; see `mentions` for prose).",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string")) return *e;
           charge_text(ctx, a[0].as_string().size());
           return Value::boolean(a[0].as_string().find(a[1].as_string()) != std::string::npos);
         });
}

}  // namespace rubric
