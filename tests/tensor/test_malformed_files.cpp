// Every malformed file is an OperatorError whose message names the file and the problem.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "operators/error.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/raw.hpp"
#include "operators/tensor/safetensors.hpp"
#include "scratch_dir.hpp"

using namespace rubric::tensor;

namespace {

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string le(std::uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

std::string npy_v1(const std::string& dict, const std::string& data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + le(header.size(), 2) + header + data;
}

std::string safetensors(const std::string& json, const std::string& data) { return le(json.size(), 8) + json + data; }

// Loading must throw OperatorError mentioning the path and `phrase`.
template <typename Load>
void expect_error(const std::string& path, Load&& load, const std::string& phrase) {
  CAPTURE(path);
  CAPTURE(phrase);
  try {
    load();
    FAIL("no error for a malformed file");
  } catch (const rubric::OperatorError& e) {
    const std::string msg = e.what();
    CAPTURE(msg);
    CHECK(msg.find(path) != std::string::npos);
    CHECK(msg.find(phrase) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("malformed .npy files") {
  rubric::testing::ScratchDir dir("rubric_bad_npy");
  const std::string good_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const std::string eight(8, '\0');
  struct Case {
    const char* name;
    std::string bytes;
    const char* phrase;
  } cases[] = {
      {"empty.npy", "", "missing the \\x93NUMPY magic"},
      {"magic.npy", "PK\x03\x04 this is a zip", "missing the \\x93NUMPY magic"},
      {"version.npy", std::string("\x93NUMPY\x04\x00", 8) + le(4, 4) + "{}  ", "unsupported .npy version 4.0"},
      {"header_past_eof.npy", std::string("\x93NUMPY\x01\x00", 8) + le(5000, 2) + "{'descr'", "header length 5000 runs past the end"},
      {"header_past_eof_v2.npy", std::string("\x93NUMPY\x02\x00", 8) + le(0xfffffff0u, 4) + "{}", "runs past the end"},
      {"bad_bool.npy", npy_v1("{'descr': '<f4', 'fortran_order': Flase, 'shape': (2,), }", eight), "expected True or False"},
      {"bad_shape.npy", npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", eight), "expected a non-negative integer"},
      {"unclosed.npy", npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", eight), "bad .npy header dict"},
      {"no_shape.npy", npy_v1("{'descr': '<f4', 'fortran_order': False}", eight), "no 'shape'"},
      {"extra_key.npy", npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", eight), "unexpected key 'x'"},
      {"unknown_dtype.npy", npy_v1("{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }", std::string(4, '\0')), "unknown dtype descr '<V2'"},
      {"complex.npy", npy_v1("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", std::string(16, '\0')), "unknown dtype descr '<c8'"},
      {"unsigned.npy", npy_v1("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", std::string(4, '\0')), "unsigned 16-bit"},
      {"structured.npy", npy_v1("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", eight), "structured dtypes"},
      {"pipe_f4.npy", npy_v1("{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }", eight), "no byte order"},
      {"truncated.npy", npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (100,), }", eight), "truncated: shape (100,) of '<f4' needs 400 data bytes, the file has 8"},
      {"too_much.npy", npy_v1(good_dict, std::string(12, '\0')), "12 data bytes follow the header"},
  };
  for (const Case& c : cases) {
    const std::string path = dir.file(c.name);
    write_file(path, c.bytes);
    expect_error(path, [&] { load_npy(path); }, c.phrase);
  }
  expect_error(dir.file("missing.npy"), [&] { load_npy(dir.file("missing.npy")); }, "cannot be read");
  // The control: the same bytes with a correct size load.
  write_file(dir.file("good.npy"), npy_v1(good_dict, eight));
  CHECK(load_npy(dir.file("good.npy")).size() == 2);
}

TEST_CASE("malformed .safetensors files") {
  rubric::testing::ScratchDir dir("rubric_bad_safetensors");
  const std::string f32x2 = R"("a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]})";
  struct Case {
    const char* name;
    std::string bytes;
    const char* phrase;
  } cases[] = {
      {"short.safetensors", "abc", "too short for a safetensors file"},
      {"len_past_eof.safetensors", le(4096, 8) + "{}", "header length 4096 runs past the end of the file"},
      {"over_cap.safetensors", le(200'000'000, 8) + "{}", "exceeds the 100000000 byte cap"},
      {"bad_json.safetensors", safetensors("{\"a\": {\"dtype\": \"F32\",,}}", ""), "bad JSON header"},
      {"not_object.safetensors", safetensors("[1, 2]", ""), "header is not a JSON object"},
      {"unknown_dtype.safetensors", safetensors(R"({"a": {"dtype": "F7", "shape": [2], "data_offsets": [0, 8]}})", std::string(8, '\0')), "unknown dtype 'F7'"},
      {"size_disagrees.safetensors", safetensors(R"({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", std::string(8, '\0')), "but 3 elements of F32 need 12"},
      {"overlap.safetensors", safetensors("{" + f32x2 + R"(, "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})", std::string(12, '\0')), "tensors 'a' and 'b' overlap"},
      {"gap.safetensors", safetensors("{" + f32x2 + R"(, "b": {"dtype": "F32", "shape": [1], "data_offsets": [12, 16]}})", std::string(16, '\0')), "bytes [8, 12) of the data are covered by no tensor"},
      {"not_from_zero.safetensors", safetensors(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})", std::string(8, '\0')), "bytes [0, 4) of the data are covered by no tensor"},
      {"trailing.safetensors", safetensors("{" + f32x2 + "}", std::string(20, '\0')), "bytes [8, 20) of the data are covered by no tensor"},
      {"truncated.safetensors", safetensors("{" + f32x2 + "}", std::string(5, '\0')), "truncated: tensors need 8 data bytes, the file has 5"},
      {"reversed.safetensors", safetensors(R"({"a": {"dtype": "F32", "shape": [0], "data_offsets": [8, 0]}})", ""), "end before they begin"},
      {"metadata.safetensors", safetensors(R"({"__metadata__": {"k": 1}})", ""), "__metadata__ value for 'k' is not a string"},
      {"no_offsets.safetensors", safetensors(R"({"a": {"dtype": "F32", "shape": [2]}})", std::string(8, '\0')), "needs 'data_offsets'"},
  };
  for (const Case& c : cases) {
    const std::string path = dir.file(c.name);
    write_file(path, c.bytes);
    expect_error(path, [&] { read_safetensors_index(path); }, c.phrase);
  }
  const std::string good = dir.file("good.safetensors");
  write_file(good, safetensors("{" + f32x2 + R"(, "u": {"dtype": "U16", "shape": [1], "data_offsets": [8, 10]}})", std::string(10, '\0')));
  CHECK(load_safetensors(good, "a").size() == 2);
  expect_error(good, [&] { load_safetensors(good, "nope"); }, "no tensor named 'nope'; tensors: a, u");
  expect_error(good, [&] { load_safetensors(good, "u"); }, "dtype U16, which rubric does not support");
}

TEST_CASE("raw files must hold exactly shape × itemsize bytes") {
  rubric::testing::ScratchDir dir("rubric_bad_raw");
  const std::string path = dir.file("x.bin");
  write_file(path, std::string(10, '\0'));
  expect_error(path, [&] { load_raw(path, DType::f32, {3}); }, "3 elements of f32 need 12 bytes, the file has 10");
  CHECK(load_raw(path, DType::i16, {5}).size() == 5);
  CHECK(load_raw(path, DType::u8, {2, 5}).shape() == Shape{2, 5});
}

TEST_CASE("every truncation and random header corruption is an error or a valid load, never a crash") {
  rubric::testing::ScratchDir dir("rubric_fuzz_files");
  const Tensor a = Tensor::from_bytes(DType::f32, {3, 2}, std::vector<std::byte>(24, std::byte{0x3f}), "a");
  save_npy(dir.file("v.npy"), a);
  save_safetensors(dir.file("v.safetensors"), {{"a", a}, {"b", a}}, {{"k", "v"}});
  for (const std::string name : {"v.npy", "v.safetensors"}) {
    std::ifstream in(dir.file(name), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto load = [&](const std::string& path) {
      if (name == "v.npy") load_npy(path);
      else load_safetensors(path, "a");
    };
    const std::string path = dir.file("mutant_" + name);
    for (std::size_t len = 0; len < bytes.size(); ++len) {
      write_file(path, bytes.substr(0, len));
      CHECK_THROWS_AS(load(path), rubric::OperatorError);
    }
    std::uint64_t state = 12345;
    for (int trial = 0; trial < 2000; ++trial) {
      std::string mutant = bytes;
      for (int flips = 0; flips < 3; ++flips) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const std::size_t at = (state >> 33) % std::min<std::size_t>(mutant.size(), 128);
        mutant[at] = static_cast<char>(state >> 56);
      }
      write_file(path, mutant);
      try {
        load(path);
      } catch (const rubric::OperatorError&) {
      }
    }
  }
}
