// Saved files read back identically, here and in numpy.
#include <doctest/doctest.h>

#include <cstdlib>

#include "operators/tensor/npy.hpp"
#include "operators/tensor/random.hpp"
#include "operators/tensor/raw.hpp"
#include "operators/tensor/safetensors.hpp"
#include "scratch_dir.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric::tensor;

namespace {
void check_equal(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  REQUIRE(a.dtype() == b.dtype());
  for (std::int64_t i = 0; i < a.size(); ++i) REQUIRE(a.at(i) == b.at(i));
}
}  // namespace

TEST_CASE("save_npy writes files numpy reads, including from strided and byte-swapped views") {
  rubric::testing::ScratchDir dir("rubric_save");
  const Tensor r = random_tensor({3, 4, 5}, DType::f32, 3);
  save_npy(dir.file("r.npy"), r);
  check_equal(load_npy(dir.file("r.npy")), r);
  // A Fortran-order, big-endian view of the same values, written back as C order.
  const std::string make = "/usr/bin/python3 -c \"import numpy as np, sys; a=np.load(sys.argv[1]); "
                           "np.save(sys.argv[2], np.asfortranarray(a.astype('>f4')))\" " +
                           rubric::test::shell_quote(dir.file("r.npy")) + " " + rubric::test::shell_quote(dir.file("fb.npy"));
  REQUIRE(std::system(make.c_str()) == 0);
  const Tensor fb = load_npy(dir.file("fb.npy"));
  CHECK_FALSE(fb.is_contiguous());
  save_npy(dir.file("fb_out.npy"), fb);
  check_equal(load_npy(dir.file("fb_out.npy")), r);
  const std::string verify = "/usr/bin/python3 -c \"import numpy as np, sys; a=np.load(sys.argv[1]); b=np.load(sys.argv[2]); "
                             "assert b.dtype==np.dtype('<f4') and b.flags.c_contiguous and np.array_equal(a,b)\" " +
                             rubric::test::shell_quote(dir.file("r.npy")) + " " + rubric::test::shell_quote(dir.file("fb_out.npy"));
  CHECK(std::system(verify.c_str()) == 0);
  const Tensor scalar = random_tensor({}, DType::i64, 9);
  save_npy(dir.file("s.npy"), scalar);
  check_equal(load_npy(dir.file("s.npy")), scalar);
  CHECK_THROWS(save_npy(dir.file("b.npy"), random_tensor({2}, DType::bf16, 1)));
}

TEST_CASE("save_safetensors and save_raw round trip, bf16 and fp8 included") {
  rubric::testing::ScratchDir dir("rubric_save_st");
  const Tensor a = random_tensor({8, 3}, DType::bf16, 1), b = random_tensor({5}, DType::f8e5m2, 2);
  save_safetensors(dir.file("m.safetensors"), {{"a", a}, {"b", b}}, {{"k", "v \"quoted\""}});
  check_equal(load_safetensors(dir.file("m.safetensors"), "a"), a);
  check_equal(load_safetensors(dir.file("m.safetensors"), "b"), b);
  CHECK(read_safetensors_index(dir.file("m.safetensors")).metadata.at("k") == "v \"quoted\"");
  save_raw(dir.file("a.bin"), a);
  check_equal(load_raw(dir.file("a.bin"), DType::bf16, {8, 3}), a);
}
