#include "operators/machine/grading_machine.hpp"

#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace rubric::machine {
namespace {

// PRETTY_NAME from os-release(5), unquoted; empty when the file or the field is missing.
std::string os_pretty_name() {
  for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
      std::string value = line.substr(12);
      if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
        value = value.substr(1, value.size() - 2);
      return value;
    }
  }
  return {};
}

std::map<std::string, std::string> host_now() {
  std::map<std::string, std::string> host;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0 && name[0] != '\0') host["name"] = name;
  if (std::string os = os_pretty_name(); !os.empty()) host["os"] = os;
  utsname u{};
  if (uname(&u) == 0) {
    host["kernel"] = fmt::format("{} {}", u.sysname, u.release);
    host["arch"] = u.machine;
  }
  if (unsigned cpus = std::thread::hardware_concurrency(); cpus > 0) host["cpus"] = std::to_string(cpus);
  return host;
}

}  // namespace

std::map<std::string, std::string> describe_host() {
  // The host does not change while a process lives, and a grade worker describes it in every
  // report: it is read once (four system calls and a file a report, else).
  static const std::map<std::string, std::string> host = host_now();
  return host;
}

std::string describe_compiler() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

std::map<std::string, std::string> cuda_versions(const std::map<std::string, std::string>& device) {
  std::map<std::string, std::string> cuda;
  for (const char* key : {"driver", "runtime"}) {
    const auto it = device.find(key);
    if (it != device.end() && !it->second.empty() && it->second != "null") cuda[key] = it->second;
  }
  return cuda;
}

}  // namespace rubric::machine
