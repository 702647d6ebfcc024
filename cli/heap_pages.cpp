#include "cli/heap_pages.hpp"

#include <fcntl.h>
#include <unistd.h>

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

}  // namespace

void use_huge_pages_for_the_heap(char** argv) {
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

}  // namespace rubric::cli
