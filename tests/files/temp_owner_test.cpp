// Grader-owned temporary folders: a folder whose owner holds its lock is kept, one whose owner is
// gone is removed, and removal follows no link and leaves everything outside the folder alone.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "operators/files/remove_tree.hpp"
#include "operators/files/temp_owner.hpp"

namespace fs = std::filesystem;
using rubric::files::SweepLimits;
using rubric::files::sweep_stale_temp_dirs;
using rubric::files::TempOwner;

namespace {

struct Base {
  std::string path;
  Base() {
    std::string t = (fs::temp_directory_path() / "rubric-owner-test-XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    path = t;
  }
  ~Base() {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec))
      if (!it->is_symlink() && it->is_directory()) ::chmod(it->path().c_str(), 0700);
    fs::remove_all(path, ec);
  }
  std::string make(const std::string& name) const {
    std::string dir = path + "/" + name;
    REQUIRE(::mkdir(dir.c_str(), 0711) == 0);
    return dir;
  }
};

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("a live owner's folder is kept; once the owner is gone the next sweep removes it") {
  Base base;
  const std::string dir = base.make("rubric-run-live01");
  write(dir + "/file", "x");
  {
    TempOwner owner = TempOwner::claim(dir);
    REQUIRE(owner.held());
    CHECK(fs::exists(dir + "/.owner"));
    CHECK_FALSE(fs::exists(dir + "/.owner-claim"));
    auto r = sweep_stale_temp_dirs({base.path});
    CHECK(r.examined == 1);
    CHECK(r.kept_live == 1);
    CHECK(fs::exists(dir + "/file"));
  }  // the owner "dies": its lock is released without removing anything
  CHECK(fs::exists(dir + "/file"));
  auto r = sweep_stale_temp_dirs({base.path});
  CHECK(r.removed == 1);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("folders the sweep cannot prove stale are left: no .owner, another prefix, a link, .owner a link") {
  Base base;
  const std::string legacy = base.make("rubric-run-legacy");
  write(legacy + "/file", "x");
  const std::string other = base.make("someone-else");
  write(other + "/.owner", "");
  const std::string target = base.make("target");
  write(target + "/.owner", "");
  write(target + "/keep", "k");
  fs::create_directory_symlink(target, base.path + "/rubric-run-link");
  const std::string linked_owner = base.make("rubric-run-ownerlink");
  fs::create_symlink(target + "/keep", linked_owner + "/.owner");
  auto r = sweep_stale_temp_dirs({base.path});
  CHECK(r.removed == 0);
  CHECK(fs::exists(legacy + "/file"));
  CHECK(fs::exists(other + "/.owner"));
  CHECK(fs::exists(target + "/keep"));
  CHECK(fs::is_symlink(base.path + "/rubric-run-link"));
  CHECK(fs::exists(linked_owner));
}

TEST_CASE("removing a stale folder follows no link, empties read-only folders, leaves the outside alone") {
  Base base;
  const std::string outside = base.make("outside");
  write(outside + "/precious", "p");
  const std::string dir = base.make("rubric-gpu-stale1");
  { TempOwner owner = TempOwner::claim(dir); }
  fs::create_directory_symlink(outside, dir + "/into_outside");
  fs::create_symlink(outside + "/precious", dir + "/to_file");
  fs::create_directories(dir + "/ro/deeper");
  write(dir + "/ro/deeper/f", "f");
  write(dir + "/ro/g", "g");
  ::chmod((dir + "/ro/deeper").c_str(), 0500);
  ::chmod((dir + "/ro").c_str(), 0500);
  if (::geteuid() == 0) {
    fs::create_directory(dir + "/nobody");
    write(dir + "/nobody/h", "h");
    CHECK(::lchown((dir + "/nobody/h").c_str(), 65534, 65534) == 0);
    CHECK(::lchown((dir + "/nobody").c_str(), 65534, 65534) == 0);
    ::chmod((dir + "/nobody").c_str(), 0500);
  }
  auto r = sweep_stale_temp_dirs({base.path});
  CHECK(r.removed == 1);
  CHECK(r.errors.empty());
  CHECK_FALSE(fs::exists(dir));
  CHECK(fs::exists(outside + "/precious"));
  std::ifstream in(outside + "/precious");
  std::string text;
  in >> text;
  CHECK(text == "p");
  struct stat st;
  REQUIRE(::stat(outside.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0711);  // the link's target was not chmod'ed
}

TEST_CASE("a sweep stops at its entry budget and the next one finishes: .owner goes last") {
  Base base;
  const std::string dir = base.make("rubric-compile-big");
  { TempOwner owner = TempOwner::claim(dir); }
  for (int i = 0; i < 5; ++i) write(dir + "/f" + std::to_string(i), "x");
  SweepLimits small;
  small.max_entries = 2;
  auto first = sweep_stale_temp_dirs({base.path}, small);
  CHECK(first.removed == 0);
  CHECK(first.unfinished == 1);
  CHECK(fs::exists(dir + "/.owner"));
  auto second = sweep_stale_temp_dirs({base.path});
  CHECK(second.removed == 1);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("an owner that disowns its folder keeps it from every sweep; remove() removes it") {
  Base base;
  const std::string kept = base.make("rubric-run-kept01");
  {
    TempOwner owner = TempOwner::claim(kept);
    owner.disown(kept);
  }
  CHECK(sweep_stale_temp_dirs({base.path}).removed == 0);
  CHECK(fs::exists(kept));
  const std::string gone = base.make("rubric-run-gone01");
  TempOwner owner = TempOwner::claim(gone);
  fs::create_directories(gone + "/a/b");
  ::chmod((gone + "/a").c_str(), 0500);
  owner.remove(gone);
  CHECK_FALSE(fs::exists(gone));
}
