#pragma once
// Concepts as language values, and the text operators' shared state. A concept is a record
// {concept: "any"|"all"|"near", name, parts, window}: printable, storable in modules, composable;
// a string is a phrase and a list is `any` of its items. This file turns them into
// operators/text concepts and back.
#include <optional>
#include <string>

#include "interpreter/value.hpp"
#include "operators/text/concept.hpp"

namespace rubric {

// The stemmer every text operator of this thread shares (its memo of stems is reused).
text::Stemmer& shared_stemmer();

// Whether a value is a concept record.
bool is_concept(const Value& v);

// A concept record: kind "any", "all" or "near".
Value concept_record(const std::string& kind, List parts, const std::string& name, double window = 0);

// The operators/text concept of a string, list (any of) or concept record; nullopt with `why` set
// for anything else.
std::optional<text::ConceptPtr> compile_concept(const Value& v, std::string& why);

}  // namespace rubric
