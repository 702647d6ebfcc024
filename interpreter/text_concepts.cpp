#include "interpreter/text_concepts.hpp"

#include <fmt/format.h>

#include "operators/error.hpp"

namespace rubric {

text::Stemmer& shared_stemmer() {
  thread_local text::Stemmer stemmer;
  return stemmer;
}

bool is_concept(const Value& v) {
  if (!v.is(ValueKind::record)) return false;
  const Value* k = v.as_record().find("concept");
  return k && k->is(ValueKind::string);
}

Value concept_record(const std::string& kind, List parts, const std::string& name, double window) {
  Record r;
  r.fields.emplace_back("concept", Value::string(kind));
  r.fields.emplace_back("name", Value::string(name));
  r.fields.emplace_back("parts", Value::list(std::move(parts)));
  if (kind == "near") r.fields.emplace_back("window", Value::number(window));
  return Value::record(std::move(r));
}

namespace {

std::optional<text::ConceptPtr> compile(const Value& v, std::string& why, int depth) {
  if (depth > 64) {
    why = "concepts nested more than 64 deep";
    return std::nullopt;
  }
  if (v.is(ValueKind::string)) {
    try {
      return text::make_phrase(v.as_string(), shared_stemmer());
    } catch (const OperatorError& e) {
      why = e.what();
      return std::nullopt;
    }
  }
  auto parts_of = [&](const List& items) -> std::optional<std::vector<text::ConceptPtr>> {
    std::vector<text::ConceptPtr> out;
    for (const Value& item : items) {
      auto c = compile(item, why, depth + 1);
      if (!c) return std::nullopt;
      out.push_back(*c);
    }
    return out;
  };
  if (v.is(ValueKind::list)) {
    if (v.as_list().empty()) {
      why = "an empty list of phrases";
      return std::nullopt;
    }
    auto parts = parts_of(v.as_list());
    if (!parts) return std::nullopt;
    return parts->size() == 1 ? parts->front() : text::make_any(std::move(*parts), "");
  }
  if (is_concept(v)) {
    const Record& r = v.as_record();
    std::string kind = r.find("concept")->as_string();
    const Value* name = r.find("name");
    const Value* parts = r.find("parts");
    if (!parts || !parts->is(ValueKind::list)) {
      why = "a concept record needs a list of parts";
      return std::nullopt;
    }
    auto ps = parts_of(parts->as_list());
    if (!ps) return std::nullopt;
    std::string label = name && name->is(ValueKind::string) ? name->as_string() : "";
    if (kind == "any" || kind == "all") {
      if (ps->empty()) {
        why = fmt::format("the concept '{}' has no parts", label);
        return std::nullopt;
      }
      return kind == "any" ? text::make_any(std::move(*ps), label) : text::make_all(std::move(*ps), label);
    }
    if (kind == "near") {
      const Value* w = r.find("window");
      double window = w && w->is(ValueKind::number) ? w->as_number() : 0;
      if (ps->size() != 2) {
        why = "'near' joins two phrases or concepts";
        return std::nullopt;
      }
      return text::make_near((*ps)[0], (*ps)[1], static_cast<std::size_t>(window));
    }
    why = fmt::format("unknown concept kind \"{}\" (any, all or near)", kind);
    return std::nullopt;
  }
  why = fmt::format("expected a phrase (string), a list of phrases or a concept, got a {}", v.kind_name());
  return std::nullopt;
}

}  // namespace

std::optional<text::ConceptPtr> compile_concept(const Value& v, std::string& why) { return compile(v, why, 0); }

}  // namespace rubric
