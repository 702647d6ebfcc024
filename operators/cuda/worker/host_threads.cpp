#include "operators/cuda/worker/host_threads.hpp"

#include <dirent.h>
#include <link.h>

#include <cctype>
#include <cstdlib>

namespace rubric::cuda::worker {

std::optional<std::set<pid_t>> live_threads() {
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return std::nullopt;
  std::set<pid_t> ids;
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    long id = std::strtol(e->d_name, &end, 10);
    if (end != e->d_name && *end == '\0' && id > 0) ids.insert(static_cast<pid_t>(id));
  }
  ::closedir(d);
  return ids;
}

std::set<std::string> loaded_libraries() {
  std::set<std::string> paths;
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        if (info->dlpi_name && info->dlpi_name[0]) static_cast<std::set<std::string>*>(out)->insert(info->dlpi_name);
        return 0;
      },
      &paths);
  return paths;
}

std::string libraries_added(const std::set<std::string>& before, const std::set<std::string>& now,
                            const std::set<std::string>& exclude) {
  std::set<std::string> names;
  for (const std::string& p : now) {
    if (before.count(p) || exclude.count(p)) continue;
    std::size_t slash = p.rfind('/');
    std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
    // A module chooses the names of what it loads: nothing but a file name's usual characters
    // reaches the list.
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' && c != '+') c = '?';
    names.insert(name);
  }
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace rubric::cuda::worker
