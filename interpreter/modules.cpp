#include "interpreter/modules.hpp"

#include <fmt/format.h>
#include <cstdlib>
#include <set>
#include <sys/stat.h>

#include "grammar/parse.hpp"
#include "operators/digest/content_digest.hpp"

namespace rubric {

const ast::Ident* Decl::ident() const {
  switch (kind) {
    case Kind::param: return &param->name;
    case Kind::let: return &let->name;
    case Kind::def: return &def->name;
  }
  return nullptr;
}

std::map<std::string, Decl> collect_decls(const ast::File& file, std::vector<Diagnostic>& diags) {
  std::map<std::string, Decl> decls;
  auto add = [&](const ast::Ident& id, Decl d) {
    auto [it, inserted] = decls.emplace(id.name, d);
    if (!inserted) {
      Diagnostic diag{Severity::error, file.source, id.range, fmt::format("'{}' is declared twice", id.name), {}};
      if (const ast::Ident* first = it->second.ident())
        diag.notes.push_back(fmt::format("first declared at {}", file.source->location(first->range.begin)));
      diags.push_back(std::move(diag));
    }
  };
  for (const auto& item : file.items) {
    if (auto* p = std::get_if<ast::Param>(&item)) add(p->name, Decl{Decl::Kind::param, p, nullptr, nullptr});
    else if (auto* l = std::get_if<ast::LetDecl>(&item)) add(l->name, Decl{Decl::Kind::let, nullptr, l, nullptr});
    else if (auto* d = std::get_if<ast::Def>(&item)) add(d->name, Decl{Decl::Kind::def, nullptr, nullptr, d});
  }
  return decls;
}

namespace {

bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash == 0 ? 1 : slash);
}

class Loader {
 public:
  Loader(const ModuleSearch& search, Program& program) : search_(search), program_(program) {}

  // Loads (or finds in the cache) a module; `chain` is the stack of modules being loaded.
  const Module* load(const std::string& key, const std::string& name, SourcePtr source, const std::string& path, bool stdlib,
                     const Diagnostic& at) {
    if (auto it = cache_.find(key); it != cache_.end()) {
      if (!it->second) {
        Diagnostic d = at;
        std::string chain;
        bool on = false;
        for (const auto& k : stack_) {
          if (k.first == key) on = true;
          if (on) chain += k.second + " -> ";
        }
        d.message = fmt::format("module cycle: {}{}", chain, name);
        program_.diagnostics.push_back(std::move(d));
      }
      return it->second;
    }
    cache_[key] = nullptr;  // loading: a second visit is a cycle
    stack_.emplace_back(key, name);
    ParseResult parsed = parse_file(source);
    for (auto& d : parsed.diagnostics) program_.diagnostics.push_back(d);
    auto mod = std::make_unique<Module>();
    mod->name = name;
    mod->path = path;
    mod->file = parsed.file;
    mod->is_stdlib = stdlib;
    mod->digest = digest::content_digest_hex(source->text());
    if (mod->file) {
      mod->decls = collect_decls(*mod->file, program_.diagnostics);
      resolve_uses(*mod, source, path);
    }
    stack_.pop_back();
    const Module* result = mod.get();
    program_.modules.push_back(std::move(mod));
    cache_[key] = result;
    return result;
  }

 private:
  void resolve_uses(Module& mod, const SourcePtr& source, const std::string& path) {
    for (const auto& item : mod.file->items) {
      if (auto* u = std::get_if<ast::Use>(&item)) {
        std::string dotted;
        for (std::size_t i = 0; i < u->path.size(); ++i) dotted += (i ? "." : "") + u->path[i];
        Diagnostic at{Severity::error, source, u->range, "", {}};
        const Module* m = resolve_use(*u, dotted, at);
        if (m) mod.uses.push_back({m, u->alias ? u->alias->name : "", u->range});
      } else if (auto* im = std::get_if<ast::Import>(&item)) {
        Diagnostic at{Severity::error, source, im->range, "", {}};
        // Relative to the importing file; a file in the current folder keeps a bare name in messages.
        std::string dir = dir_of(path);
        std::string base = im->path.empty() || im->path.front() == '/' ? im->path
                           : dir == "."                            ? im->path
                                                                   : dir + "/" + im->path;
        if (!is_file(base)) {
          at.message = fmt::format("cannot import \"{}\": no file {}", im->path, base);
          program_.diagnostics.push_back(at);
          continue;
        }
        const Module* m = load_file("file:" + canonical(base), im->path, base, at);
        if (m) mod.uses.push_back({m, im->alias ? im->alias->name : "", im->range});
      }
    }
  }

  const Module* resolve_use(const ast::Use& u, const std::string& dotted, Diagnostic at) {
    if (u.path.size() == 2 && u.path[0] == "std") {
      const auto& lib = embedded_stdlib();
      auto it = lib.find(u.path[1]);
      if (it == lib.end()) {
        std::string known;
        for (const auto& m : lib) known += (known.empty() ? "" : ", ") + ("std." + m.first);
        at.message = fmt::format("no standard module '{}'", dotted);
        at.notes.push_back("standard modules: " + known);
        program_.diagnostics.push_back(at);
        return nullptr;
      }
      std::string path = "<stdlib>/std/" + u.path[1] + ".rubric";
      auto src = std::make_shared<const SourceFile>("std/" + u.path[1] + ".rubric", std::string(it->second));
      return load("std:" + u.path[1], dotted, src, path, true, at);
    }
    std::string rel;
    for (std::size_t i = 0; i < u.path.size(); ++i) rel += (i ? "/" : "") + u.path[i];
    rel += ".rubric";
    std::vector<std::string> tried;
    for (const auto* dirs : {&search_.include_dirs, &search_.rubric_path}) {
      for (const auto& d : *dirs) {
        std::string candidate = d == "." ? rel : d + "/" + rel;
        tried.push_back(candidate);
        if (is_file(candidate)) return load_file("file:" + canonical(candidate), dotted, candidate, at);
      }
    }
    at.message = fmt::format("cannot find module '{}' ({})", dotted, rel);
    at.notes.push_back(tried.empty() ? std::string("no -I directories and RUBRIC_PATH is empty")
                                     : "searched: " + fmt::format("{}", fmt::join(tried, ", ")));
    program_.diagnostics.push_back(at);
    return nullptr;
  }

  const Module* load_file(const std::string& key, const std::string& name, const std::string& path, Diagnostic at) {
    if (auto it = cache_.find(key); it != cache_.end() && it->second) return it->second;
    SourcePtr src;
    if (!cache_.count(key)) {
      try {
        src = SourceFile::read(path);
      } catch (const std::exception& e) {
        at.message = fmt::format("cannot read module '{}': {}", name, e.what());
        program_.diagnostics.push_back(at);
        return nullptr;
      }
    } else {
      src = std::make_shared<const SourceFile>(path, "");
    }
    const Module* m = load(key, name, src, path, false, at);
    if (m && m->file && m->file->header) {
      Diagnostic d = at;
      d.message = fmt::format("'{}' is a rubric (it has a header), not a module", name);
      program_.diagnostics.push_back(std::move(d));
    }
    return m;
  }

  static std::string canonical(const std::string& p) {
    char buf[4096];
    return ::realpath(p.c_str(), buf) ? std::string(buf) : p;
  }

  const ModuleSearch& search_;
  Program& program_;
  std::map<std::string, const Module*> cache_;
  std::vector<std::pair<std::string, std::string>> stack_;
};

}  // namespace

ModuleSearch module_search(const std::vector<std::string>& include_dirs) {
  ModuleSearch search;
  search.include_dirs = include_dirs;
  if (const char* rp = std::getenv("RUBRIC_PATH")) {
    std::string s = rp;
    for (std::size_t pos = 0; pos <= s.size();) {
      std::size_t c = s.find(':', pos);
      std::string d = s.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
      if (!d.empty()) search.rubric_path.push_back(d);
      if (c == std::string::npos) break;
      pos = c + 1;
    }
  }
  return search;
}

Program load_program(SourcePtr root, const ModuleSearch& search) {
  Program program;
  Loader loader(search, program);
  Diagnostic at{Severity::error, root, {}, "", {}};
  std::string key = "root:" + root->name();
  program.root = loader.load(key, root->name(), root, root->name(), false, at);
  return program;
}

std::vector<std::string> stdlib_modules_declaring(const std::string& name) {
  static const std::map<std::string, std::set<std::string>> declared = [] {
    std::map<std::string, std::set<std::string>> out;
    for (const auto& [module, text] : embedded_stdlib()) {
      ParseResult parsed = parse_file(std::make_shared<const SourceFile>("std/" + module + ".rubric", std::string(text)));
      if (!parsed.file) continue;
      std::vector<Diagnostic> ignored;
      for (const auto& d : collect_decls(*parsed.file, ignored)) out["std." + module].insert(d.first);
    }
    return out;
  }();
  std::vector<std::string> modules;
  for (const auto& [module, names] : declared)
    if (names.count(name)) modules.push_back(module);
  return modules;
}

}  // namespace rubric
