#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "helpers.hpp"
#include "operators/digest/content_digest.hpp"
#include "operators/tensor/npy.hpp"
#include "operators/tensor/random.hpp"
#include "operators/tensor/safetensors.hpp"

using namespace rubric;
using rubric::test::TempDir;

namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const FileRecord* find_record(const Report& r, const std::string& root, const std::string& path) {
  for (const auto& f : r.provenance.files)
    if (f.root == root && f.path == path) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("provenance names every file graded with the XXH3-128 of its bytes, large tensors included") {
  TempDir t;
  std::string sub = t.dir("sub"), ref = t.dir("ref");
  // 2M f32 elements (8 MiB): large enough that its digest is computed beside the comparison.
  auto x = tensor::random_tensor({2048, 1024}, tensor::DType::f32, 3);
  tensor::save_npy(sub + "/y.npy", x);
  tensor::save_npy(ref + "/y.npy", x);
  tensor::save_safetensors(ref + "/w.safetensors", {{"a", x}, {"b", tensor::random_tensor({7}, tensor::DType::f32, 4)}});
  t.write("sub/answer.md", "bank conflict");
  t.write("ref/bench.json", R"({"n": 3})");
  Report r = rubric::test::run_text(R"(
rubric "provenance" { version: "1.0" }
criterion y "matches" {
  expect load(submission / "y.npy") matches load(reference / "y.npy")
  expect load(reference / "w.safetensors", "a") matches load(reference / "y.npy")
  expect load(reference / "w.safetensors", "b").size == 7
}
criterion t "text and json" {
  expect text(submission / "answer.md") mentions "bank conflict"
  expect json(reference / "bench.json").n == 3
}
)", sub, ref);
  REQUIRE_MESSAGE(r.criteria.size() == 2, r.title);
  CHECK(r.criteria[0].verdict == Verdict::pass);
  CHECK(r.criteria[1].verdict == Verdict::pass);
  for (auto [root, dir, path] : {std::tuple{"submission", sub, "y.npy"}, {"reference", ref, "y.npy"},
                                 {"reference", ref, "w.safetensors"}, {"submission", sub, "answer.md"},
                                 {"reference", ref, "bench.json"}}) {
    const FileRecord* f = find_record(r, root, path);
    REQUIRE_MESSAGE(f, root << "/" << path);
    const std::string bytes = contents(dir + "/" + path);
    CHECK(f->bytes == bytes.size());
    CHECK(f->digest == digest::content_digest_hex(bytes));
  }
  // Each file once, however many tensors were read from it.
  CHECK(r.provenance.files.size() == 6);  // the rubric, and the five files above
}

TEST_CASE("a sparse tensor file is hashed without reading its holes, to the digest of its bytes") {
  TempDir t;
  std::string sub = t.dir("sub"), ref = t.dir("ref");
  // A 64 MiB f32 .npy whose data is mostly a hole, with a few written blocks between holes.
  tensor::save_npy(sub + "/x.npy", tensor::random_tensor({16 << 20}, tensor::DType::f32, 6));
  {
    std::string header = contents(sub + "/x.npy").substr(0, 128);
    std::ofstream out(sub + "/x.npy", std::ios::binary | std::ios::trunc);
    out << header;
  }
  REQUIRE(::truncate((sub + "/x.npy").c_str(), 128 + (64ll << 20)) == 0);
  {
    std::fstream out(sub + "/x.npy", std::ios::binary | std::ios::in | std::ios::out);
    for (long long at : {128ll + (8ll << 20), 128ll + (40ll << 20) + 5}) {
      out.seekp(at);
      out << "written between holes";
    }
  }
  Report r = rubric::test::run_text(R"(
rubric "sparse" { version: "1.0" }
criterion shape "shape" { expect load(submission / "x.npy").shape == [16777216] }
)", sub, ref);
  REQUIRE(r.criteria.size() == 1);
  CHECK(r.criteria[0].verdict == Verdict::pass);
  const FileRecord* f = find_record(r, "submission", "x.npy");
  REQUIRE(f);
  CHECK(f->digest == digest::content_digest_hex(contents(sub + "/x.npy")));
}

TEST_CASE("a tensor file whose header is refused FAILs and is not hashed") {
  TempDir t;
  std::string sub = t.dir("sub"), ref = t.dir("ref");
  tensor::save_npy(ref + "/y.npy", tensor::random_tensor({16}, tensor::DType::f32, 1));
  t.write("sub/y.npy", std::string("\x93NUMPY\x01\x00\x10\x00{'descr': '<V2'}", 26) + std::string(1 << 20, 'x'));
  Report r = rubric::test::run_text(R"(
rubric "bad header" { version: "1.0" }
criterion y "matches" {
  expect load(submission / "y.npy") matches load(reference / "y.npy")
}
)", sub, ref);
  REQUIRE_MESSAGE(r.criteria.size() == 1, r.title);
  CHECK(r.criteria[0].verdict == Verdict::fail);
  CHECK(find_record(r, "submission", "y.npy") == nullptr);
}
