// The whole worker protocol with the CPU stand-in backend: build, call, poisoning, crashes, hangs,
// timing and its re-check, and the comparison, with no GPU.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "operators/cuda/gpu_session.hpp"
#include "worker_fixture.hpp"

using namespace rubric::cuda;
using rubric::tensor::DType;


TEST_CASE("call: a correct function returns its outputs") {
  Fixture f;
  CompiledModule m = f.build("add_good.cpp");
  std::vector<float> a{1, 2, 3, 4, 5}, b{10, 20, 30, 40, 50};
  CallOutcome r = f.session.call(m, add_args(a, b));
  INFO(r.failure);
  REQUIRE(r.ok);
  REQUIRE(r.outputs.size() == 1);
  CHECK(r.outputs[0].shape == std::vector<std::int64_t>{5});
  CHECK(floats(r.outputs[0]) == std::vector<float>{11, 22, 33, 44, 55});
}

TEST_CASE("call: inputs may come from files at an offset") {
  Fixture f;
  CompiledModule m = f.build("add_good.cpp");
  std::vector<float> data{0, 0, 1, 2, 3};  // 8 bytes of header, then 3 floats
  std::string path = f.dir / "in.bin";
  FILE* out = std::fopen(path.c_str(), "wb");
  std::fwrite(data.data(), 4, data.size(), out);
  std::fclose(out);
  TensorArg x{DType::f32, {3}, nullptr, path, 8};
  CallOutcome r = f.session.call(m, {x, x, OutputArg{DType::f32, {3}}, std::int64_t{3}});
  INFO(r.failure);
  REQUIRE(r.ok);
  CHECK(floats(r.outputs[0]) == std::vector<float>{2, 4, 6});
  TensorArg short_file{DType::f32, {30}, nullptr, path, 8};
  CallOutcome bad = f.session.call(m, {short_file, short_file, OutputArg{DType::f32, {30}}, std::int64_t{30}});
  CHECK_FALSE(bad.ok);
  CHECK(bad.failure.find("holds 20 bytes; 120 are needed from offset 8") != std::string::npos);
}

TEST_CASE("call: an output element the function never writes fails the call, floats as integers") {
  Fixture f;
  CompiledModule m = f.build("add_half_written.cpp");
  std::vector<float> a{1, 2, 3, 4}, b{1, 1, 1, 1};
  CallOutcome r = f.session.call(m, add_args(a, b));
  CHECK_FALSE(r.ok);
  CHECK_FALSE(r.grader_environment);
  CHECK(r.failure == "output 0 (f32): 2 of 4 elements were never written (they kept the poison; first at flat index 2)");
  // A NaN the function computes is a value, not an unwritten element.
  CompiledModule nan = f.build("add_writes_nan.cpp");
  CallOutcome n = f.session.call(nan, add_args(a, b));
  INFO(n.failure);
  REQUIRE(n.ok);
  for (float x : floats(n.outputs[0])) CHECK(std::isnan(x));
}

TEST_CASE("call: a crash kills only the worker, with the signal as the reason; the next call works") {
  Fixture f;
  CompiledModule m = f.build("add_crash.cpp");
  std::vector<float> ok_a(4, 1.f), ok_b(4, 2.f), bad(13, 1.f);
  REQUIRE(f.session.call(m, add_args(ok_a, ok_b)).ok);
  pid_t before = f.session.worker(m).pid();
  CallOutcome crashed = f.session.call(m, add_args(bad, bad));
  CHECK_FALSE(crashed.ok);
  CHECK_FALSE(crashed.grader_environment);
  CHECK(crashed.failure == "worker killed by SIGSEGV");
  CHECK_FALSE(f.session.worker(m).running());
  CallOutcome again = f.session.call(m, add_args(ok_a, ok_b));
  INFO(again.failure);
  REQUIRE(again.ok);
  CHECK(floats(again.outputs[0]) == std::vector<float>(4, 3.f));
  CHECK(f.session.worker(m).pid() != before);
}

TEST_CASE("call: a hang times out and the worker is replaced") {
  Fixture f;
  CompiledModule m = f.build("add_hang.cpp");
  std::vector<float> seven(7, 1.f), four(4, 1.f);
  CallOutcome hung = f.session.call(m, add_args(seven, seven));
  CHECK_FALSE(hung.ok);
  CHECK(hung.failure == "timed out after 3 s");
  CallOutcome next = f.session.call(m, add_args(four, four));
  INFO(next.failure);
  CHECK(next.ok);
}

TEST_CASE("call: argument mistakes are the caller's and throw before anything runs") {
  Fixture f;
  CompiledModule m = f.build("add_good.cpp");
  std::vector<float> a(4, 1.f);
  std::vector<double> d(4, 1.0);
  CHECK_THROWS_WITH_AS(f.session.call(m, {TensorArg{DType::f32, {4}, a.data(), {}, 0}}), doctest::Contains("takes 4 arguments"),
                       rubric::OperatorError);
  CHECK_THROWS_WITH_AS(f.session.call(m, {TensorArg{DType::f64, {4}, d.data(), {}, 0}, TensorArg{DType::f32, {4}, a.data(), {}, 0},
                                          OutputArg{DType::f32, {4}}, std::int64_t{4}}),
                       doctest::Contains("argument 1 of add: parameter 'const float*' needs a tensor, got a f64 tensor"),
                       rubric::OperatorError);
  CHECK_THROWS_WITH_AS(f.session.call(m, {OutputArg{DType::f32, {4}}, TensorArg{DType::f32, {4}, a.data(), {}, 0},
                                          OutputArg{DType::f32, {4}}, std::int64_t{4}}),
                       doctest::Contains("the parameter is const"), rubric::OperatorError);
  CHECK_THROWS_WITH_AS(f.session.call(m, {TensorArg{DType::f32, {4}, a.data(), {}, 0}, TensorArg{DType::f32, {4}, a.data(), {}, 0},
                                          OutputArg{DType::f32, {4}}, 4.5}),
                       doctest::Contains("not an integer"), rubric::OperatorError);
}

TEST_CASE("time: samples with their method; a correct function passes the re-check") {
  Fixture f;
  CompiledModule m = f.build("add_good.cpp");
  std::vector<float> a(1 << 16, 1.f), b(1 << 16, 2.f);
  TimingOptions o;
  o.min_time_s = 0.01;
  o.max_time_s = 2;
  o.fresh = true;
  TimeOutcome t = f.session.time(m, add_args(a, b), o);
  INFO(t.failure);
  REQUIRE(t.ok);
  CHECK(t.samples.size() >= 10);
  for (double s : t.samples) CHECK(s > 0);
  CHECK(t.method.samples == static_cast<int>(t.samples.size()));
  CHECK(t.method.warmup_calls >= 1);
  CHECK(t.method.fresh_inputs);
  CHECK_FALSE(t.method.l2_flushed);  // nothing to flush on the stand-in
  CHECK(t.method.backend == "cpu");
  CHECK_FALSE(t.method.stop_reason.empty());
  CHECK(t.recheck.find("change with fresh inputs") != std::string::npos);
}

TEST_CASE("time: a function that only works once is caught on its first timed sample") {
  Fixture f;
  CompiledModule m = f.build("add_works_once.cpp");
  std::vector<float> a(256, 1.f), b(256, 2.f);
  TimingOptions o;
  o.min_time_s = 0.001;
  o.max_time_s = 1;
  TimeOutcome t = f.session.time(m, add_args(a, b), o);
  CHECK_FALSE(t.ok);
  CHECK_FALSE(t.recheck_ok);
  CHECK(t.failure.find("sample 1 (timed): output 0 differs from the untimed call's: 256 of 256 elements") !=
        std::string::npos);
}

TEST_CASE("time: cached results are caught with fresh inputs") {
  Fixture f;
  CompiledModule m = f.build("add_cached.cpp");
  std::vector<float> a(256, 1.f), b(256, 2.f);
  TimingOptions o;
  o.min_time_s = 0.001;
  o.max_time_s = 1;
  o.fresh = true;
  TimeOutcome t = f.session.time(m, add_args(a, b), o);
  CHECK_FALSE(t.ok);
  CHECK(t.failure.find("outputs did not change when the inputs were redrawn") != std::string::npos);
}

TEST_CASE("compare on the stand-in: the fused statistics and the closeness rule") {
  Fixture f;
  float nan = std::nanf(""), inf = INFINITY;
  std::vector<float> a{1.0f, 2.0f, 3.5f, nan, inf, -inf, 0.0f, 1e-6f};
  std::vector<float> b{1.0f, 2.1f, 3.0f, nan, inf, inf, 0.0f, 0.0f};
  TensorArg ta{DType::f32, {2, 4}, a.data(), {}, 0}, tb{DType::f32, {2, 4}, b.data(), {}, 0};
  CompareOutcome r = f.session.compare(ta, tb, {0.01, 1e-5, 0}, true);
  INFO(r.failure);
  REQUIRE(r.ok);
  const auto& s = r.stats;
  CHECK(s.count == 8);
  // 2.0 vs 2.1 and 3.5 vs 3.0 exceed the tolerance; NaN never matches; -inf vs inf differs.
  CHECK(s.mismatches == 4);
  CHECK(s.first_mismatch_index == 1);
  CHECK(s.max_abs == doctest::Approx(0.5));
  CHECK(s.max_abs_index == 2);
  CHECK(std::isinf(s.max_rel));  // 1e-6 vs 0
  CHECK(s.max_rel_index == 7);
  CHECK(s.nan_a == 1);
  CHECK(s.nan_b == 1);
  CHECK(s.inf_a == 2);
  CHECK(s.inf_b == 2);
  CHECK(s.max_abs_b == doctest::Approx(3.0));
  CHECK_THROWS_WITH_AS(f.session.compare(ta, TensorArg{DType::f32, {8}, b.data(), {}, 0}, {}, true),
                       doctest::Contains("no broadcasting"), rubric::OperatorError);
}

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

TEST_CASE("call: integer and bool outputs are checked with two poison patterns") {
  Fixture f;
  std::vector<std::int32_t> x{5, -1, 7, 255, 0, -1, 3, 4};
  auto n = static_cast<std::int64_t>(x.size());
  CompileOutcome c = f.session.cuda_fn(test_path("data/i32_half_written.cpp"), "copy",
                                       "void(const int*, int*, int, cudaStream_t)");
  REQUIRE(c.ok);
  CallOutcome r = f.session.call(c.module, {TensorArg{DType::i32, {n}, x.data(), {}, 0}, OutputArg{DType::i32, {n}}, n});
  CHECK_FALSE(r.ok);
  CHECK_FALSE(r.grader_environment);
  CHECK(r.failure == "output 0 (i32): 4 of 8 elements were never written (they kept the poison; first at flat index 1)");

  CompileOutcome b = f.session.cuda_fn(test_path("data/bool_half_written.cpp"), "positive",
                                       "void(const int*, bool*, int, cudaStream_t)");
  REQUIRE(b.ok);
  CallOutcome rb = f.session.call(b.module, {TensorArg{DType::i32, {n}, x.data(), {}, 0}, OutputArg{DType::boolean, {n}}, n});
  CHECK_FALSE(rb.ok);
  CHECK(rb.failure.find("output 0 (bool): 4 of 8 elements were never written") != std::string::npos);
  TimeOutcome t = f.session.time(b.module, {TensorArg{DType::i32, {n}, x.data(), {}, 0}, OutputArg{DType::boolean, {n}}, n});
  CHECK_FALSE(t.ok);
  CHECK(t.failure.find("were never written") != std::string::npos);
}

TEST_CASE("call and time: writes just past a tensor hit its canaries; far past it, the guard page") {
  Fixture f;
  std::vector<float> a(100, 1.f), b(100, 2.f);
  CompiledModule near = f.build("add_overrun.cpp");
  CallOutcome r = f.session.call(near, add_args(a, b));
  CHECK_FALSE(r.ok);
  CHECK(r.failure == "output 0 (argument 3): 12 bytes written outside the tensor");
  TimeOutcome t = f.session.time(near, add_args(a, b));
  CHECK_FALSE(t.ok);
  CHECK(t.failure.find("bytes written outside the tensor") != std::string::npos);
  CompiledModule far = f.build("add_far_overrun.cpp");
  CallOutcome crashed = f.session.call(far, add_args(a, b));
  CHECK_FALSE(crashed.ok);
  CHECK(crashed.failure == "worker killed by SIGSEGV");
  // Nothing of it is left for the correct function, which runs in a worker of its own.
  CallOutcome good = f.session.call(f.build("add_good.cpp"), add_args(a, b));
  CHECK(good.ok);
}

TEST_CASE("time: a kernel that writes its inputs is timed and re-checked on restored inputs") {
  Fixture f;
  CompileOutcome c = f.session.cuda_fn(test_path("data/scale_in_place.cpp"), "twice",
                                       "void(float*, float*, int, cudaStream_t)");
  REQUIRE(c.ok);
  std::vector<float> x(4096, 0.5f);
  auto n = static_cast<std::int64_t>(x.size());
  TimingOptions o;
  o.min_time_s = 0.005;
  o.max_time_s = 2;
  TimeOutcome t = f.session.time(c.module, {TensorArg{DType::f32, {n}, x.data(), {}, 0}, OutputArg{DType::f32, {n}}, n}, o);
  INFO(t.failure);
  CHECK(t.ok);
  CHECK(t.method.verified_samples == t.method.samples);
}

TEST_CASE("time: outputs are poisoned before every sample, so returning early on a written buffer gains nothing") {
  Fixture f;
  std::vector<float> a(1 << 16, 1.f), b(1 << 16, 2.f);
  TimingOptions o;
  o.min_time_s = 0.02;
  o.max_time_s = 2;
  TimeOutcome good = f.session.time(f.build("add_good.cpp"), add_args(a, b), o);
  TimeOutcome skip = f.session.time(f.build("add_skip_if_written.cpp"), add_args(a, b), o);
  INFO(skip.failure);
  REQUIRE(good.ok);
  REQUIRE(skip.ok);
  // Unpoisoned, every sample after the first would return at once (hundreds of times faster).
  CHECK(median_of(skip.samples) > 0.3 * median_of(good.samples));
  CHECK(skip.method.verified_samples == skip.method.samples);
  CHECK(skip.recheck.find("timed samples verified") != std::string::npos);
}

TEST_CASE("each module runs in its own worker; device queries and comparisons in another") {
  Fixture f;
  CompiledModule good = f.build("add_good.cpp");
  CompiledModule cached = f.build("add_cached.cpp");
  std::vector<float> a(8, 1.f), b(8, 2.f);
  REQUIRE(f.session.call(good, add_args(a, b)).ok);
  REQUIRE(f.session.call(cached, add_args(a, b)).ok);
  CHECK(f.session.worker(good).pid() != f.session.worker(cached).pid());
  CHECK(f.session.worker(good).pid() > 0);
  CHECK(&f.session.worker(ModuleKind::cpu_standin) != &f.session.worker(good));
  // While one module is timed, no other candidate's worker is alive.
  TimingOptions o;
  o.min_time_s = 0.001;
  o.max_time_s = 0.5;
  TimeOutcome t = f.session.time(good, add_args(a, b), o);
  CHECK(t.ok);
  CHECK_FALSE(f.session.worker(cached).running());
  CHECK(f.session.worker(good).running());
  CHECK(f.session.call(cached, add_args(a, b)).ok);  // started again on demand
}

TEST_CASE("a worker that cannot start is the grading machine's failure, not the candidate's") {
  TempDir dir;
  SessionOptions o;
  o.compiler.cache_dir = dir / "cache";
  o.worker_executable = dir / "no-such-worker";
  GpuSession session(o);
  CompileOutcome c = session.cuda_fn(test_path("data/add_good.cpp"), "add", kAddSig);
  REQUIRE(c.ok);
  std::vector<float> a(4, 1.f), b(4, 2.f);
  CallOutcome r = session.call(c.module, add_args(a, b));
  CHECK_FALSE(r.ok);
  CHECK(r.grader_environment);
  CHECK(r.failure.find("no-such-worker") != std::string::npos);
  TimeOutcome t = session.time(c.module, add_args(a, b));
  CHECK(t.grader_environment);
}

TEST_CASE("CUDA requests on a machine without a usable device are the grading machine's failure") {
  Fixture f;
  if (f.session.device_info().available) {
    MESSAGE("skipped: this machine has a CUDA device");
    return;
  }
  CompareOutcome r = f.session.compare(TensorArg{DType::f32, {1}, std::vector<float>{1.f}.data(), {}, 0},
                                       TensorArg{DType::f32, {1}, std::vector<float>{1.f}.data(), {}, 0}, {});
  CHECK_FALSE(r.ok);
  CHECK(r.grader_environment);
  MESSAGE("reason: " << r.failure);
  CHECK_FALSE(r.failure.empty());
}

TEST_CASE("RUBRIC_GPU_MEMCHECK=1 runs the CUDA worker under compute-sanitizer, or says why it cannot") {
  TempDir dir;
  std::string fake = dir / "compute-sanitizer";
  {
    // Prints its arguments (into the worker's log: it runs inside the worker's sandbox, which
    // sees this script and nothing else of the test's folder), then runs the worker the way the
    // real tool would (after its options).
    std::FILE* f = std::fopen(fake.c_str(), "w");
    std::fprintf(f, "#!/bin/sh\necho \"sanitizer args: $@\" >&2\nshift 6\nexec \"$@\"\n");
    std::fclose(f);
    ::chmod(fake.c_str(), 0755);
  }
  ::setenv("RUBRIC_GPU_MEMCHECK", "1", 1);
  ::setenv("RUBRIC_COMPUTE_SANITIZER", fake.c_str(), 1);
  {
    SessionOptions o;
    o.compiler.cache_dir = dir / "cache";
    GpuSession session(o);
    std::vector<float> one{1.f};
    session.compare(TensorArg{DType::f32, {1}, one.data(), {}, 0}, TensorArg{DType::f32, {1}, one.data(), {}, 0}, {});
    std::ifstream in(session.scratch_dir() + "/worker-cuda.log");
    std::string args((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(args);
    CHECK(args.find("--tool memcheck") != std::string::npos);
    CHECK(args.find("rubric-gpu-worker --backend cuda --fd 3") != std::string::npos);
  }

  ::setenv("RUBRIC_COMPUTE_SANITIZER", (dir / "absent").c_str(), 1);
  {
    SessionOptions o;
    o.compiler.cache_dir = dir / "cache";
    GpuSession session(o);
    std::vector<float> one{1.f};
    CompareOutcome r =
        session.compare(TensorArg{DType::f32, {1}, one.data(), {}, 0}, TensorArg{DType::f32, {1}, one.data(), {}, 0}, {});
    CHECK_FALSE(r.ok);
    CHECK(r.grader_environment);
    CHECK(r.failure.find("compute-sanitizer is not at") != std::string::npos);
  }
  ::unsetenv("RUBRIC_GPU_MEMCHECK");
  ::unsetenv("RUBRIC_COMPUTE_SANITIZER");
}

TEST_CASE("the module cache is keyed by the headers a source includes: a replaced header is rebuilt") {
  Fixture f;
  TempDir src;
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(src / name, std::ios::binary) << text;
  };
  write("kernel.cpp", "#include \"impl.h\"\nvoid add(const float* a, const float* b, float* o, int n, cudaStream_t) "
                      "{ for (int i = 0; i < n; ++i) o[i] = combine(a[i], b[i]); }\n");
  write("impl.h", "inline float combine(float x, float y) { return x + y; }\n");
  auto build = [&] {
    CompileOutcome c = f.session.cuda_fn(src / "kernel.cpp", "add", kAddSig);
    INFO(c.message);
    REQUIRE(c.ok);
    return c.module;
  };
  std::vector<float> a(4, 1.f), b(4, 2.f);
  CompiledModule first = build();
  CHECK(floats(f.session.call(first, add_args(a, b)).outputs[0]) == std::vector<float>(4, 3.f));
  CHECK(build().from_cache);  // nothing changed: the same module
  write("impl.h", "inline float combine(float, float) { return 0; }\n");
  CompiledModule second = build();
  CHECK_FALSE(second.from_cache);
  CHECK(second.cache_key != first.cache_key);
  CHECK(floats(f.session.call(second, add_args(a, b)).outputs[0]) == std::vector<float>(4, 0.f));
}
