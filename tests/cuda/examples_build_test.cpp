// The transpose example's kernels all build with nvcc against the rubric's signature (no GPU
// needed); examples/transpose grades their behaviour on a GPU.
#include <doctest/doctest.h>

#include "operators/cuda/module_compiler.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace rubric::cuda;

TEST_CASE("examples/transpose: reference and every submission compile to the declared signature") {
  TempDir dir;
  CompilerSettings s = CompilerSettings::defaults();
  s.cache_dir = dir / "cache";
  if (!compiler_available(ModuleKind::cuda, s)) {
    MESSAGE("skipped: nvcc not found at " << s.nvcc);
    return;
  }
  auto sig = parse_signature("void(const float*, float*, int, int, cudaStream_t)");
  std::string root = test_path("../../examples/transpose/");
  CompileOutcome ref = compile_module(root + "reference/transpose_ref.cu", "transpose_ref", sig, ModuleKind::cuda, s);
  INFO(ref.message);
  CHECK(ref.ok);
  for (const char* name : {"good", "conflicted", "cached", "unwritten"}) {
    CompileOutcome c =
        compile_module(root + "submissions/" + name + "/transpose.cu", "transpose", sig, ModuleKind::cuda, s);
    INFO(name << ": " << c.message);
    CHECK(c.ok);
  }
}
