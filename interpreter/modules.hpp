#pragma once
// Module resolution (language.md §6): `use std.x` from the embedded standard library, `use a.b`
// through -I dirs then RUBRIC_PATH, `import "file"` relative to the importing file; loading is
// cached and cycle-checked. The result is a Program: every module parsed, with its own names.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/ast.hpp"
#include "grammar/diagnostic.hpp"

namespace rubric {

struct Module;

// A top-level name a module declares.
struct Decl {
  enum class Kind { param, let, def };
  Kind kind = Kind::let;
  const ast::Param* param = nullptr;
  const ast::LetDecl* let = nullptr;
  const ast::Def* def = nullptr;
  const ast::Ident* ident() const;
};

struct ModuleUse {
  const Module* module = nullptr;
  std::string alias;      // empty: names brought in unqualified
  SourceRange range;      // the `use` / `import` declaration
};

struct Module {
  std::string name;  // "std.serving", "team.serving", the import path, or the rubric file's path
  std::string path;  // on disk, or "<stdlib>/serving.rubric"
  std::shared_ptr<const ast::File> file;
  std::vector<ModuleUse> uses;
  std::map<std::string, Decl> decls;  // own top-level params, lets and defs
  std::string digest;                 // of the source text (content_digest.hpp)
  bool is_stdlib = false;
};

struct Program {
  std::vector<std::unique_ptr<Module>> modules;  // dependencies before dependents; root last
  const Module* root = nullptr;
  std::vector<Diagnostic> diagnostics;  // parse errors, unresolved modules, cycles, duplicate names
};

// The embedded standard library: module name ("serving") → source text. Generated at build time.
const std::map<std::string, std::string_view>& embedded_stdlib();

// The standard modules that declare `name` ("std.concepts"), for "undefined name": the names of
// each embedded module are read once per process.
std::vector<std::string> stdlib_modules_declaring(const std::string& name);

struct ModuleSearch {
  std::vector<std::string> include_dirs;  // -I
  std::vector<std::string> rubric_path;   // RUBRIC_PATH, split at ':'
};

// The search the command line means: -I folders first, then RUBRIC_PATH from the environment.
ModuleSearch module_search(const std::vector<std::string>& include_dirs);

// Parses the root source and everything it uses or imports.
Program load_program(SourcePtr root, const ModuleSearch& search);

// Builds the declaration table of a parsed file, reporting duplicate names.
std::map<std::string, Decl> collect_decls(const ast::File& file, std::vector<Diagnostic>& diags);

}  // namespace rubric
