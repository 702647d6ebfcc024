#include "operators/cuda/module_compiler.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "operators/cuda/compiler_messages.hpp"
#include "operators/cuda/content_hash.hpp"
#include "operators/cuda/tool_runner.hpp"
#include "operators/error.hpp"

#ifndef RUBRIC_NVCC_PATH
#define RUBRIC_NVCC_PATH ""
#endif
#ifndef RUBRIC_CXX_PATH
#define RUBRIC_CXX_PATH "c++"
#endif

namespace fs = std::filesystem;

namespace rubric::cuda {

namespace {

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw OperatorError(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_executable(const std::string& path) {
  if (path.find('/') != std::string::npos) return ::access(path.c_str(), X_OK) == 0;
  const char* p = std::getenv("PATH");
  std::string dirs = p ? p : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    auto colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!dir.empty() && ::access((dir + "/" + path).c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return false;
}

std::string signal_name(int sig) {
  const char* d = strsignal(sig);
  return d ? d : fmt::format("signal {}", sig);
}

}  // namespace

CompilerSettings CompilerSettings::defaults() {
  CompilerSettings s;
  std::string baked = RUBRIC_NVCC_PATH;
  s.nvcc = env_or("RUBRIC_NVCC", baked.empty() ? "/usr/local/cuda/bin/nvcc" : baked);
  s.host_cxx = env_or("RUBRIC_CXX", RUBRIC_CXX_PATH);
  std::string root = env_or("RUBRIC_CACHE_DIR", "");
  if (root.empty()) {
    std::string xdg = env_or("XDG_CACHE_HOME", "");
    std::string home = env_or("HOME", "/tmp");
    root = (xdg.empty() ? home + "/.cache" : xdg) + "/rubric";
  }
  s.cache_dir = root + "/cuda";
  s.arch = env_or("RUBRIC_CUDA_ARCH", "");
  return s;
}

CudaTarget cuda_target_for(std::string_view cc, const std::vector<std::string>& nvcc_codes) {
  CudaTarget t;
  int major = 0, minor = 0;
  std::string text(cc);
  if (std::sscanf(text.c_str(), "%d.%d", &major, &minor) != 2 || major <= 0 || minor < 0 || minor > 9) {
    t.problem = fmt::format("unrecognised compute capability '{}'", text);
    return t;
  }
  int want = major * 10 + minor;
  auto listed = [&](int v) {
    return nvcc_codes.empty() ||
           std::find(nvcc_codes.begin(), nvcc_codes.end(), fmt::format("sm_{}", v)) != nvcc_codes.end();
  };
  if (listed(want)) {
    // The `a` targets exist from Hopper on; they run only on that exact capability, which is ours.
    t.arch = fmt::format("sm_{}{}", want, major >= 9 ? "a" : "");
    return t;
  }
  int best = 0;
  for (const std::string& c : nvcc_codes) {
    int v = 0;
    if (std::sscanf(c.c_str(), "sm_%d", &v) == 1 && v <= want && v > best) best = v;
  }
  if (best > 0) {
    t.arch = fmt::format("compute_{}", best);
  } else {
    t.problem = fmt::format("this nvcc cannot build for compute capability {} (it supports {})", text,
                            fmt::join(nvcc_codes, " "));
  }
  return t;
}

std::vector<std::string> nvcc_gpu_codes(const std::string& nvcc) {
  static std::mutex mu;
  static std::map<std::string, std::vector<std::string>> known;
  std::lock_guard<std::mutex> lock(mu);
  auto it = known.find(nvcc);
  if (it != known.end()) return it->second;
  std::vector<std::string> codes;
  char log_template[] = "/tmp/rubric-nvcc-codes-XXXXXX";
  int fd = ::mkstemp(log_template);
  if (fd >= 0) {
    ::close(fd);
    ToolRun run = run_tool({nvcc, "--list-gpu-code"}, log_template, 30);
    if (run.started && !run.timed_out && !run.signaled && run.exit_code == 0) {
      std::ifstream in(log_template);
      std::string word;
      while (in >> word)
        if (word.rfind("sm_", 0) == 0) codes.push_back(word);
    }
    ::unlink(log_template);
  }
  known[nvcc] = codes;
  return codes;
}

std::string gencode_for(const std::string& arch) {
  if (arch.rfind("compute_", 0) == 0) return fmt::format("arch={0},code={0}", arch);
  std::string number = arch.rfind("sm_", 0) == 0 ? arch.substr(3) : arch;
  return fmt::format("arch=compute_{0},code=sm_{0}", number);
}

ModuleKind module_kind_for(std::string_view source_path) {
  std::string ext = fs::path(std::string(source_path)).extension().string();
  if (ext == ".cu") return ModuleKind::cuda;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx") return ModuleKind::cpu_standin;
  throw OperatorError(fmt::format("{}: expected a .cu source (or .cpp for the CPU stand-in), got '{}'", source_path,
                                  ext.empty() ? "no extension" : ext));
}

bool compiler_available(ModuleKind kind, const CompilerSettings& settings) {
  return is_executable(kind == ModuleKind::cuda ? settings.nvcc : settings.host_cxx);
}

std::vector<std::string> compile_command(ModuleKind kind, const CompilerSettings& settings, const std::string& input,
                                         const std::string& output) {
  std::vector<std::string> cmd;
  if (kind == ModuleKind::cuda) {
    // The shared runtime: the worker and every module then share one runtime and one context.
    std::string lib = (fs::path(settings.nvcc).parent_path().parent_path() / "lib64").string();
    cmd = {settings.nvcc, "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared",
           "-gencode", gencode_for(settings.arch.empty() ? kDefaultCudaArch : settings.arch),
           "-Xlinker", "-rpath", "-Xlinker", lib};
  } else {
    cmd = {settings.host_cxx, "-std=c++17", "-O2", "-shared", "-fPIC"};
  }
  for (const std::string& f : settings.extra_flags) cmd.push_back(f);
  cmd.insert(cmd.end(), {"-o", output, input});
  return cmd;
}

CompileOutcome compile_module(const std::string& source_path, std::string_view entry, const Signature& signature,
                              ModuleKind kind, const CompilerSettings& settings, std::string_view source_name) {
  std::string absolute = fs::absolute(source_path).lexically_normal().string();
  std::string display = source_name.empty() ? fs::path(source_path).filename().string() : std::string(source_name);
  std::string source = read_file(absolute);
  if (!compiler_available(kind, settings))
    throw OperatorError(fmt::format("cannot compile {}: compiler '{}' not found", display,
                                    kind == ModuleKind::cuda ? settings.nvcc : settings.host_cxx));

  std::string trampoline = generate_trampoline(signature, entry, absolute, kind);
  const char* ext = kind == ModuleKind::cuda ? ".cu" : ".cpp";
  std::vector<std::string> probe = compile_command(kind, settings, "IN", "OUT");
  ContentHash hash;
  hash.add(source).add(signature.text).add(entry).add(absolute).add(trampoline);
  for (const std::string& part : probe) hash.add(part);
  std::string key = hash.hex();

  CompileOutcome outcome;
  CompiledModule& m = outcome.module;
  m.entry = std::string(entry);
  m.signature = signature;
  m.kind = kind;
  m.source_name = display;
  m.cache_key = key;
  m.library_path = (fs::path(settings.cache_dir) / (key + ".so")).string();

  std::error_code ec;
  fs::create_directories(settings.cache_dir, ec);
  if (ec) throw OperatorError(fmt::format("cannot create the module cache {}: {}", settings.cache_dir, ec.message()));
  if (fs::exists(m.library_path)) {
    m.from_cache = true;
    outcome.ok = true;
    return outcome;
  }

  fs::path work = fs::path(settings.cache_dir) / fmt::format("build-{}-{}", key, ::getpid());
  fs::create_directories(work, ec);
  if (ec) throw OperatorError(fmt::format("cannot create {}: {}", work.string(), ec.message()));
  std::string tramp_path = (work / (std::string("rubric_trampoline") + ext)).string();
  {
    std::ofstream out(tramp_path, std::ios::binary);
    out << trampoline;
    if (!out) throw OperatorError(fmt::format("cannot write {}", tramp_path));
  }
  std::string built = (work / "module.so").string();
  std::string log_path = (work / "compiler.log").string();
  ToolRun run = run_tool(compile_command(kind, settings, tramp_path, built), log_path, settings.timeout_s);
  std::string log = read_file(log_path);

  if (run.timed_out) {
    outcome.message = fmt::format("compiling {} timed out after {:g} s", display, settings.timeout_s);
  } else if (run.signaled) {
    outcome.message = fmt::format("the compiler was killed by {} while compiling {}", signal_name(run.signal), display);
  } else if (!run.started) {
    fs::remove_all(work, ec);
    throw OperatorError(fmt::format("cannot run the compiler for {}: {}", display, log));
  } else if (run.exit_code != 0) {
    MessageContext ctx{absolute, display, tramp_path, std::string(entry), signature.text};
    outcome.message = trim_compiler_output(log, ctx);
  } else {
    // Rename is atomic: a concurrent build of the same key leaves one complete file.
    fs::rename(built, m.library_path, ec);
    if (ec) outcome.message = fmt::format("cannot store the module in {}: {}", settings.cache_dir, ec.message());
    else outcome.ok = true;
  }
  fs::remove_all(work, ec);
  return outcome;
}

}  // namespace rubric::cuda
