#include "test_support.hpp"

#include "operators/process/run_isolated.hpp"
#include "tests/shell_quote.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace rubric::process::testing {

namespace {
// Every directory the tests made, removed when the test binary exits.
struct TempDirs {
  std::vector<std::string> paths;
  ~TempDirs() {
    std::error_code ec;
    for (const auto& p : paths) std::filesystem::remove_all(p, ec);
  }
};
TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}
}  // namespace

const Isolation& machine_isolation() {
  static const Isolation iso = probe_isolation();
  return iso;
}

std::string make_temp_dir() {
  // Outside /tmp: runs get a private /tmp, and the programs and pid files must be shared. The
  // unprivileged run of the suite (run_unprivileged.sh) points this at a folder it may write.
  const char* from_env = std::getenv("RUBRIC_PROCESS_TEST_SCRATCH");
  const std::string root = from_env && *from_env ? from_env : RUBRIC_PROCESS_TEST_SCRATCH;
  ::mkdir(root.c_str(), 0755);  // the fallback outside the build folder may not exist yet
  std::string pattern = root + "/rubric-proc-test-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
  ::chmod(buf.data(), 0777);
  temp_dirs().paths.push_back(buf.data());
  return buf.data();
}

const std::string& programs_dir() {
  static const std::string dir = [] {
    std::string d = make_temp_dir();
    for (const char* name : {"segfault", "daemonize", "fork_many"}) {
      std::string cmd = "cc -O1 -o " + rubric::test::shell_quote(d + "/" + name) + " " + rubric::test::shell_quote(std::string(RUBRIC_PROCESS_TEST_DIR "/programs/") + name + ".c");
      if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cannot compile " + std::string(name));
      ::chmod((d + "/" + name).c_str(), 0755);  // run as another uid, whatever the umask the tests run under
    }
    return d;
  }();
  return dir;
}

namespace {
int count_once(const std::string& marker) {
  int count = 0;
  DIR* proc = opendir("/proc");
  if (!proc) return 0;
  while (dirent* e = readdir(proc)) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    std::ifstream in(std::string("/proc/") + e->d_name + "/cmdline", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().find(marker) != std::string::npos) ++count;
  }
  closedir(proc);
  return count;
}
}  // namespace

int count_processes_with(const std::string& marker) {
  int n = 0;
  for (int i = 0; i < 200; ++i) {
    n = count_once(marker);
    if (n == 0) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return n;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace rubric::process::testing
