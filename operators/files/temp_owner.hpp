#pragma once
// Grader-owned temporary folders ($TMPDIR/rubric-run-*, rubric-gpu-*, rubric-compile-*,
// /tmp/rubric-sandbox-*) carry an `.owner` file that their grader holds under flock(LOCK_EX) for
// the folder's life. The kernel drops the lock when the grader dies in any way (SIGKILL, OOM
// killer), across users and pid namespaces, so a later grader can prove a folder stale by taking
// the lock itself, and never takes a live grader's folder.
#include <cstddef>
#include <string>
#include <vector>

namespace rubric::files {

inline constexpr const char* kOwnerFile = ".owner";

// The lock on one folder's `.owner`; released (closed) on destruction. Movable, not copyable.
class TempOwner {
 public:
  TempOwner() = default;
  ~TempOwner();
  TempOwner(TempOwner&& other) noexcept;
  TempOwner& operator=(TempOwner&& other) noexcept;
  TempOwner(const TempOwner&) = delete;
  TempOwner& operator=(const TempOwner&) = delete;

  // Claims a folder this process has just created: `.owner` appears under its name already locked
  // (created under another name, locked, renamed), so no sweeper ever sees it unlocked while the
  // grader lives. Returns an empty owner and sets `why` when it cannot.
  static TempOwner claim(const std::string& dir, std::string* why = nullptr);

  bool held() const { return fd_ >= 0; }
  // Gives the folder up for keeps (a run's scratch kept for inspection): `.owner` is removed, so
  // no sweep can prove it stale and it stays until someone removes it.
  void disown(const std::string& dir);
  // Removes the folder with remove_tree, `.owner` last, then releases the lock.
  void remove(const std::string& dir);

 private:
  explicit TempOwner(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// The folder prefixes a grader creates under its temporary bases; the sweep looks at no other name.
const std::vector<std::string>& owned_temp_prefixes();

// Where a grader's temporary files go: $TMPDIR, or /tmp where it is unset or empty.
std::string temp_base();

// The bases graders put those folders in: $TMPDIR (when set) and /tmp, each once.
std::vector<std::string> owned_temp_bases();

struct SweepLimits {
  std::size_t max_entries = 20000;  // entries unlinked per sweep, all folders together
};

struct SweepReport {
  std::size_t examined = 0;  // folders with a grader prefix looked at
  std::size_t removed = 0;   // stale folders removed completely
  std::size_t kept_live = 0;       // folders whose owner holds its lock
  std::size_t unprovable = 0;      // no `.owner`, another user's, or not a folder: left alone
  std::size_t unfinished = 0;      // stale but not (completely) removed: budget spent or an error
  std::vector<std::string> errors; // one line per folder that could not be removed
};

// Removes, under each base, the grader folders whose owner is provably gone: a name with a
// grader prefix, a real folder (never a link) owned by this euid (or any, as root), holding a
// regular `.owner` whose lock this process can take. Reads each base once (no recursion into any
// folder it cannot prove stale); removal keeps the lock until the folder is gone, so two sweeps
// never race, and stops at `limits.max_entries` (the rest is left, `.owner` included, to the next).
SweepReport sweep_stale_temp_dirs(const std::vector<std::string>& bases, const SweepLimits& limits = {});

}  // namespace rubric::files
