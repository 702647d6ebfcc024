// Every ```rubric block of the design (copied into design_examples/) parses without errors.
#include <filesystem>

#include "parse_helpers.hpp"

TEST_CASE("every design example parses") {
  namespace fs = std::filesystem;
  int count = 0;
  for (const auto& entry : fs::directory_iterator("design_examples")) {
    if (entry.path().extension() != ".rubric") continue;
    auto source = rubric::SourceFile::read(entry.path().string());
    auto r = rubric::parse_file(source);
    INFO(entry.path().string(), "\n", rubric::format_diagnostics(r.diagnostics));
    CHECK(r.ok());
    CHECK(!r.file->items.empty() + r.file->header.has_value() > 0);
    ++count;
  }
  CHECK(count == 4);
}

TEST_CASE("the first example's structure") {
  auto r = rubric::parse_file(rubric::SourceFile::read("design_examples/01_first_example.rubric"));
  REQUIRE(r.ok());
  REQUIRE(r.file->header);
  CHECK(r.file->items.size() == 8);
  const auto& numerics = std::get<rubric::ast::Criterion>(r.file->items[4]);
  CHECK(numerics.id.name == "numerics");
  CHECK(numerics.required);
  CHECK(numerics.body.size() == 4);
  const auto& throughput = std::get<rubric::ast::Criterion>(r.file->items[5]);
  REQUIRE(throughput.after.size() == 1);
  CHECK(throughput.after[0].name == "numerics");
}

TEST_CASE("the fuzz corpus: a file using every construct parses, a broken one reports") {
  auto good = rubric::parse_file(rubric::SourceFile::read("../fuzz/corpus/groups_and_checks.rubric"));
  INFO(rubric::format_diagnostics(good.diagnostics));
  CHECK(good.ok());
  CHECK(good.file->items.size() == 12);
  auto bad = rubric::parse_file(rubric::SourceFile::read("../fuzz/corpus/errors.rubric"));
  CHECK(bad.diagnostics.size() >= 10);
}
