// SourceFile's line table and the diagnostic formatter.
#include <cstdio>
#include <fstream>

#include "parse_helpers.hpp"

using rubric::SourceFile;

TEST_CASE("positions, lines and slices") {
  SourceFile f("f.rubric", "ab\ncd\r\n\nxyz");
  CHECK(f.position(0).line == 1);
  CHECK(f.position(0).column == 1);
  CHECK(f.position(1).column == 2);
  CHECK(f.position(3).line == 2);
  CHECK(f.position(3).column == 1);
  CHECK(f.position(7).line == 3);
  CHECK(f.position(8).line == 4);
  CHECK(f.position(10).column == 3);
  CHECK(f.position(1000).line == 4);  // clamped to the end
  CHECK(f.line_text(4) == "cd");      // without \r\n
  CHECK(f.line_text(7) == "");
  CHECK(f.line_text(9) == "xyz");
  CHECK(f.slice({3, 5}) == "cd");
  CHECK(f.slice({8, 100}) == "xyz");
  CHECK(f.slice({5, 2}) == "");
  CHECK(f.location(9) == "f.rubric:4:2");
}

TEST_CASE("read a file, and a clear error for a missing one") {
  std::string path = "grammar_test_read.rubric";
  {
    std::ofstream out(path);
    out << "param a = 1\n";
  }
  auto f = SourceFile::read(path);
  CHECK(f->name() == path);
  CHECK(f->text() == "param a = 1\n");
  std::remove(path.c_str());
  try {
    SourceFile::read("no/such/file.rubric");
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("no/such/file.rubric") != std::string::npos);
  }
}

TEST_CASE("format: location, line, caret under the range, notes") {
  auto src = rubric::test::source_of("let x = 1\n  expect cand >= base\n", "kv.rubric");
  rubric::Diagnostic d;
  d.source = src;
  d.range = {12, 31};  // "expect cand >= base"
  d.message = "something";
  d.notes = {"did you mean 'median'?"};
  CHECK(rubric::format_diagnostic(d) ==
        "kv.rubric:2:3: error: something\n"
        "    expect cand >= base\n"
        "    ^~~~~~~~~~~~~~~~~~~\n"
        "  note: did you mean 'median'?\n");
  std::string coloured = rubric::format_diagnostic(d, true);
  CHECK(coloured.find("\x1b[") != std::string::npos);
  d.severity = rubric::Severity::warning;
  CHECK(rubric::format_diagnostic(d).find("kv.rubric:2:3: warning: something") == 0);
  rubric::Diagnostic nofile;
  nofile.message = "usage";
  CHECK(rubric::format_diagnostic(nofile) == "error: usage\n");
  CHECK(rubric::has_errors({d, nofile}));
  CHECK_FALSE(rubric::has_errors({d}));
}

TEST_CASE("tabs are kept so the caret lines up") {
  auto src = rubric::test::source_of("\tlet = 1\n");
  auto r = rubric::parse_file(src);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(rubric::format_diagnostic(r.diagnostics[0]).find("\n  \tlet = 1\n  \t    ^\n") != std::string::npos);
}
