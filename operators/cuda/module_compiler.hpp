#pragma once
// cuda_fn's build step: candidate source + entry + signature → a shared object exporting
// rubric_call (see trampoline.hpp), cached in a directory under a content hash of
// (source bytes, signature, entry, compiler, flags). The rubric process never loads the result;
// only the GPU worker does.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "operators/error.hpp"
#include "operators/cuda/signature.hpp"
#include "operators/cuda/source_snapshot.hpp"
#include "operators/cuda/trampoline.hpp"

namespace rubric::cuda {

struct CompilerSettings {
  std::string nvcc;        // default: $RUBRIC_NVCC, else the nvcc found at build time, else /usr/local/cuda/bin/nvcc
  std::string host_cxx;    // default: $RUBRIC_CXX, else the C++ compiler used to build rubric
  std::string cache_dir;   // default: $RUBRIC_CACHE_DIR/cuda, else $XDG_CACHE_HOME or ~/.cache, + /rubric/cuda
  // The one target .cu modules are built for: "sm_90a" (a cubin, compute_90a → sm_90a), "sm_89", or
  // "compute_120" (PTX only, JIT-compiled by the driver). Empty: $RUBRIC_CUDA_ARCH, else the
  // session fills it from the device (cuda_target_for), else kDefaultCudaArch.
  std::string arch;
  std::vector<std::string> extra_flags;  // appended to the compiler command (part of the cache key)
  double timeout_s = 300;
  std::uint64_t memory_bytes = 8ull << 30;  // the compiler's memory (all its stages together)
  SnapshotLimits snapshot;                  // what of the source's folder the compiler gets a copy of
  // Compile inside the run sandbox (docs/gpu.md, "Compiling in the sandbox"). Off only for the
  // benchmark's baseline: the compiler then reads the original folder as the grader.
  bool sandboxed = true;

  static CompilerSettings defaults();
};

// The target used when no device is known (compile checks on machines without a GPU).
inline constexpr const char* kDefaultCudaArch = "sm_90a";

// What to compile candidates for on a device of compute capability `cc` ("9.0"), given the real
// architectures this nvcc accepts (`nvcc --list-gpu-code`: "sm_80", ...; empty = unknown, assume
// supported). The device's own cubin, with the architecture-specific `a` features (wgmma, TMA,
// tcgen05) from 9.0 on; a device newer than nvcc gets the highest PTX nvcc has at or below its
// capability; one older than every nvcc target gets an empty arch and the reason in `problem`
// (the grading machine's toolkit cannot serve its device).
struct CudaTarget {
  std::string arch;
  std::string problem;
};
CudaTarget cuda_target_for(std::string_view cc, const std::vector<std::string>& nvcc_codes);

// The real architectures `nvcc --list-gpu-code` prints (run once per nvcc path; empty on failure).
std::vector<std::string> nvcc_gpu_codes(const std::string& nvcc);

// nvcc's -gencode value for a CompilerSettings::arch: "arch=compute_90a,code=sm_90a".
std::string gencode_for(const std::string& arch);

struct CompiledModule {
  std::string library_path;  // the cached .so
  std::string entry;
  Signature signature;
  ModuleKind kind = ModuleKind::cuda;
  std::string source_name;   // how messages name the source
  std::string cache_key;
  bool from_cache = false;
  std::uint64_t gpu_memory_bytes = 0;  // device memory its calls may use; 0: the session's limit
};

struct CompileOutcome {
  bool ok = false;
  // The machine's fault, not the source's: the toolkit cannot build for this device, the compiler
  // is missing or could not be started in its sandbox.
  bool grader_environment = false;
  CompiledModule module;     // valid when ok
  std::string message;       // when !ok: trimmed compiler errors, in the candidate's terms (escaped)
  // A fresh build (not a cache hit): the command and what confined it
  // ("process group, rlimits, pid namespace, no network, whitelist filesystem, ...").
  std::string command;
  std::string isolation;
  double seconds = 0;
};

// What the compiler of a candidate source may see: a copy of `source_root` (default: the
// source's own folder), read-only. `hidden` are covered where the machine refuses the whitelist
// and only a blacklist is possible (the reference, the original submission).
struct CompileSandbox {
  std::string source_root;
  std::vector<std::string> hidden;
};

// .cu → cuda; .cpp/.cc/.cxx → cpu_standin. Throws OperatorError for any other extension.
ModuleKind module_kind_for(std::string_view source_path);
// Whether `arch` names a CUDA target nvcc takes: sm_90, sm_90a, sm_100f, compute_100, 90.
bool valid_cuda_arch(const std::string& arch);

// Whether the compiler for `kind` can be executed (nvcc is absent on machines without the toolkit).
bool compiler_available(ModuleKind kind, const CompilerSettings& settings);

// The exact command used (tests and docs show it). `output` is the .so, `input` the trampoline.
std::vector<std::string> compile_command(ModuleKind kind, const CompilerSettings& settings, const std::string& input,
                                         const std::string& output);

// Compile failures (candidate errors, signature mismatches, a timeout, the memory limit, a source
// folder past the copy's budget) come back as !ok with the message; a missing compiler or one that
// cannot be started in its sandbox as !ok with grader_environment; an unreadable source or an
// unusable cache directory throw OperatorError.
CompileOutcome compile_module(const std::string& source_path, std::string_view entry, const Signature& signature,
                              ModuleKind kind, const CompilerSettings& settings, std::string_view source_name = "",
                              const CompileSandbox& sandbox = {});

// Compiler output as a report may show it: valid UTF-8 kept, control characters and stray bytes
// as \xNN (a source may #include a binary file), each line and the whole capped.
std::string escape_compiler_text(std::string_view text, std::size_t max_line = 1000, std::size_t max_total = 4000);

}  // namespace rubric::cuda
