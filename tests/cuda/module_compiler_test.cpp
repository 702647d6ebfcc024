// cuda_fn's build step with the real compilers: nvcc for .cu (no GPU needed to compile), the host
// compiler for the CPU stand-in.
#include <doctest/doctest.h>

#include <filesystem>

#include "operators/cuda/module_compiler.hpp"
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

TEST_CASE("source kinds and unreadable sources") {
  CHECK(module_kind_for("a/b.cu") == ModuleKind::cuda);
  CHECK(module_kind_for("b.cpp") == ModuleKind::cpu_standin);
  CHECK_THROWS_WITH_AS(module_kind_for("b.py"), doctest::Contains("expected a .cu source"), rubric::OperatorError);
  TempDir dir;
  CHECK_THROWS_WITH_AS(compile_module(test_path("data/nope.cpp"), "add", parse_signature(kAddSig), ModuleKind::cpu_standin,
                                      settings_in(dir)),
                       doctest::Contains("cannot read"), rubric::OperatorError);
}
