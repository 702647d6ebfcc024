#include "operators/cuda/module_compiler.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
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
#include "operators/digest/content_digest.hpp"
#include "operators/cuda/source_snapshot.hpp"
#include "operators/cuda/tool_runner.hpp"
#include "operators/error.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/files/sparse_copy.hpp"
#include "operators/files/temp_owner.hpp"

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

bool valid_cuda_arch(const std::string& arch) {
  // sm_90, sm_90a, sm_100f, compute_100, or a bare number (90).
  std::string rest = arch.rfind("compute_", 0) == 0 ? arch.substr(8) : arch.rfind("sm_", 0) == 0 ? arch.substr(3) : arch;
  std::size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  if (digits < 2 || digits > 3) return false;
  return digits == rest.size() || (digits + 1 == rest.size() && (rest.back() == 'a' || rest.back() == 'f'));
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

namespace {

// Where a compile's private folders live: $TMPDIR, or /tmp when the compiler runs as another uid
// and TMPDIR is not traversable by others (the sandbox's fallback without a private root needs it).
std::string private_base(bool others_traverse) {
  std::string base = files::temp_base();
  if (!others_traverse) return base;
  for (fs::path at = fs::absolute(base); !at.empty(); at = at.parent_path()) {
    struct stat st;
    if (::stat(at.c_str(), &st) != 0 || !(st.st_mode & S_IXOTH)) return "/tmp";
    if (at == at.root_path()) break;
  }
  return base;
}

struct PrivateDir {
  std::string path;
  explicit PrivateDir(bool others_traverse) {
    std::string templ = private_base(others_traverse) + "/rubric-compile-XXXXXX";
    if (!::mkdtemp(templ.data()))
      throw EnvironmentError(fmt::format("cannot create a build folder in {}: {}", fs::path(templ).parent_path().string(),
                                      std::strerror(errno)));
    path = templ;
    std::string why;
    owner = files::TempOwner::claim(path, &why);
    if (!owner.held()) {
      ::rmdir(path.c_str());
      throw EnvironmentError(fmt::format("cannot claim a build folder: {}", why));
    }
    ::chmod(path.c_str(), 0711);
  }
  ~PrivateDir() { owner.remove(path); }
  files::TempOwner owner;
};

// Copies the built module from the compiler's folder into the cache (atomically, by rename): opened
// without following links and checked to be a regular file.
bool store_module(const std::string& built, const std::string& dest, std::string& why) {
  int in = ::open(built.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (in < 0 || ::fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (in >= 0) ::close(in);
    why = "the compiler left no module file";
    return false;
  }
  std::string tmp = fmt::format("{}.part-{}-{:x}", dest, ::getpid(), std::hash<std::string>{}(built));
  int out = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0755);
  if (out < 0) {
    ::close(in);
    why = std::strerror(errno);
    return false;
  }
  ::fchmod(out, 0755);  // the worker's uid loads it whatever the grader's umask
  bool ok = true;
  try {
    files::copy_file_data(in, out, std::uint64_t(st.st_size), built, ~std::uint64_t(0));
  } catch (const std::exception& e) {
    why = e.what();
    ok = false;
  }
  ::close(in);
  ok = ::close(out) == 0 && ok;
  if (ok && ::rename(tmp.c_str(), dest.c_str()) != 0) {
    why = std::strerror(errno);
    ok = false;
  }
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

}  // namespace

std::string escape_compiler_text(std::string_view text, std::size_t max_line, std::size_t max_total) {
  std::string out;
  std::size_t line = 0;
  for (std::size_t i = 0; i < text.size() && out.size() < max_total; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += '\n';
      line = 0;
      continue;
    }
    if (line >= max_line) {
      if (line == max_line) out += " [...]";
      ++line;
      continue;
    }
    // Valid UTF-8 sequences pass; control characters and stray bytes are shown as \xNN.
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool valid = len > 0 && i + len <= text.size();
    for (std::size_t k = 1; valid && k < len; ++k) valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (len == 1 && (c < 0x20 || c == 0x7F) && c != '\t') valid = false;
    if (!valid) {
      out += fmt::format("\\x{:02x}", c);
      line += 4;
      continue;
    }
    out.append(text.substr(i, len));
    i += len - 1;
    ++line;
  }
  if (out.size() >= max_total && text.size() > max_total) out += "\n[... more compiler output not shown]";
  return out;
}

CompileOutcome compile_module(const std::string& source_path, std::string_view entry, const Signature& signature,
                              ModuleKind kind, const CompilerSettings& settings, std::string_view source_name,
                              const CompileSandbox& sandbox) {
  std::string absolute = fs::absolute(source_path).lexically_normal().string();
  std::string display = source_name.empty() ? fs::path(source_path).filename().string() : std::string(source_name);
  std::string source = read_file(absolute);
  CompileOutcome outcome;
  const std::string& compiler = kind == ModuleKind::cuda ? settings.nvcc : settings.host_cxx;
  if (!compiler_available(kind, settings)) {
    outcome.grader_environment = true;
    outcome.message = fmt::format("cannot compile {}: compiler '{}' not found", display, compiler);
    return outcome;
  }

  // The target comes from the grading machine (its device, or RUBRIC_CUDA_ARCH): one nvcc cannot
  // build for is the machine's fault, never a source that "does not build".
  if (kind == ModuleKind::cuda && !settings.arch.empty() && !valid_cuda_arch(settings.arch)) {
    outcome.grader_environment = true;
    outcome.message = fmt::format("cannot compile {}: the target architecture '{}' (RUBRIC_CUDA_ARCH or the device) is not "
                                  "one such as sm_90a, sm_80 or compute_100",
                                  display, settings.arch);
    return outcome;
  }

  // What the compiler may read of the candidate's: a copy of this folder (the source's own, or the
  // whole submission for a source of it).
  std::string root = sandbox.source_root.empty() ? fs::path(absolute).parent_path().string()
                                                 : fs::absolute(sandbox.source_root).lexically_normal().string();
  std::string rel = fs::path(absolute).lexically_relative(root).string();
  if (rel.empty() || rel.rfind("..", 0) == 0) {  // the source lies outside the given root
    root = fs::path(absolute).parent_path().string();
    rel = fs::path(absolute).filename().string();
  }
  std::string display_root;  // how messages name the copied folder: "submission", "submission/kernels"
  if (display.size() > rel.size() && display.compare(display.size() - rel.size(), rel.size(), rel) == 0 &&
      display[display.size() - rel.size() - 1] == '/')
    display_root = display.substr(0, display.size() - rel.size() - 1);
  const std::string folder_label = display_root.empty() ? "the source's folder" : display_root;

  // The key covers every file the compiler can read from that folder (headers included), so a
  // header replaced since the last build is never served the old module.
  std::string folder_digest;
  try {
    folder_digest = source_digest(root, settings.snapshot, folder_label);
  } catch (const files::BudgetExceeded& e) {
    outcome.message = fmt::format("cannot compile {}: {}", display, e.what());
    return outcome;
  }
  std::string trampoline = generate_trampoline(signature, entry, absolute, kind);
  const char* ext = kind == ModuleKind::cuda ? ".cu" : ".cpp";
  std::vector<std::string> probe = compile_command(kind, settings, "IN", "OUT");
  digest::ContentDigest hash;
  hash.add_part(source).add_part(signature.text).add_part(entry).add_part(absolute).add_part(trampoline).add_part(folder_digest);
  for (const std::string& part : probe) hash.add_part(part);
  std::string key = hash.hex();

  CompiledModule& m = outcome.module;
  m.entry = std::string(entry);
  m.signature = signature;
  m.kind = kind;
  m.source_name = display;
  m.cache_key = key;
  m.library_path = (fs::path(settings.cache_dir) / (key + ".so")).string();

  std::error_code ec;
  fs::create_directories(settings.cache_dir, ec);
  if (ec) throw EnvironmentError(fmt::format("cannot create the module cache {}: {}", settings.cache_dir, ec.message()));
  if (fs::exists(m.library_path)) {
    m.from_cache = true;
    outcome.ok = true;
    return outcome;
  }

  // The compiler sees a private copy of the source's folder (read-only) and writes only `out/`.
  // The trampoline includes the copy; the cache key above names the original, as a cache hit does.
  const bool others = ::geteuid() == 0;  // the sandbox runs the compiler as uid 65534
  PrivateDir work(others);
  std::string compiled_source = absolute;
  std::string copy_root = work.path + "/src";
  if (settings.sandboxed) {
    try {
      snapshot_sources(root, copy_root, settings.snapshot, folder_label);
    } catch (const files::BudgetExceeded& e) {
      outcome.message = fmt::format("cannot compile {}: {}", display, e.what());
      return outcome;
    }
    compiled_source = copy_root + "/" + rel;
    trampoline = generate_trampoline(signature, entry, compiled_source, kind);
  }
  std::string out_dir = work.path + "/out";
  if (::mkdir(out_dir.c_str(), 0755) != 0)
    throw EnvironmentError(fmt::format("cannot create {}: {}", out_dir, std::strerror(errno)));
  if (others && ::chown(out_dir.c_str(), 65534, 65534) != 0)
    throw EnvironmentError(fmt::format("cannot hand {} to the compiler's uid: {}", out_dir, std::strerror(errno)));
  std::string tramp_path = out_dir + "/rubric_trampoline" + ext;
  {
    std::ofstream out(tramp_path, std::ios::binary);
    out << trampoline;
    if (!out) throw EnvironmentError(fmt::format("cannot write {}", tramp_path));
  }
  // The compiler runs as another uid: the grader's umask (077) must not hide the file from it.
  ::chmod(tramp_path.c_str(), 0644);
  std::string built = out_dir + "/module.so";
  std::vector<std::string> command = compile_command(kind, settings, tramp_path, built);
  outcome.command = fmt::format("{}", fmt::join(command, " "));

  ToolRun run;
  if (settings.sandboxed) {
    ToolSandbox box;
    box.work_dir = out_dir;
    box.read_only = {copy_root};
    // The toolkit (nvcc's stages, headers, libraries) and the host compiler where they lie outside
    // the system directories; under /usr they are there already.
    if (compiler[0] == '/') box.read_only.push_back(fs::path(compiler).parent_path().parent_path().string());
    box.hidden = sandbox.hidden;
    box.memory_bytes = settings.memory_bytes;
    box.timeout_s = settings.timeout_s;
    run = run_sandboxed_tool(command, box);
    outcome.isolation = run.isolation;
  } else {
    std::string log_path = work.path + "/compiler.log";
    run = run_tool(command, log_path, settings.timeout_s);
    run.output = read_file(log_path);
    outcome.isolation = "none (not sandboxed)";
  }
  outcome.seconds = run.seconds;

  if (!run.started) {
    outcome.grader_environment = true;
    outcome.message = fmt::format("cannot run the compiler for {} in its sandbox: {}", display,
                                  run.launch_error.empty() ? escape_compiler_text(run.output) : run.launch_error);
  } else if (run.timed_out) {
    outcome.message = fmt::format("compiling {} timed out after {:g} s", display, settings.timeout_s);
  } else if (run.memory_exceeded) {
    outcome.message = fmt::format("compiling {} exceeded the compiler's memory limit {}", display,
                                  files::size_text(settings.memory_bytes));
  } else if (run.signaled) {
    outcome.message = fmt::format("the compiler was killed by {} while compiling {}", signal_name(run.signal), display);
  } else if (run.exit_code != 0 && kind == ModuleKind::cuda &&
             run.output.find("Unsupported gpu architecture") != std::string::npos) {
    outcome.grader_environment = true;
    outcome.message = fmt::format("cannot compile {}: this nvcc ({}) cannot build for {}: {}", display, settings.nvcc,
                                  settings.arch.empty() ? std::string(kDefaultCudaArch) : settings.arch,
                                  escape_compiler_text(run.output.substr(0, run.output.find('\n'))));
  } else if (run.exit_code != 0) {
    MessageContext ctx{compiled_source, display, tramp_path, std::string(entry), signature.text};
    std::string text = trim_compiler_output(run.output, ctx);
    // Other files of the copied folder (its headers) under the name the rubric uses for it.
    if (settings.sandboxed) {
      const std::string shown = display_root.empty() ? fs::path(root).filename().string() : display_root;
      for (std::size_t at = 0; (at = text.find(copy_root + "/", at)) != std::string::npos; at += shown.size() + 1)
        text.replace(at, copy_root.size(), shown);
    }
    outcome.message = escape_compiler_text(text);
  } else {
    std::string why;
    if (store_module(built, m.library_path, why)) outcome.ok = true;
    else {
      outcome.grader_environment = true;  // the cache is the machine's, the build succeeded
      outcome.message = fmt::format("cannot store the module in {}: {}", settings.cache_dir, why);
    }
  }
  return outcome;
}

}  // namespace rubric::cuda
