// compare(), summarize(), topk_agree() and kl_div() agree with numpy on random cases with NaN,
// infinities and values near the tolerance boundary.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/numerics/logits.hpp"
#include "operators/numerics/summary.hpp"
#include "operators/tensor/npy.hpp"
#include "scratch_dir.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric::numerics;
using rubric::tensor::load_npy;

namespace {

bool near(double got, double want, double rel) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= rel * std::max(1e-300, std::fabs(want));
}

}  // namespace

TEST_CASE("fused comparison matches numpy.isclose and numpy statistics") {
  rubric::testing::ScratchDir dir("rubric_compare_cases");
  const std::string cmd = "/usr/bin/python3 " + rubric::test::shell_quote(RUBRIC_NUMERICS_TEST_DIR "/gen_compare_cases.py") + " " +
                          rubric::test::shell_quote(dir.path().string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(dir.file("cases.txt"));
  std::string line;
  int cases = 0, with_mismatches = 0, with_nonfinite = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name, fa, fb;
    Tolerance tol;
    words >> name >> fa >> fb >> tol.rtol >> tol.atol >> tol.ulp;
    std::map<std::string, double> want;
    for (std::string kv; words >> kv;) want[kv.substr(0, kv.find('='))] = std::strtod(kv.c_str() + kv.find('=') + 1, nullptr);
    CAPTURE(name);
    const auto a = load_npy(dir.file(fa));
    const auto b = load_npy(dir.file(fb));
    if (name == "logits") {
      CHECK(near(kl_div(a, b), want["kl"], 1e-10));
      CHECK(topk_agree(a, b, 1) == want["top1"]);
      CHECK(topk_agree(a, b, 5) == want["top5"]);
      CHECK(want["top5"] > 0);
      CHECK(want["top5"] < 1);
      continue;
    }
    ++cases;
    for (unsigned threads : {1u, 3u, 0u}) {
      CAPTURE(threads);
      const CompareStats s = compare(a, b, tol, threads);
      CHECK(s.count == want["count"]);
      CHECK(s.mismatches == want["mismatches"]);
      if (want.count("allclose")) CHECK(all_close(s) == (want["allclose"] == 1));
      CHECK(s.max_abs == want["max_abs"]);
      CHECK(s.max_abs_index == want["max_abs_index"]);
      CHECK(s.max_rel == want["max_rel"]);
      CHECK(s.max_rel_index == want["max_rel_index"]);
      CHECK(s.first_mismatch_index == want["first_mismatch_index"]);
      CHECK(static_cast<double>(s.max_ulp) == want["max_ulp"]);
      CHECK(near(s.sum_sq_diff, want["sum_sq_diff"], 1e-12));
      CHECK(near(s.sum_sq_a, want["sum_sq_a"], 1e-12));
      CHECK(near(s.sum_sq_b, want["sum_sq_b"], 1e-12));
      CHECK(near(s.dot_ab, want["dot_ab"], 1e-12));
      CHECK(s.nan_a == want["nan_a"]);
      CHECK(s.nan_b == want["nan_b"]);
      CHECK(s.inf_a == want["inf_a"]);
      CHECK(s.inf_b == want["inf_b"]);
      CHECK(s.max_abs_b == want["max_abs_b"]);
      if (want.count("rel_l2")) {
        CHECK(near(rel_l2(s), want["rel_l2"], 1e-12));
        CHECK(near(cosine(s), want["cosine"], 1e-12));
      } else if (s.nan_a + s.nan_b > 0) {
        CHECK(std::isnan(rel_l2(s)));
        CHECK(std::isnan(max_abs_err(s)));
      }
      const TensorSummary t = summarize(a, threads);
      CHECK(near(t.min, want["a_min"], 0));
      CHECK(near(t.max, want["a_max"], 0));
      CHECK(near(t.mean, want["a_mean"], 1e-12));
      CHECK(near(t.std, want["a_std"], 1e-11));
      CHECK(t.nan_count == want["a_nan"]);
      CHECK(t.inf_count == want["a_inf"]);
    }
    with_mismatches += want["mismatches"] > 0;
    with_nonfinite += want["nan_a"] + want["nan_b"] + want["inf_a"] > 0;
  }
  CHECK(cases == 21);
  CHECK(with_mismatches >= 15);  // the cases do exercise both outcomes
  CHECK(with_nonfinite >= 6);
}
