#pragma once
// The candidate's filesystem as a whitelist: what exists in it is listed here, everything else
// of the machine is absent. Built by the host before the clone (it decides what exists and what
// each path is); the supervisor carries out the steps and pivots into the result.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "operators/process/supervisor.hpp"

namespace rubric::process {

struct WhitelistSpec {
  std::string new_root;                 // an empty directory the host made (the mount point)
  std::vector<std::string> read_write;  // directories bound writable at the same path (the scratch copy, TMPDIR)
  std::vector<std::string> read_only;   // extra directories or files bound read-only at the same path
  std::vector<std::string> devices;     // extra device nodes (the GPU's /dev/nvidia*)
  std::uint64_t tmp_bytes = 512ull << 20;  // size of each fresh /tmp, /var/tmp and /dev/shm
  bool proc = true;                     // a /proc of the run's PID namespace
};

class Whitelist {
 public:
  explicit Whitelist(const WhitelistSpec& spec);
  const detail::MountStep* steps() const { return steps_.data(); }
  int count() const { return int(steps_.size()); }
  // "bind /usr read-only" for a failure message about step i.
  std::string describe(int i) const;

 private:
  const char* keep(std::string s);
  void add(detail::MountKind kind, const std::string& source, const std::string& path, const std::string& options = "",
           bool is_file = false);
  void add_system_entry(const std::string& path);

  std::string root_;
  std::deque<std::string> strings_;  // stable addresses for the steps' pointers
  std::vector<detail::MountStep> steps_;
};

// The system directories every run gets read-only, and the /etc entries of the minimal /etc.
const std::vector<std::string>& system_directories();
const std::vector<std::string>& etc_entries();

}  // namespace rubric::process
