#pragma once
// The analysed texts of one evaluation (operators/text/analysed_text.hpp): `affirms`, `denies`,
// `polarity`, `claims` and `code_of` applied to the same text — the same string value, or an
// equal one read again — read its sentences cut, folded and stemmed once. They live in the
// evaluator's session cache, so as long as one rubric evaluation.
#include <cstddef>
#include <memory>

#include "interpreter/value.hpp"
#include "operators/text/analysed_text.hpp"

namespace rubric {

class Evaluator;

// What the kept sentences of all texts of one evaluation may hold (text_analyses.cpp says why).
constexpr std::size_t kTextAnalysisBudget = std::size_t{64} << 20;

// The analysed text of a string value; it keeps the string alive while it is held.
std::shared_ptr<text::AnalysedText> analysed_text(CallContext& ctx, const Value& text);
std::shared_ptr<text::AnalysedText> analysed_text(Evaluator& ev, const Value& text);

}  // namespace rubric
