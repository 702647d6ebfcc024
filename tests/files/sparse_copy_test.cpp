// The scratch copy: holes stay holes, special files are skipped by relative name, budgets hold.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "helpers.hpp"
#include "operators/files/sparse_copy.hpp"

using rubric::test::TempDir;
namespace rf = rubric::files;

TEST_CASE("a sparse file is copied with its holes: data bytes counted, disk not filled") {
  TempDir t;
  const std::string src = t.path + "/src";
  std::filesystem::create_directories(src);
  const std::string file = src + "/huge.npy";
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::pwrite(fd, "head", 4, 0) == 4);
  REQUIRE(::pwrite(fd, "tail", 4, (64ll << 30) - 4) == 4);  // 64 GiB apparent size
  ::close(fd);
  rf::CopyReport r = rf::copy_tree_sparse(src, t.path + "/dst", rf::CopyBudget{}, "the run folder");
  struct stat st {};
  REQUIRE(::stat((t.path + "/dst/huge.npy").c_str(), &st) == 0);
  CHECK(st.st_size == (64ll << 30));
  CHECK(std::uint64_t(st.st_blocks) * 512 < (16u << 20));  // a few blocks, not 64 GiB
  CHECK(r.data_bytes < (16u << 20));
  std::ifstream in(t.path + "/dst/huge.npy", std::ios::binary);
  char head[5] = {};
  in.read(head, 4);
  CHECK(std::string(head) == "head");
  in.seekg((64ll << 30) - 4);
  in.read(head, 4);
  CHECK(std::string(head) == "tail");
}

TEST_CASE("special files are skipped with paths relative to the folder; links stay links") {
  TempDir t;
  t.write("src/a.txt", "a");
  t.write("src/sub/b.txt", "b");
  REQUIRE(::mkfifo((t.path + "/src/sub/pipe").c_str(), 0644) == 0);
  REQUIRE(::symlink("a.txt", (t.path + "/src/link").c_str()) == 0);
  rf::CopyReport r = rf::copy_tree_sparse(t.path + "/src", t.path + "/dst", rf::CopyBudget{}, "the run folder");
  REQUIRE(r.skipped.size() == 1);
  CHECK(r.skipped[0] == "sub/pipe (named pipe (FIFO))");
  CHECK(std::filesystem::is_symlink(t.path + "/dst/link"));
  CHECK(std::filesystem::exists(t.path + "/dst/sub/b.txt"));
  CHECK_FALSE(std::filesystem::exists(std::filesystem::symlink_status(t.path + "/dst/sub/pipe")));
  CHECK(r.entries == 5);
}

TEST_CASE("the copy's byte and entry budgets are the submission's failure, named relative") {
  TempDir t;
  t.write("src/data.bin", std::string(100000, 'x'));
  for (int i = 0; i < 20; ++i) t.write("src/many/f" + std::to_string(i), "x");
  rf::CopyBudget small;
  small.data_bytes = 50000;
  try {
    rf::copy_tree_sparse(t.path + "/src", t.path + "/d1", small, "the run folder");
    FAIL("no budget error");
  } catch (const rf::BudgetExceeded& e) {
    CHECK(std::string(e.what()) == "the run folder holds more than 48.8 KiB of file data (the limit for a run's copy; "
                                   "data.bin is where it ran out)");
  }
  rf::CopyBudget few;
  few.entries = 10;
  CHECK_THROWS_AS(rf::copy_tree_sparse(t.path + "/src", t.path + "/d2", few, "the run folder"), rf::BudgetExceeded);
}

namespace {

// `levels` folders named `name`, one inside the other, under `root`, made with openat: their
// full path may be longer than the system's paths allow.
void nest(const std::string& root, const std::string& name, int levels) {
  int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY);
  int made = 0;
  for (; fd >= 0 && made < levels && ::mkdirat(fd, name.c_str(), 0755) == 0; ++made) {
    int sub = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = sub;
  }
  if (fd >= 0) ::close(fd);
  REQUIRE(made == levels);
}

}  // namespace

TEST_CASE("folders nested past the copy's depth or path length are the submission's failure, not a crash") {
  TempDir t;
  // Nested folders past the limit (3,000 overflowed the grader's stack in the recursive copy: SIGSEGV, no report).
  t.write("deep/run.sh", "true");
  nest(t.path + "/deep", "a", 600);
  try {
    rf::copy_tree_sparse(t.path + "/deep", t.path + "/d1", rf::CopyBudget{}, "the run folder");
    FAIL("no budget error");
  } catch (const rf::BudgetExceeded& e) {
    CHECK(std::string(e.what()).find("the run folder nests folders more than 256 deep (the limit for a copy; a/a/a/") == 0);
  }
  // Twenty folders of 250 characters: a path past PATH_MAX under the copy, which made creating it
  // the machine's error ("could not be set up on this machine").
  t.write("long/run.sh", "true");
  nest(t.path + "/long", std::string(250, 'b'), 20);
  try {
    rf::copy_tree_sparse(t.path + "/long", t.path + "/d2", rf::CopyBudget{}, "the run folder");
    FAIL("no budget error");
  } catch (const rf::BudgetExceeded& e) {
    CHECK(std::string(e.what()).find("the run folder holds a path of ") == 0);
    CHECK(std::string(e.what()).find("too long for a copy (at most 4095 with the copy's own folder)") != std::string::npos);
  }
  // 256 levels are within the limit.
  t.write("ok/run.sh", "true");
  nest(t.path + "/ok", "c", 256);
  CHECK_NOTHROW(rf::copy_tree_sparse(t.path + "/ok", t.path + "/d3", rf::CopyBudget{}, "the run folder"));
}
