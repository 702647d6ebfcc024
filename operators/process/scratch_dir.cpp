#include "operators/process/scratch_dir.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "operators/error.hpp"

namespace fs = std::filesystem;

namespace rubric::process {

namespace {

// Every directory from / down to `dir` lets others search it (the x bit for others).
bool others_can_traverse(const std::string& dir) {
  fs::path p = fs::path(dir);
  for (fs::path at = p; !at.empty(); at = at.parent_path()) {
    struct stat st;
    if (::stat(at.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || !(st.st_mode & S_IXOTH)) return false;
    if (at == at.root_path()) break;
  }
  return true;
}

std::string scratch_base(bool others_traverse) {
  const char* env = std::getenv("TMPDIR");
  if (!env || !*env) return "/tmp";
  // A TMPDIR that exists but that the candidate's uid could not pass through (0700) is a choice
  // of the grader's that must not fail the candidate: use /tmp. One that is missing or not
  // writable is the grading environment's error, reported as such.
  if (others_traverse && ::access(env, W_OK | X_OK) == 0 && !others_can_traverse(env)) return "/tmp";
  return env;
}

}  // namespace

ScratchDir::ScratchDir(bool others_traverse) {
  const std::string base = scratch_base(others_traverse);
  std::string pattern = fmt::format("{}/rubric-run-XXXXXX", base);
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  // Names the folder, not the pattern: reports rewrite rubric-run-* paths to "scratch".
  if (!mkdtemp(buf.data()))
    throw EnvironmentError(fmt::format("cannot create a scratch folder in {} ({}): {}", base,
                                       std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? "TMPDIR" : "the default",
                                       std::strerror(errno)));
  root_ = buf.data();
  std::string why;
  owner_ = files::TempOwner::claim(root_, &why);
  if (!owner_.held()) {
    ::rmdir(root_.c_str());
    throw EnvironmentError(fmt::format("cannot claim the scratch folder: {}", why));
  }
  // Others may traverse (an unprivileged candidate must reach tmp/ and work/) but not list it.
  ::chmod(root_.c_str(), 0711);
  std::error_code ec;
  fs::create_directory(tmp(), ec);
  if (ec) throw EnvironmentError(fmt::format("cannot create {}: {}", tmp(), ec.message()));
}

ScratchDir::~ScratchDir() {
  if (root_.empty()) return;
  if (keep_)
    owner_.disown(root_);  // kept for inspection: no sweep may take it
  else
    owner_.remove(root_);  // best effort: a destructor must not throw
}

std::string ScratchDir::copy_tree(const std::string& source, const files::CopyBudget& budget,
                                  files::CopyReport* report) {
  std::error_code ec;
  if (!fs::is_directory(source, ec))
    throw OperatorError(fmt::format("run directory {} is not a directory", source));
  files::CopyReport r = files::copy_tree_sparse(source, work(), budget, "the run folder");
  has_work_ = true;
  if (report) *report = std::move(r);
  return work();
}

void ScratchDir::give_to(unsigned uid, unsigned gid) {
  std::vector<std::string> tops = {tmp()};
  if (has_work_) tops.push_back(root_ + "/work");
  for (const std::string& top : tops) {
    if (::lchown(top.c_str(), uid, gid) != 0)
      throw EnvironmentError(fmt::format("cannot hand {} to uid {}: {}", top, uid, std::strerror(errno)));
    std::error_code ec;
    for (fs::recursive_directory_iterator it(top, ec), end; !ec && it != end; it.increment(ec))
      ::lchown(it->path().c_str(), uid, gid);
    if (ec) throw EnvironmentError(fmt::format("cannot hand {} to uid {}: {}", top, uid, ec.message()));
  }
}

}  // namespace rubric::process
