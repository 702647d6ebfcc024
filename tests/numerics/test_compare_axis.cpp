// compare_along(): per-axis metrics agree with numpy reducing over the same axes, do not
// depend on the thread count, and equal the full comparison of each slice.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "operators/error.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_axis.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/slice.hpp"
#include "scratch_dir.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric::numerics;
using rubric::tensor::load_npy;

namespace {

bool same(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= 1e-12 * std::max(1.0, std::fabs(want));
}

}  // namespace

TEST_CASE("per-axis metrics agree with numpy reducing over the same axes") {
  rubric::testing::ScratchDir dir("rubric_axis_cases");
  const std::string cmd = "/usr/bin/python3 " + rubric::test::shell_quote(RUBRIC_NUMERICS_TEST_DIR "/gen_axis_cases.py") + " " +
                          rubric::test::shell_quote(dir.path().string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(dir.file("cases.txt"));
  std::string line;
  int cases = 0;
  const std::pair<const char*, double (*)(const CompareStats&)> metrics[] = {
      {"rel_l2", rel_l2}, {"cosine", cosine}, {"max_abs_err", max_abs_err}, {"max_rel_err", max_rel_err}, {"frac_close", frac_close}};
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name, fa, fb, axes_text;
    Tolerance tol;
    words >> name >> fa >> fb >> tol.rtol >> tol.atol >> axes_text;
    std::vector<std::int64_t> axes;
    std::istringstream at(axes_text);
    for (std::string x; std::getline(at, x, ',');) axes.push_back(std::stoll(x));
    const auto a = load_npy(dir.file(fa)), b = load_npy(dir.file(fb));
    for (unsigned threads : {1u, 3u, 0u}) {
      const AxisStats s = compare_along(a, b, axes, tol, threads);
      for (const auto& [metric, of] : metrics) {
        CAPTURE(name);
        CAPTURE(metric);
        CAPTURE(threads);
        const auto want = load_npy(dir.file(name + "_" + metric + ".npy"));
        REQUIRE(s.shape == want.shape());
        for (std::int64_t i = 0; i < want.size(); ++i) {
          CAPTURE(i);
          CHECK(same(of(s.stats[static_cast<std::size_t>(i)]), want.at(i)));
        }
      }
    }
    ++cases;
  }
  CHECK(cases == 7);
}

TEST_CASE("a per-row comparison equals the full comparison of each row") {
  rubric::testing::ScratchDir dir("rubric_axis_rows");
  const std::string cmd = "/usr/bin/python3 " + rubric::test::shell_quote(RUBRIC_NUMERICS_TEST_DIR "/gen_axis_cases.py") + " " +
                          rubric::test::shell_quote(dir.path().string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  const auto a = load_npy(dir.file("rows_f32_a.npy")), b = load_npy(dir.file("rows_f32_b.npy"));
  const Tolerance tol{1.3e-6, 1e-5, 0};
  const AxisStats s = compare_along(a, b, {-1}, tol);
  for (std::int64_t r = 0; r < a.shape()[0]; ++r) {
    rubric::tensor::Subscript row;
    row.index = r;
    const CompareStats full = compare(rubric::tensor::slice(a, {row}), rubric::tensor::slice(b, {row}), tol);
    const CompareStats& one = s.stats[static_cast<std::size_t>(r)];
    CHECK(one.mismatches == full.mismatches);
    CHECK(one.max_abs_index == full.max_abs_index);
    CHECK(one.first_mismatch_index == full.first_mismatch_index);
    CHECK(one.sum_sq_diff == full.sum_sq_diff);
  }
}

TEST_CASE("axes: negative, repeated, out of range; the worst position") {
  CHECK(normalize_axes({-1, 0}, 3) == std::vector<std::size_t>{0, 2});
  CHECK_THROWS_WITH_AS(normalize_axes({2}, 2), "axis 2 is out of range for a tensor of rank 2 (axes -2..1)",
                       rubric::OperatorError);
  CHECK_THROWS_WITH_AS(normalize_axes({1, -1}, 2), "axis -1 is repeated", rubric::OperatorError);
  CHECK_THROWS_AS(normalize_axes({}, 2), rubric::OperatorError);
  CHECK(worst_position({0.1, 0.3, 0.3, 0.2}, true) == 1);
  CHECK(worst_position({0.9, 0.5, 0.7}, false) == 1);
  CHECK(worst_position({0.1, NAN, 5.0, NAN}, true) == 1);
  CHECK(worst_position({}, true) == -1);
}
