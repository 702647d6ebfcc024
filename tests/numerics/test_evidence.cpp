// The torch-style evidence lines, with multi-dimensional indices.
#include <doctest/doctest.h>

#include "operators/numerics/evidence.hpp"

using namespace rubric::numerics;

TEST_CASE("evidence lines read like torch.testing's, with tuple indices") {
  CompareStats s;
  s.count = 131072;
  s.mismatches = 12;
  s.max_abs = 0.0213;
  s.max_abs_index = 3 * 2048 + 1777;
  s.max_rel = 0.85;
  s.max_rel_index = 12;
  s.first_mismatch_index = 12;
  s.max_abs_b = 3.2;
  const auto lines = comparison_evidence(s, {64, 2048}, {0.001, 0.001, 0});
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "Mismatched elements: 12 / 131072 (0.009%)");
  CHECK(lines[1] == "Greatest absolute difference: 0.0213 at (3, 1777) (up to 0.001 + 0.001·|ref| allowed)");
  CHECK(lines[2] == "Greatest relative difference: 0.85 at (0, 12) (up to 0.001 allowed)");
  CHECK(lines[3] == "NaN: 0 in out, 0 in ref");
  CHECK(lines[4] == "First mismatch at (0, 12)");
}

TEST_CASE("a tolerance that admits an all-zero answer is flagged") {
  CompareStats s;
  s.count = 10;
  s.max_abs_b = 5e-4;
  s.max_abs_index = 0;
  s.max_rel_index = 0;
  s.nan_a = 2;
  s.inf_b = 1;
  const auto lines = comparison_evidence(s, {10}, {1e-3, 1e-3, 0}, {"candidate", "reference"});
  CHECK(lines.back() == "Warning: atol 0.001 ≥ max|reference| 0.0005: the tolerance admits an all-zero answer");
  CHECK(lines[3] == "NaN: 2 in candidate, 0 in reference");
  CHECK(lines[4] == "Inf: 0 in candidate, 1 in reference");
  CHECK(shape_mismatch_evidence({256, 1}, {256}) == "Shapes differ: (256, 1) in out, (256,) in ref (no broadcasting)");
  const auto ulp = comparison_evidence(s, {10}, {0, 0, 2});
  CHECK(ulp[1] == "Greatest ULP difference: 0 (up to 2 allowed)");
}
