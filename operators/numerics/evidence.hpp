#pragma once
// The report lines of a comparison, in torch.testing's words, with multi-dimensional indices:
//   Mismatched elements: 12 / 131072 (0.009%)
//   Greatest absolute difference: 0.0213 at (3, 1777) (up to 0.001 + 0.001·|ref| allowed)
//   Greatest relative difference: 0.85 at (0, 12) (up to 0.001 allowed)
//   NaN: 0 in out, 0 in ref
// plus "Inf: ..." when infinities occur and a warning when atol ≥ max|ref|.
#include <string>
#include <vector>

#include "operators/numerics/compare_stats.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric::numerics {

struct EvidenceLabels {
  std::string actual = "out";
  std::string expected = "ref";
};

std::vector<std::string> comparison_evidence(const CompareStats& s, const tensor::Shape& shape, const Tolerance& tol,
                                             const EvidenceLabels& labels = {});

// "Shapes differ: (256, 1) in out, (256,) in ref (no broadcasting)".
std::string shape_mismatch_evidence(const tensor::Shape& actual, const tensor::Shape& expected,
                                    const EvidenceLabels& labels = {});

}  // namespace rubric::numerics
