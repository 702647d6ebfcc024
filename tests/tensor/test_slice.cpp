// slice(): numpy's indexing rules on random subscripts (numpy computes the answers), views
// that share the file's memory, and the two kinds of refusal.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "operators/tensor/npy.hpp"
#include "operators/tensor/slice.hpp"
#include "scratch_dir.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric::tensor;

namespace {

std::vector<Subscript> parse_spec(const std::string& spec) {
  std::vector<Subscript> subs;
  std::istringstream parts(spec);
  std::string part;
  while (std::getline(parts, part, '|')) {
    Subscript s;
    if (part == "e") {
      s.kind = Subscript::Kind::ellipsis;
    } else if (part[0] == 'i') {
      s.index = std::stoll(part.substr(2));
    } else {
      s.kind = Subscript::Kind::range;
      std::istringstream fields(part.substr(2));
      std::string f;
      std::optional<std::int64_t>* slots[] = {&s.start, &s.stop, &s.step};
      for (auto* slot : slots) {
        std::getline(fields, f, ',');
        if (f != "_") *slot = std::stoll(f);
      }
    }
    subs.push_back(s);
  }
  return subs;
}

}  // namespace

TEST_CASE("slices agree with numpy indexing") {
  rubric::testing::ScratchDir dir("rubric_slice_cases");
  const std::string cmd = "/usr/bin/python3 " + rubric::test::shell_quote(RUBRIC_TENSOR_TEST_DIR "/gen_slice_cases.py") + " " +
                          rubric::test::shell_quote(dir.path().string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(dir.file("cases.txt"));
  std::string line;
  int cases = 0, refused = 0, empty = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string source, result, spec;
    words >> source >> result >> spec;
    CAPTURE(line);
    const Tensor src = load_npy(dir.file(source));
    const auto subs = parse_spec(spec);
    if (result == "IndexError") {
      CHECK_THROWS_AS(slice(src, subs), IndexOutOfRange);
      ++refused;
      continue;
    }
    const Tensor got = slice(src, subs);
    const Tensor want = load_npy(dir.file(result));
    REQUIRE(got.shape() == want.shape());
    for (std::int64_t i = 0; i < want.size(); ++i) REQUIRE(got.at(i) == want.at(i));
    CHECK(got.byte_swapped() == src.byte_swapped());
    if (got.size() == 0) ++empty;
    ++cases;
  }
  CHECK(cases > 100);
  CHECK(refused > 10);
  CHECK(empty > 5);
}

TEST_CASE("a slice is a view into the same memory") {
  std::vector<std::byte> bytes(4 * 6 * sizeof(float));
  for (int i = 0; i < 24; ++i) {
    const float v = static_cast<float>(i);
    std::memcpy(bytes.data() + i * sizeof(float), &v, sizeof v);
  }
  const Tensor t = Tensor::from_bytes(DType::f32, {4, 6}, bytes, "t.npy");
  Subscript row;
  row.index = 2;
  const Tensor r = slice(t, {row});
  CHECK(r.shape() == Shape{6});
  CHECK(r.data() == t.data() + 12 * sizeof(float));  // no copy
  CHECK(r.is_contiguous());                          // a row keeps the contiguous fast path
  CHECK(r.source() == "t.npy[2]");
  Subscript all, col;
  all.kind = Subscript::Kind::range;
  col.index = -1;
  const Tensor c = slice(t, {all, col});
  CHECK(c.shape() == Shape{4});
  CHECK_FALSE(c.is_contiguous());
  CHECK(c.at(3) == 23);
  CHECK(c.source() == "t.npy[:, -1]");
}

TEST_CASE("refusals: out of range is the tensor's, a zero step or two ellipses the writer's") {
  const Tensor t = Tensor::from_bytes(DType::u8, {3, 2}, std::vector<std::byte>(6), "sub.npy");
  Subscript three;
  three.index = 3;
  CHECK_THROWS_WITH_AS(slice(t, {three}), "sub.npy[3]: index 3 is out of range for axis 0 with 3 elements", IndexOutOfRange);
  Subscript a, b, c;
  CHECK_THROWS_WITH_AS(slice(t, {a, b, c}), "sub.npy[0, 0, 0]: too many indices: 3 for a tensor of rank 2 with shape (3, 2)",
                       IndexOutOfRange);
  Subscript zero;
  zero.kind = Subscript::Kind::range;
  zero.step = 0;
  CHECK_THROWS_WITH_AS(slice(t, {zero}), "sub.npy[::0]: slice step cannot be zero", MalformedSubscript);
  Subscript e;
  e.kind = Subscript::Kind::ellipsis;
  CHECK_THROWS_AS(slice(t, {e, e}), MalformedSubscript);
  // Out-of-range slice bounds are clamped, as numpy does.
  Subscript wide;
  wide.kind = Subscript::Kind::range;
  wide.start = -100;
  wide.stop = 100;
  CHECK(slice(t, {wide}).shape() == Shape{3, 2});
}
