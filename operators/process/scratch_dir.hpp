#pragma once
// A private temporary directory for one run: work/ (the copy of the candidate's cwd, or absent)
// and tmp/ (TMPDIR and HOME). Removed on destruction unless kept; owned (files/temp_owner.hpp) while
// it lives, so a later grader removes it when this one is killed.
#include <string>

#include "operators/files/sparse_copy.hpp"
#include "operators/files/temp_owner.hpp"

namespace rubric::process {

class ScratchDir {
 public:
  // Creates <base>/rubric-run-XXXXXX with tmp/ inside, where base is $TMPDIR, or /tmp when TMPDIR
  // is unset or (with `others_traverse`: the candidate runs as another uid) not traversable by
  // others all the way down: the grader's private TMPDIR never decides whether a candidate can
  // reach its own folder. Throws OperatorError when it cannot be created (a missing TMPDIR: the
  // grading environment's fault).
  explicit ScratchDir(bool others_traverse = false);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Copies the tree at `source` to work/ (symlinks kept as links, holes kept, special files
  // skipped and listed in the report) and returns work/'s path. Past the budget it throws
  // files::BudgetExceeded, which is the submission's fault.
  std::string copy_tree(const std::string& source, const files::CopyBudget& budget, files::CopyReport* report);
  // Hands tmp/ (and work/ when present) to uid:gid so an unprivileged candidate can write there.
  void give_to(unsigned uid, unsigned gid);

  const std::string& root() const { return root_; }
  std::string work() const { return root_ + "/work"; }
  std::string tmp() const { return root_ + "/tmp"; }
  void keep() { keep_ = true; }

 private:
  std::string root_;
  bool has_work_ = false;
  bool keep_ = false;
  files::TempOwner owner_;
};

}  // namespace rubric::process
