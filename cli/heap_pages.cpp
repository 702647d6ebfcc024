#include "cli/heap_pages.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace rubric::cli {
namespace {

constexpr const char* kMarker = "RUBRIC_HEAP_PAGES_SET";        // set for the second start only
constexpr const char* kSaved = "RUBRIC_SAVED_GLIBC_TUNABLES";   // the caller's GLIBC_TUNABLES, if any

bool kernel_gives_huge_pages_on_request() {
  const int fd = ::open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[128] = {0};
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  return n > 0 && std::strstr(buf, "[madvise]") != nullptr;
}

constexpr std::uintmax_t kLargeInputs = 16u << 20;
constexpr int kEntriesCounted = 4096;

// Tensor files are mapped and read in place (operators/tensor), never built on the heap: a check
// of two 512 MiB .npy files has no use for huge heap pages, and starting again would cost it a start.
bool is_tensor_file(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".npy" || ext == ".safetensors" || ext == ".bin" || ext == ".raw";
}

// Bytes of the regular files under `dir` but tensor files, counting at most kEntriesCounted
// entries, following no link.
std::uintmax_t bytes_under(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::uintmax_t total = 0;
  int seen = 0;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && seen < kEntriesCounted; it.increment(ec), ++seen) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) == 0 && S_ISREG(st.st_mode) && !is_tensor_file(it->path())) {
      total += static_cast<std::uintmax_t>(st.st_size);
    }
  }
  return total;
}

// The value of `--name DIR` or `--name=DIR` among the arguments, "" when absent.
std::string option_value(int argc, char** argv, const char* name) {
  const std::string flag = std::string("--") + name;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == flag && i + 1 < argc) return argv[i + 1];
    if (a.rfind(flag + "=", 0) == 0) return a.substr(flag.size() + 1);
  }
  return "";
}

void start_again_with_huge_pages(char** argv);

}  // namespace

void use_huge_pages_for_large_inputs(int argc, char** argv) {
  if (std::getenv(kMarker)) return start_again_with_huge_pages(argv);  // restores the environment
  const std::string submission = option_value(argc, argv, "submission");
  const std::string reference = option_value(argc, argv, "reference");
  std::uintmax_t total = submission.empty() ? 0 : bytes_under(submission);
  if (total < kLargeInputs && !reference.empty()) total += bytes_under(reference);
  if (total >= kLargeInputs) start_again_with_huge_pages(argv);
}

namespace {

void start_again_with_huge_pages(char** argv) {
  if (std::getenv(kMarker)) {
    // The second start: the tunable did its work at start-up; the environment goes back.
    const char* saved = std::getenv(kSaved);
    if (saved) ::setenv("GLIBC_TUNABLES", saved, 1);
    else ::unsetenv("GLIBC_TUNABLES");
    ::unsetenv(kSaved);
    ::unsetenv(kMarker);
    return;
  }
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")) return;  // the caller chose
  if (!kernel_gives_huge_pages_on_request()) return;  // "always" needs nothing, "never" allows nothing
  const std::string original = tunables ? tunables : "";
  if (tunables) ::setenv(kSaved, tunables, 1);
  ::setenv("GLIBC_TUNABLES", (original.empty() ? std::string() : original + ":").append("glibc.malloc.hugetlb=1").c_str(), 1);
  ::setenv(kMarker, "1", 1);
  ::execv("/proc/self/exe", argv);
  // Not started again: go on as this process, with the environment as it was.
  if (tunables) ::setenv("GLIBC_TUNABLES", original.c_str(), 1);
  else ::unsetenv("GLIBC_TUNABLES");
  ::unsetenv(kSaved);
  ::unsetenv(kMarker);
}

}  // namespace

}  // namespace rubric::cli
