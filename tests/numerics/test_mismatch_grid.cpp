// The mismatch map behind the HTML report's picture: rows × cols view, cells counted as compare()
// decides closeness, a shard boundary visible as a band.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "operators/numerics/compare.hpp"
#include "operators/numerics/mismatch_grid.hpp"

using namespace rubric::numerics;
using rubric::tensor::DType;
using rubric::tensor::Shape;
using rubric::tensor::Tensor;

namespace {

Tensor f64(const Shape& shape, const std::vector<double>& v) {
  std::vector<std::byte> bytes(v.size() * 8);
  if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
  return Tensor::from_bytes(DType::f64, shape, std::move(bytes), "test");
}

}  // namespace

TEST_CASE("a 1-D tensor folds into a square; one wrong shard is a band of rows") {
  std::vector<double> ref(4096, 1.0), out(4096, 1.0);
  for (int i = 2048; i < 3072; ++i) out[i] = 1.01;  // the third of four shards is off
  const Tensor a = f64({4096}, out), b = f64({4096}, ref);
  const Tolerance tol{1e-3, 1e-3, 0};
  const auto g = mismatch_grid(a, b, tol, 16);
  REQUIRE(g);
  CHECK(g->rows == 64);
  CHECK(g->cols == 64);
  CHECK(g->grid_rows == 16);
  CHECK(g->grid_cols == 16);
  std::uint64_t total = 0;
  for (std::uint32_t r = 0; r < 16; ++r) {
    for (std::uint32_t c = 0; c < 16; ++c) {
      const auto i = r * 16 + c;
      CHECK(g->elements[i] == 16);
      CHECK(g->mismatches[i] == (r >= 8 && r < 12 ? 16u : 0u));
      total += g->mismatches[i];
    }
  }
  CHECK(total == std::uint64_t(compare(a, b, tol).mismatches));
}

TEST_CASE("the last dimension is the columns; NaN never close, equal infinities close") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const Tensor a = f64({2, 3, 2}, {1, 2, nan, 4, inf, 6, 7, 8, 9, 10, 11, 12.5});
  const Tensor b = f64({2, 3, 2}, {1, 2, 3, 4, inf, 6, 7, 8, 9, 10, 11, 12});
  const auto g = mismatch_grid(a, b, {0, 0, 0});
  REQUIRE(g);
  CHECK(g->rows == 6);
  CHECK(g->cols == 2);
  REQUIRE(g->mismatches.size() == 12);
  std::uint64_t total = 0;
  for (auto m : g->mismatches) total += m;
  CHECK(total == 2);
  CHECK(g->mismatches[1 * 2 + 0] == 1);  // element 2 (NaN) is row 1, col 0
  CHECK(g->mismatches[5 * 2 + 1] == 1);  // element 11 is row 5, col 1
}

TEST_CASE("no map for different shapes, an empty tensor or a ULP tolerance") {
  CHECK_FALSE(mismatch_grid(f64({2}, {1, 2}), f64({3}, {1, 2, 3}), {0, 0, 0}));
  CHECK_FALSE(mismatch_grid(f64({0}, {}), f64({0}, {}), {0, 0, 0}));
  CHECK_FALSE(mismatch_grid(f64({2}, {1, 2}), f64({2}, {1, 3}), {0, 0, 4}));
}
