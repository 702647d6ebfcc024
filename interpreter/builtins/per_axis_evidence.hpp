#pragma once
// The evidence line of a per-axis metric (`rel_l2(out, ref, axis = 1)`): what each of its values
// is, and the worst one written as the metric of two slices the rubric could write itself.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "operators/tensor/tensor.hpp"
#include "operators/tensor/wide_integer.hpp"

namespace rubric {

struct PerAxisWorst {
  std::string metric;                // "rel_l2"
  std::string a, b;                  // the operands as the rubric names them ("out", "ref")
  tensor::Shape input;               // the operands' shape
  std::vector<std::size_t> reduced;  // the axes reduced, sorted, non-negative
  std::int64_t worst = 0;            // the worst position, flat C order over the kept axes
  std::size_t count = 0;             // how many values the metric gave
  double value = 0;                  // the worst value
  std::optional<tensor::WideUnsigned> exact;  // the worst value as the exact integer it is (max_ulp, integer max_abs_err)
};

// "rel_l2 over axis 1, one value per row of out and ref (16 rows): worst row 11,
// rel_l2(out[11, :], ref[11, :]) = 1"
std::string per_axis_evidence(const PerAxisWorst& w);

// How evidence names an operand written as `text` in the rubric: the text itself when it can be
// indexed as written, in parentheses otherwise, and `fallback` (its file) when it is long or unknown.
std::string operand_for_evidence(std::string text, const std::string& fallback);

}  // namespace rubric
