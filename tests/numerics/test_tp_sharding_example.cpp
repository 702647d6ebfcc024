// The tp_sharding example's data grades as its cases file (tp_sharding.cases.json) says, checked with the library alone:
// shape, NaN count, `matches ... to 1e-3` and rel_l2 ≤ 1e-5 as tp_sharding.rubric asks.
#include <doctest/doctest.h>

#include <string>

#include "operators/json/json_reader.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/numerics/summary.hpp"
#include "operators/tensor/npy.hpp"

using namespace rubric;

TEST_CASE("tp_sharding example submissions get their expected verdicts") {
  const std::string root = std::string(RUBRIC_NUMERICS_TEST_DIR) + "/../../examples/tp_sharding";
  const tensor::Tensor ref = tensor::load_npy(root + "/reference/values.npy");
  CHECK(ref.shape() == tensor::Shape{4096});
  const json::Value cases = json::read_file(root + "/tp_sharding.cases.json");
  int seen = 0;
  for (const json::Value& c : cases.find("cases")->as_array()) {
    const std::string name = c.find("name")->as_string();
    CAPTURE(name);
    const tensor::Tensor out = tensor::load_npy(root + "/" + c.find("submission")->as_string() + "/values.npy");
    bool pass = out.shape() == ref.shape() && numerics::summarize(out).nan_count == 0;
    if (pass) {
      const numerics::CompareStats s = numerics::compare(out, ref, {1e-3, 1e-3, 0});
      pass = numerics::all_close(s) && numerics::rel_l2(s) <= 1e-5;
      CHECK_FALSE(numerics::tolerance_admits_zeros(s, {1e-3, 1e-3, 0}));
    }
    CHECK(pass == (c.find("verdict")->as_string() == "PASS"));
    ++seen;
  }
  CHECK(seen == 4);
}
