// cuda_fn's build step with the real compilers: nvcc for .cu (no GPU needed to compile), the host
// compiler for the CPU stand-in.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <set>

#include "operators/cuda/module_compiler.hpp"
#include "operators/cuda/source_snapshot.hpp"
#include "operators/files/sparse_copy.hpp"
#include "fatbin_listing.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace rubric::cuda;

namespace {

CompilerSettings settings_in(const TempDir& dir) {
  CompilerSettings s = CompilerSettings::defaults();
  s.cache_dir = dir / "cache";
  return s;
}

const char* kScaleSig = "void(const float*, float*, float, int, cudaStream_t)";
const char* kAddSig = "void(const float*, const float*, float*, int, cudaStream_t)";

}  // namespace

TEST_CASE("nvcc builds a good .cu into a cached module") {
  TempDir dir;
  CompilerSettings s = settings_in(dir);
  if (!compiler_available(ModuleKind::cuda, s)) {
    MESSAGE("skipped: nvcc not found at " << s.nvcc);
    return;
  }
  auto sig = parse_signature(kScaleSig);
  CompileOutcome first = compile_module(test_path("data/scale_good.cu"), "scale", sig, ModuleKind::cuda, s);
  INFO(first.message);
  REQUIRE(first.ok);
  CHECK(std::filesystem::exists(first.module.library_path));
  CHECK_FALSE(first.module.from_cache);
  CompileOutcome second = compile_module(test_path("data/scale_good.cu"), "scale", sig, ModuleKind::cuda, s);
  REQUIRE(second.ok);
  CHECK(second.module.from_cache);
  CHECK(second.module.library_path == first.module.library_path);
  // A different signature is a different module.
  CompileOutcome other =
      compile_module(test_path("data/scale_good.cu"), "scale", parse_signature("void(const float*, float*, int, float, cudaStream_t)"),
                     ModuleKind::cuda, s);
  CHECK_FALSE(other.ok);
}

TEST_CASE("nvcc: a source that does not compile fails with its own file and line") {
  TempDir dir;
  CompilerSettings s = settings_in(dir);
  if (!compiler_available(ModuleKind::cuda, s)) {
    MESSAGE("skipped: nvcc not found at " << s.nvcc);
    return;
  }
  CompileOutcome r = compile_module(test_path("data/scale_syntax_error.cu"), "scale", parse_signature(kScaleSig),
                                    ModuleKind::cuda, s);
  INFO(r.message);
  REQUIRE_FALSE(r.ok);
  CHECK(r.message.find("scale_syntax_error.cu(5): error") == 0);
  CHECK(r.message.find("undeclared_factor") != std::string::npos);
  CHECK(r.message.find("rubric_trampoline") == std::string::npos);
  CHECK(r.message.find("/work") == std::string::npos);  // the name the rubric used, not an absolute path
}

TEST_CASE("nvcc: an entry whose type differs from the signature fails naming both") {
  TempDir dir;
  CompilerSettings s = settings_in(dir);
  if (!compiler_available(ModuleKind::cuda, s)) {
    MESSAGE("skipped: nvcc not found at " << s.nvcc);
    return;
  }
  CompileOutcome r = compile_module(test_path("data/scale_wrong_signature.cu"), "scale", parse_signature(kScaleSig),
                                    ModuleKind::cuda, s);
  INFO(r.message);
  REQUIRE_FALSE(r.ok);
  CHECK(r.message.find("entry 'scale' in scale_wrong_signature.cu does not have the declared type "
                       "void(const float*, float*, float, int, cudaStream_t)") == 0);
  CHECK(r.message.find("rubric_trampoline") == std::string::npos);

  CompileOutcome missing = compile_module(test_path("data/scale_good.cu"), "scale_launch", parse_signature(kScaleSig),
                                          ModuleKind::cuda, s);
  INFO(missing.message);
  REQUIRE_FALSE(missing.ok);
  CHECK(missing.message.find("scale_good.cu defines no function 'scale_launch'") == 0);
}

TEST_CASE("host compiler: the CPU stand-in builds, and reports errors and mismatches the same way") {
  TempDir dir;
  CompilerSettings s = settings_in(dir);
  REQUIRE(compiler_available(ModuleKind::cpu_standin, s));
  auto sig = parse_signature(kAddSig);
  CompileOutcome good = compile_module(test_path("data/add_good.cpp"), "add", sig, ModuleKind::cpu_standin, s);
  INFO(good.message);
  CHECK(good.ok);

  CompileOutcome syntax = compile_module(test_path("data/add_syntax_error.cpp"), "add", sig, ModuleKind::cpu_standin, s);
  INFO(syntax.message);
  REQUIRE_FALSE(syntax.ok);
  CHECK(syntax.message.find("add_syntax_error.cpp:4:") == 0);
  CHECK(syntax.message.find("rubric_trampoline") == std::string::npos);

  CompileOutcome wrong = compile_module(test_path("data/add_wrong_type.cpp"), "add", sig, ModuleKind::cpu_standin, s);
  INFO(wrong.message);
  REQUIRE_FALSE(wrong.ok);
  CHECK(wrong.message.find("entry 'add' in add_wrong_type.cpp does not have the declared type") == 0);
}

TEST_CASE("a target the machine names wrong is the grading environment's fault, never the source's") {
  CHECK(valid_cuda_arch("sm_90a"));
  CHECK(valid_cuda_arch("sm_80"));
  CHECK(valid_cuda_arch("sm_100f"));
  CHECK(valid_cuda_arch("compute_100"));
  CHECK(valid_cuda_arch("90"));
  CHECK_FALSE(valid_cuda_arch("sm_zz"));
  CHECK_FALSE(valid_cuda_arch("junk"));
  CHECK_FALSE(valid_cuda_arch("sm_9"));
  CHECK_FALSE(valid_cuda_arch(""));
  TempDir dir;
  CompilerSettings s = settings_in(dir);
  s.arch = "sm_zz";  // RUBRIC_CUDA_ARCH set to junk
  CompileOutcome r = compile_module(test_path("data/scale_good.cu"), "scale", parse_signature(kScaleSig), ModuleKind::cuda, s);
  INFO(r.message);
  CHECK_FALSE(r.ok);
  CHECK(r.grader_environment);
  if (compiler_available(ModuleKind::cuda, s)) CHECK(r.message.find("sm_zz") != std::string::npos);
}

TEST_CASE("source kinds and unreadable sources") {
  CHECK(module_kind_for("a/b.cu") == ModuleKind::cuda);
  CHECK(module_kind_for("b.cpp") == ModuleKind::cpu_standin);
  CHECK_THROWS_WITH_AS(module_kind_for("b.py"), doctest::Contains("expected a .cu source"), rubric::OperatorError);
  TempDir dir;
  CHECK_THROWS_WITH_AS(compile_module(test_path("data/nope.cpp"), "add", parse_signature(kAddSig), ModuleKind::cpu_standin,
                                      settings_in(dir)),
                       doctest::Contains("cannot read"), rubric::OperatorError);
}

TEST_CASE("the target for a device: its own cubin, the `a` variant from Hopper on, PTX past nvcc's newest") {
  std::vector<std::string> nvcc13{"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90",
                                  "sm_100", "sm_110", "sm_103", "sm_120", "sm_121"};
  CHECK(cuda_target_for("8.0", nvcc13).arch == "sm_80");
  CHECK(cuda_target_for("8.6", nvcc13).arch == "sm_86");
  CHECK(cuda_target_for("8.9", nvcc13).arch == "sm_89");
  CHECK(cuda_target_for("9.0", nvcc13).arch == "sm_90a");
  CHECK(cuda_target_for("10.0", nvcc13).arch == "sm_100a");
  CHECK(cuda_target_for("10.3", nvcc13).arch == "sm_103a");
  CHECK(cuda_target_for("12.0", nvcc13).arch == "sm_120a");
  CHECK(cuda_target_for("7.5", nvcc13).arch == "sm_75");
  CHECK(cuda_target_for("13.0", nvcc13).arch == "compute_121");  // newer than nvcc: PTX the driver JITs
  CudaTarget volta = cuda_target_for("7.0", nvcc13);            // nvcc 13 dropped Volta
  CHECK(volta.arch.empty());
  CHECK(volta.problem.find("cannot build for compute capability 7.0") != std::string::npos);
  CHECK(cuda_target_for("9.0", {}).arch == "sm_90a");  // nvcc's list unknown: trust the device
  CHECK_FALSE(cuda_target_for("nine", nvcc13).problem.empty());
  CHECK(gencode_for("sm_90a") == "arch=compute_90a,code=sm_90a");
  CHECK(gencode_for("sm_89") == "arch=compute_89,code=sm_89");
  CHECK(gencode_for("compute_121") == "arch=compute_121,code=compute_121");
}

TEST_CASE("compile checks: candidates build for every listed architecture, and hold exactly that image") {
  TempDir dir;
  CompilerSettings s = settings_in(dir);
  if (!compiler_available(ModuleKind::cuda, s)) {
    MESSAGE("skipped: nvcc not found at " << s.nvcc);
    return;
  }
  std::vector<std::string> codes = nvcc_gpu_codes(s.nvcc);
  MESSAGE("nvcc --list-gpu-code: " << fatbin::joined({codes.begin(), codes.end()}));
  CHECK(std::find(codes.begin(), codes.end(), "sm_90") != codes.end());
  auto sig = parse_signature(kScaleSig);
  std::vector<std::string> archs{"sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", "compute_120"};
  std::vector<std::future<CompileOutcome>> builds;
  for (const std::string& a : archs) {
    CompilerSettings each = s;
    each.arch = a;
    builds.push_back(std::async(std::launch::async, [each, sig] {
      return compile_module(test_path("data/scale_good.cu"), "scale", sig, ModuleKind::cuda, each);
    }));
  }
  for (std::size_t i = 0; i < archs.size(); ++i) {
    CompileOutcome c = builds[i].get();
    INFO(archs[i] << ": " << c.message);
    REQUIRE(c.ok);
    CHECK(fatbin::joined(fatbin::images(c.module.library_path)) == archs[i]);
  }
  // Hopper's warpgroup instructions exist only in the `a` target the device query selects.
  auto fence_sig = parse_signature("void(const float*, float*, int, cudaStream_t)");
  CompilerSettings hopper = s, plain = s;
  hopper.arch = "sm_90a";
  plain.arch = "sm_90";
  CompileOutcome ok = compile_module(test_path("data/wgmma_fence.cu"), "fence", fence_sig, ModuleKind::cuda, hopper);
  INFO(ok.message);
  CHECK(ok.ok);
  CompileOutcome no = compile_module(test_path("data/wgmma_fence.cu"), "fence", fence_sig, ModuleKind::cuda, plain);
  CHECK_FALSE(no.ok);
}

TEST_CASE("compile checks: the worker holds its kernels for sm_80, 86, 89, 90, 100 and compute_100 PTX") {
  std::string worker = RUBRIC_GPU_WORKER_BINARY;
  if (!RUBRIC_CUDA_BUILT) {
    MESSAGE("skipped: built without CUDA");
    return;
  }
  std::set<std::string> found = fatbin::images(worker);
  INFO("images in " << worker << ": " << fatbin::joined(found));
  for (const char* a : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "compute_100"}) CHECK(found.count(a) == 1);
}

TEST_CASE("a source folder nested past the copy's depth is the source's failure, not a crash") {
  // The compile's snapshot descends one call per folder: 3,000 nested folders overflowed the stack.
  TempDir dir;
  std::filesystem::create_directories(dir / "src");
  int fd = ::open((dir / "src").c_str(), O_RDONLY | O_DIRECTORY);
  int made = 0;
  for (; fd >= 0 && made < 600 && ::mkdirat(fd, "a", 0755) == 0; ++made) {
    int sub = ::openat(fd, "a", O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = sub;
  }
  if (fd >= 0) ::close(fd);
  REQUIRE(made == 600);
  try {
    snapshot_sources(dir / "src", dir / "copy", SnapshotLimits{}, "submission");
    FAIL("no budget error");
  } catch (const rubric::files::BudgetExceeded& e) {
    CHECK(std::string(e.what()).find("submission nests folders more than 256 deep") == 0);
  }
}
