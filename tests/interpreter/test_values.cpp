#include <doctest/doctest.h>

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "helpers.hpp"
#include "interpreter/paths.hpp"
#include "interpreter/text_match.hpp"
#include "interpreter/value.hpp"
#include "tests/shell_quote.hpp"

using namespace rubric;

TEST_CASE("values print as reports show them") {
  Dimension ms = Dimension::of(Dimension::time);
  CHECK(Value::number(0.0025, ms).to_string() == "2.5 ms");
  CHECK(Value::string("a").to_string() == "a");
  CHECK(Value::string("a").repr() == "\"a\"");
  CHECK(Value::list({Value::number(1), Value::string("x"), Value()}).to_string() == "[1, \"x\", null]");
  Record r;
  r.fields = {{"n", Value::number(2)}, {"ok", Value::boolean(true)}};
  CHECK(Value::record(r).to_string() == "{n: 2, ok: true}");
}

TEST_CASE("structural equality names the first difference") {
  Value a = Value::list({Value::number(1), Value::number(2)});
  Value b = Value::list({Value::number(1), Value::number(3)});
  CHECK(structurally_equal(a, a));
  auto d = first_difference(a, b);
  REQUIRE(d);
  CHECK(*d == "at [1]: 2 != 3");
  Record x, y;
  x.fields = {{"a", Value::number(1)}, {"b", Value::number(2)}};
  y.fields = {{"b", Value::number(2)}, {"a", Value::number(1)}};
  CHECK(structurally_equal(Value::record(x), Value::record(y)));  // key order does not matter
  y.fields.push_back({"c", Value()});
  CHECK(*first_difference(Value::record(x), Value::record(y)) == "key 'c' only on the right");
  CHECK_FALSE(structurally_equal(Value::number(1), Value::number(1, Dimension::of(Dimension::time))));
}

TEST_CASE("structural equality of large records: same answers, linear-logarithmic time") {
  // Records of a submission's JSON can hold hundreds of thousands of keys; comparing two by a scan
  // per key took 37 s at 100,000 keys. The bound is generous, on this thread's CPU time (a loaded
  // machine stretches the wall time, not the work); sorted lookups take milliseconds.
  Record x, y;
  const int n = 300000;
  for (int i = 0; i < n; ++i) x.fields.push_back({"k" + std::to_string(i), Value::number(i)});
  for (int i = n - 1; i >= 0; --i) y.fields.push_back({"k" + std::to_string(i), Value::number(i)});
  timespec t0{}, t1{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  CHECK(structurally_equal(Value::record(x), Value::record(y)));
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  const double seconds = double(t1.tv_sec - t0.tv_sec) + double(t1.tv_nsec - t0.tv_nsec) / 1e9;
  MESSAGE("300,000-key records compared in " << seconds << " s of CPU time");
  CHECK(seconds < 20.0);
  // The first difference in the left record's order, as before.
  y.fields[10].second = Value::number(-1);  // k299989
  y.fields[20].second = Value::number(-1);  // k299979
  CHECK(*first_difference(Value::record(x), Value::record(y)) == "at .k299979: 299979 != -1");
  y.fields.push_back({"extra", Value()});
  y.fields[10].second = Value::number(299989);
  y.fields[20].second = Value::number(299979);
  CHECK(*first_difference(Value::record(x), Value::record(y)) == "key 'extra' only on the right");
  x.fields.push_back({"left", Value()});
  CHECK(*first_difference(Value::record(x), Value::record(y)) == "key 'left' only on the left");
  // A key given twice: lookups find its first field, as Record::find does.
  Record d = y;
  d.fields.push_back({"k5", Value::number(99)});
  CHECK(*first_difference(Value::record(d), Value::record(y)) == "at .k5: 99 != 5");
}

TEST_CASE("paths are confined to their root") {
  rubric::test::TempDir t;
  std::string root = t.dir("root");
  t.write("root/a/b.txt", "x");
  t.write("secret.txt", "s");
  PathValue r = make_root("submission", root);
  std::string why;
  auto ok = join_path(r, "a/../a/b.txt", &why);
  REQUIRE(ok);
  CHECK(ok->relative == "a/b.txt");
  CHECK(resolve_confined(*ok).status == PathStatus::ok);
  CHECK_FALSE(join_path(r, "../secret.txt", &why));
  CHECK(why.find("escapes its root") != std::string::npos);
  CHECK_FALSE(join_path(r, "/etc/passwd", &why));
  // A symbolic link that resolves outside the root is refused at access.
  std::filesystem::create_symlink(t.path + "/secret.txt", root + "/link.txt");
  auto link = join_path(r, "link.txt", &why);
  REQUIRE(link);
  ResolvedPath rp = resolve_confined(*link);
  CHECK(rp.status == PathStatus::escapes);
  CHECK(rp.message.find("escapes the") != std::string::npos);
  CHECK(rp.message.find("a symbolic link to '" + t.path + "/secret.txt'") != std::string::npos);
  CHECK(resolve_confined(*join_path(r, "missing.txt", &why)).status == PathStatus::missing);
  // A link to something that does not exist outside the root escapes too (never "no such file"),
  // and so does a path through a linked folder; the message names the link.
  std::filesystem::create_symlink("/nonexistent/elsewhere.json", root + "/dangling.json");
  rp = resolve_confined(*join_path(r, "dangling.json", &why));
  CHECK(rp.status == PathStatus::escapes);
  CHECK(rp.message.find("dangling.json escapes the") != std::string::npos);
  CHECK(rp.message.find("does not exist") == std::string::npos);
  std::filesystem::create_symlink(t.path, root + "/up");
  rp = resolve_confined(*join_path(r, "up/nothing/here.json", &why));
  CHECK(rp.status == PathStatus::escapes);
  CHECK(rp.message.find("through the symbolic link") != std::string::npos);
  CHECK(rp.message.find("/up (to '" + t.path + "'") != std::string::npos);
  // A link that leaves and comes back stays inside.
  std::filesystem::create_directories(root + "/d");
  std::filesystem::create_symlink("../root/d", root + "/d_again");
  CHECK(resolve_confined(*join_path(r, "d_again/absent.txt", &why)).status == PathStatus::missing);
}

TEST_CASE("mentions folds case and white space and respects word boundaries") {
  FoldedText t("The fix: use an LRU\n  policy with an Attention   Sink.");
  CHECK(t.find("lru policy"));
  CHECK(t.find("attention sink"));
  CHECK_FALSE(t.find("LR"));        // not a whole word
  CHECK(t.find("sinks"));           // an inflection of "Sink"
  CHECK(t.find("fix:"));
  auto snippet = t.find("LRU");
  REQUIRE(snippet);
  CHECK(snippet->find("LRU policy") != std::string::npos);
}

TEST_CASE("mentions finds the inflections of a phrase's last word, not its derivations") {
  FoldedText t("Each warp issues two wavefronts; the scheduler evicts the shared blocks of the tokenizer.");
  CHECK(t.find("wavefront"));
  CHECK(t.find("evicted"));
  CHECK(t.find("shared block"));
  CHECK(t.find("tokenizer"));
  CHECK_FALSE(t.find("token"));
  CHECK_FALSE(t.find("eviction"));
  CHECK_FALSE(t.find("wave"));
  CHECK_FALSE(t.find("warps issue two wavefront"));  // only the last word inflects
  auto snippet = t.find("wavefront");
  REQUIRE(snippet);
  CHECK(snippet->find("two wavefronts;") != std::string::npos);
}

TEST_CASE("mentions reads a hyphen between letters as a space, and keeps it elsewhere") {
  FoldedText t("We saw bank-conflict replays and a pre fill stall; fp8-e4m3 on pages 3-5.");
  CHECK(t.find("bank conflict"));
  CHECK(t.find("bank-conflict replays"));
  CHECK(t.find("pre-fill"));
  CHECK(t.find("fp8-e4m3"));
  CHECK(t.find("3-5"));
  CHECK_FALSE(t.find("bankconflict"));
  auto snippet = t.find("bank conflict");
  REQUIRE(snippet);
  CHECK(snippet->find("bank-conflict replays") != std::string::npos);  // shown as written
}

TEST_CASE("numbers in text") {
  auto xs = scan_numbers("reached 11,234.5 tok/s on fp32 with H100, p99 -3e-2 and .5");
  REQUIRE(xs.size() == 3);
  CHECK(xs[0] == 11234.5);
  CHECK(xs[1] == doctest::Approx(-0.03));
  CHECK(xs[2] == 0.5);
}
