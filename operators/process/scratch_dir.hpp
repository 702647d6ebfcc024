#pragma once
// A private temporary directory for one run: work/ (the copy of the candidate's cwd, or absent)
// and tmp/ (TMPDIR and HOME). Removed on destruction unless kept.
#include <string>

namespace rubric::process {

class ScratchDir {
 public:
  // Creates $TMPDIR-or-/tmp/rubric-run-XXXXXX with tmp/ inside. Throws OperatorError on failure.
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Copies the tree at `source` (symlinks kept as links) to work/ and returns work/'s path.
  std::string copy_tree(const std::string& source);
  // Hands tmp/ (and work/ when present) to uid:gid so an unprivileged candidate can write there.
  void give_to(unsigned uid, unsigned gid);

  const std::string& root() const { return root_; }
  std::string tmp() const { return root_ + "/tmp"; }
  void keep() { keep_ = true; }

 private:
  std::string root_;
  bool has_work_ = false;
  bool keep_ = false;
};

}  // namespace rubric::process
