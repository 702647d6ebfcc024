#include "grading/measure_lock.hpp"

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <regex>

#include <algorithm>
#include <cstdlib>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>

#include "interpreter/builtins/registry.hpp"
#include "interpreter/engine.hpp"

namespace rubric::grading {
namespace {

struct ProcessState {
  std::string lock_path;
  int depth = 0;  // nested measuring calls (time(f) calling a GPU function) lock once
  int fd = -1;
  MeasurementRecord record;
};

ProcessState& state() {
  static ProcessState s;
  return s;
}

// Holds the lock for the outermost measuring call of this process.
class Hold {
 public:
  Hold() {
    ProcessState& s = state();
    if (s.depth++ > 0) return;
    ++s.record.count;
    if (s.lock_path.empty()) {
      s.record.alone = false;
      return;
    }
    s.record.lock = std::filesystem::path(s.lock_path).filename().string();
    const auto start = std::chrono::steady_clock::now();
    s.fd = ::open(s.lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    int rc = -1;
    if (s.fd >= 0)
      while ((rc = ::flock(s.fd, LOCK_EX)) != 0 && errno == EINTR) {
      }
    if (rc != 0) {
      s.record.alone = false;  // no lock to be had: measure anyway, and say so
      if (s.fd >= 0) ::close(s.fd);
      s.fd = -1;
    }
    s.record.waited_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  ~Hold() {
    ProcessState& s = state();
    if (--s.depth > 0) return;
    if (s.fd >= 0) {
      ::flock(s.fd, LOCK_UN);
      ::close(s.fd);
      s.fd = -1;
    }
  }
  Hold(const Hold&) = delete;
  Hold& operator=(const Hold&) = delete;
};

bool measures_time(const Builtin& b) { return b.needs.times_work; }

}  // namespace

std::vector<std::string> measurement_devices() {
  std::vector<std::string> devices;
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
    std::string list = visible;
    std::size_t pos = 0;
    while (pos <= list.size()) {
      const std::size_t comma = list.find(',', pos);
      std::string id = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (!id.empty()) devices.push_back("gpu" + id);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  } else {
    std::error_code ec;
    static const std::regex device("nvidia([0-9]+)");
    std::vector<int> ids;
    for (std::filesystem::directory_iterator it("/dev", ec), end; !ec && it != end; it.increment(ec)) {
      std::smatch m;
      const std::string name = it->path().filename().string();
      if (std::regex_match(name, m, device)) ids.push_back(std::stoi(m[1].str()));
    }
    std::sort(ids.begin(), ids.end());
    for (int id : ids) devices.push_back("gpu" + std::to_string(id));
  }
  if (devices.empty()) devices.push_back("cpu");
  return devices;
}

std::string measurement_lock_path(const std::string& device) {
  const char* chosen = std::getenv("RUBRIC_LOCK_DIR");
  const std::string dir = chosen && *chosen ? std::string(chosen) : "/tmp/rubric-locks-" + std::to_string(::getuid());
  ::mkdir(dir.c_str(), 0700);
  return dir + "/measure-" + device + ".lock";
}

void guard_measurements(Engine& engine) {
  Registry& registry = engine.registry();
  std::vector<std::shared_ptr<const Builtin>> wrapped;
  for (const auto& [name, builtin] : registry.builtins())
    if (measures_time(*builtin)) wrapped.push_back(builtin);
  for (const std::shared_ptr<const Builtin>& original : wrapped) {
    Builtin b;
    b.name = original->name;
    b.params = original->params;
    b.variadic = original->variadic;
    b.doc = original->doc;
    b.family = original->family;
    b.needs = original->needs;
    b.fn = [original](CallContext& ctx, const std::vector<Value>& args) {
      Hold hold;
      const Builtin* chosen = select_overload(*original, args);
      return (chosen ? chosen : original.get())->fn(ctx, args);
    };
    registry.add(std::move(b));
  }
}

void set_measurement_lock(const std::string& lock_path) { state().lock_path = lock_path; }

MeasurementRecord measurement_record() { return state().record; }

void reset_measurement_record() { state().record = MeasurementRecord{}; }

}  // namespace rubric::grading
