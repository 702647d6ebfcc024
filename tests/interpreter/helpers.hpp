#pragma once
// Test helpers: a temporary folder with files, and running a rubric text against it.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "grammar/diagnostic.hpp"
#include "interpreter/engine.hpp"

namespace rubric::test {

struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "rubric-interp-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& rel, const std::string& content) const {
    std::filesystem::path p = std::filesystem::path(path) / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  std::string dir(const std::string& rel) const {
    std::filesystem::path p = std::filesystem::path(path) / rel;
    std::filesystem::create_directories(p);
    return p.string();
  }
};

// Loads `text` as a rubric named `name` (inside `dir`), returning the diagnostics.
inline std::vector<Diagnostic> load_text(Engine& e, const std::string& text, const std::string& name = "test.rubric") {
  return e.load_source(std::make_shared<const SourceFile>(name, text));
}

inline std::string all_messages(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += format_diagnostic(d) + "\n";
  return s;
}

// Loads and checks; fails the test (via the returned report's warnings) when loading failed.
inline Report run_text(const std::string& text, const std::string& submission, const std::string& reference,
                       EngineOptions opts = {}) {
  Engine e(std::move(opts));
  auto diags = load_text(e, text);
  if (has_errors(diags)) {
    Report r;
    r.verdict = OverallVerdict::error;
    r.title = "LOAD FAILED: " + all_messages(diags);
    return r;
  }
  return e.check(submission, reference);
}

// Runs one criterion whose expects must all pass, the roots `sub` and `ref` under `t`; returns the
// failing checks, one a line: text, verdict, explanation and first line of evidence.
inline std::string failures(const std::string& body, const TempDir& t) {
  Report r = run_text("rubric \"b\" {}\ncriterion c \"c\" {\n" + body + "\n}\n", t.path + "/sub", t.path + "/ref");
  if (r.criteria.empty()) return r.title;
  std::string out;
  for (const auto& c : r.criteria[0].checks)
    if (c.verdict != Verdict::pass)
      out += c.source_text + " [" + verdict_name(c.verdict) + "] " + c.explanation + " " +
             (c.evidence.empty() ? std::string() : c.evidence[0]) + "\n";
  return out;
}

inline const CriterionResult* find_criterion(const std::vector<CriterionResult>& cs, const std::string& id) {
  for (const auto& c : cs) {
    if (c.id == id) return &c;
    if (auto* f = find_criterion(c.children, id)) return f;
  }
  return nullptr;
}

}  // namespace rubric::test
