// Every file numpy (or the small safetensors writer) produced loads with the right dtype,
// shape and values, whatever its version, order or byte order.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/safetensors.hpp"
#include "scratch_dir.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric::tensor;

namespace {

std::vector<double> read_doubles(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<double> out(bytes.size() / 8);
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * 8);
  return out;
}

bool same_value(double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; }

}  // namespace

TEST_CASE("numpy-written .npy and safetensors files load with exact values") {
  rubric::testing::ScratchDir dir("rubric_tensor_files");
  const std::string cmd = "/usr/bin/python3 " + rubric::test::shell_quote(RUBRIC_TENSOR_TEST_DIR "/gen_tensor_files.py") + " " +
                          rubric::test::shell_quote(dir.path().string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream manifest(dir.file("manifest.txt"));
  std::string line;
  int files = 0, big_endian = 0, fortran = 0, versions[4] = {0, 0, 0, 0}, safetensors = 0;
  while (std::getline(manifest, line)) {
    std::istringstream words(line);
    std::string file, dtype, expected, name;
    words >> file >> dtype;
    if (dtype.rfind("name=", 0) == 0) {
      name = dtype.substr(5);
      words >> dtype;
    }
    words >> expected;
    Shape shape;
    for (std::int64_t d; words >> d;) shape.push_back(d);
    CAPTURE(line);
    const Tensor t = name.empty() ? load_npy(dir.file(file)) : load_safetensors(dir.file(file), name);
    CHECK(dtype_name(t.dtype()) == dtype);
    CHECK(t.shape() == shape);
    const auto want = read_doubles(dir.file(expected));
    REQUIRE(static_cast<std::int64_t>(want.size()) == t.size());
    int wrong = 0;
    for (std::int64_t i = 0; i < t.size(); ++i) wrong += same_value(t.at(i), want[i]) ? 0 : 1;
    CHECK(wrong == 0);
    ++files;
    if (name.empty()) {
      big_endian += file.find("_be_") != std::string::npos;
      fortran += file.find("_F_") != std::string::npos;
      versions[file.find("_v1") != std::string::npos ? 1 : file.find("_v2") != std::string::npos ? 2 : file.find("_v3") != std::string::npos ? 3 : 0]++;
      if (file.find("_be_") != std::string::npos) CHECK(t.byte_swapped());
      if (file.find("_F_") != std::string::npos) CHECK_FALSE(t.is_contiguous());
    } else {
      ++safetensors;
    }
  }
  CHECK(files == 85);
  CHECK(big_endian == 28);  // 7 multi-byte dtypes × 2 orders × 2 versions
  CHECK(fortran == 34);
  CHECK(versions[3] == 1);
  CHECK(safetensors == 10);

  const auto index = read_safetensors_index(dir.file("model.safetensors"));
  CHECK(index.names() == std::vector<std::string>{"empty", "w_bf16", "w_bool", "w_e4m3", "w_e5m2", "w_f16", "w_f32", "w_i64", "w_u64", "w_u8"});
  CHECK(index.metadata.at("format") == "pt");
  CHECK(index.metadata.at("note") == "made by gen_tensor_files.py");

  // uint64 values past 2^53 and 2^63 read exactly, whatever the byte order.
  std::ifstream exact_file(dir.file("u64_wide.exact"));
  std::vector<WideInteger> exact;
  for (std::string word; exact_file >> word;) {
    WideInteger v = 0;
    for (char c : word) v = v * 10 + (c - '0');
    exact.push_back(v);
  }
  REQUIRE(exact.size() == 6);
  for (const char* file : {"u64_wide_le.npy", "u64_wide_be.npy"}) {
    CAPTURE(file);
    const Tensor t = load_npy(dir.file(file));
    CHECK(t.dtype() == DType::u64);
    for (std::int64_t i = 0; i < t.size(); ++i) CHECK(integer_element(t, i) == exact[static_cast<std::size_t>(i)]);
  }
  const Tensor st = load_safetensors(dir.file("model.safetensors"), "w_u64");
  CHECK(integer_element(st, 0) == WideInteger{UINT64_MAX});
  CHECK(integer_element(st, 1) == (WideInteger{1} << 53) + 1);
}
