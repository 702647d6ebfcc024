#pragma once
// A session over the CPU stand-in with short limits, and the `add` module's arguments: what the
// worker tests share.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "operators/cuda/gpu_session.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

namespace worker_fixture {

using namespace rubric::cuda;
using rubric::tensor::DType;

inline const char* kAddSig = "void(const float*, const float*, float*, int, cudaStream_t)";

struct Fixture {
  TempDir dir;
  GpuSession session;
  Fixture() : session(options(dir)) {}
  static SessionOptions options(const TempDir& d) {
    SessionOptions o;
    o.compiler.cache_dir = d / "cache";
    o.call_timeout_s = 3;
    o.time_overhead_s = 5;
    return o;
  }
  CompiledModule build(const char* file) {
    CompileOutcome c = session.cuda_fn(test_path(std::string("data/") + file), "add", kAddSig);
    INFO(c.message);
    REQUIRE(c.ok);
    return c.module;
  }
};

inline std::vector<float> floats(const HostTensor& t) {
  std::vector<float> v(t.bytes.size() / 4);
  std::memcpy(v.data(), t.bytes.data(), t.bytes.size());
  return v;
}

inline std::vector<CallArg> add_args(const std::vector<float>& a, const std::vector<float>& b) {
  std::int64_t n = static_cast<std::int64_t>(a.size());
  return {TensorArg{DType::f32, {n}, a.data(), {}, 0}, TensorArg{DType::f32, {n}, b.data(), {}, 0}, OutputArg{DType::f32, {n}},
          std::int64_t{n}};
}

}  // namespace worker_fixture

using namespace worker_fixture;
