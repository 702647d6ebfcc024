// `rubric doc [MODULE]`: builtins by family with signatures and docs, and the standard library's
// defs, params and lets with their `##` documentation.
#include <fmt/format.h>
#include <map>

#include "grammar/ast_walk.hpp"
#include "grammar/parse.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/engine.hpp"
#include "interpreter/modules.hpp"

namespace rubric {

namespace {

std::string def_signature(const ast::Def& d, const SourceFile& src) {
  std::string s = d.name.name + "(";
  for (std::size_t i = 0; i < d.params.size(); ++i) {
    if (i) s += ", ";
    s += d.params[i].name.name;
    if (d.params[i].default_value) s += " = " + std::string(src.slice(d.params[i].default_value->range));
  }
  return s + ")";
}

// Whether a let is a `concept NAME = ...` declaration (a let of the builtin concept()).
bool is_concept(const ast::LetDecl& l) {
  const auto* call = l.value ? std::get_if<ast::Call>(&l.value->node) : nullptr;
  const auto* callee = call && call->callee ? std::get_if<ast::Name>(&call->callee->node) : nullptr;
  return callee && callee->name == "concept";
}

// A rubric file's criteria as its author wrote them: id, title, weight or penalty and modifiers.
std::string criterion_doc(const ast::Criterion& c, const SourceFile& src, int depth) {
  std::string facts;
  if (c.weight) facts += " weight " + std::string(src.slice(c.weight->range));
  if (c.penalty) facts += " penalty " + std::string(src.slice(c.penalty->range));
  if (c.required) facts += " required";
  for (std::size_t i = 0; i < c.after.size(); ++i) facts += (i ? ", " : " after ") + c.after[i].name;
  for (const auto& n : c.needs) facts += " needs " + n.name;
  return fmt::format("{:{}}- criterion `{}` {}{}\n", "", 2 * depth, c.id.name, c.title ? std::string(src.slice(c.title->range)) : "",
                     facts);
}

std::string group_doc(const ast::Group& g, const SourceFile& src, int depth) {
  return fmt::format("{:{}}- group `{}` {}{}\n", "", 2 * depth, g.id.name, g.title ? std::string(src.slice(g.title->range)) : "",
                     g.weight ? " weight " + std::string(src.slice(g.weight->range)) : "");
}

// A module's defs, params, concepts and lets with their `##` docs, in file order (and a rubric
// file's criteria and groups).
std::string module_doc(const std::string& title, const ast::File& file) {
  const SourceFile* src = file.source.get();
  std::string out = fmt::format("## {}\n\n", title);
  for (const auto& item : file.items) {
    if (auto* d = std::get_if<ast::Def>(&item)) {
      out += fmt::format("- `{}`{}\n", def_signature(*d, *src), d->is_check() ? " (check)" : "");
      if (!d->doc.empty()) out += fmt::format("    {}\n", d->doc);
    } else if (auto* p = std::get_if<ast::Param>(&item)) {
      out += fmt::format("- param `{} = {}`\n", p->name.name, std::string(src->slice(p->value->range)));
      if (!p->doc.empty()) out += fmt::format("    {}\n", p->doc);
    } else if (auto* l = std::get_if<ast::LetDecl>(&item)) {
      out += fmt::format("- {} `{}`\n", is_concept(*l) ? "concept" : "let", l->name.name);
      if (!l->doc.empty()) out += fmt::format("    {}\n", l->doc);
    } else if (auto* c = std::get_if<ast::Criterion>(&item)) {
      out += criterion_doc(*c, *src, 0);
    } else if (auto* g = std::get_if<std::shared_ptr<const ast::Group>>(&item)) {
      out += group_doc(**g, *src, 0);
      ast::walk_criteria(
          (*g)->items, [&](const ast::Criterion& c, int depth) { out += criterion_doc(c, *src, depth); },
          [&](const ast::Group& sub, int depth) { out += group_doc(sub, *src, depth); }, 1);
    }
  }
  return out + "\n";
}

}  // namespace

std::string Engine::doc(const std::string& module, bool* found) const {
  const Registry& reg = const_cast<Engine*>(this)->registry();
  std::string want = module;
  if (want.rfind("std.", 0) == 0) want = want.substr(4);
  std::map<std::string, std::vector<std::shared_ptr<const Builtin>>> families;
  for (const auto& [name, b] : reg.builtins()) families[b->family].push_back(b);
  std::string out;
  bool any = false;
  // One builtin by name (`rubric doc samples`), with each overload's signature.
  if (auto b = want.empty() || families.count(want) ? nullptr : reg.find(want)) {
    out += fmt::format("## builtin {} ({})\n\n", want, b->family);
    for (const Builtin* cur = b.get(); cur; cur = cur->next.get()) out += fmt::format("- `{}`\n    {}\n", cur->signature(), cur->doc);
    if (found) *found = true;
    return out + "\n";
  }
  // A rubric or module file by its path (`rubric doc softmax.rubric`).
  if (module.size() > 7 && module.compare(module.size() - 7, 7, ".rubric") == 0) {
    try {
      ParseResult r = parse_file(SourceFile::read(module));
      if (found) *found = r.file != nullptr;
      if (r.file) return module_doc(module, *r.file);
    } catch (const std::exception& e) {
      if (found) *found = false;
      return fmt::format("{}\n", e.what());
    }
  }
  if (want.empty() || families.count(want)) {
    for (const auto& [fam, bs] : families) {
      if (!want.empty() && fam != want) continue;
      any = true;
      out += fmt::format("## builtins: {}\n\n", fam);
      for (const auto& b : bs) out += fmt::format("- `{}`\n    {}\n", b->signature(), b->doc);
      out += "\n";
    }
    if (want.empty()) {
      out += "## bindings\n\n";
      std::map<std::string, std::string> docs = reg.lazy_binding_docs();
      for (const auto& [name, v] : reg.bindings()) docs[name] = v.second;
      for (const auto& [name, doc] : docs) out += fmt::format("- `{}`{}\n", name, doc.empty() ? "" : "\n    " + doc);
      out += "- `submission`, `reference`\n    the roots: paths confined to the submission and reference folders\n\n";
    }
  }
  for (const auto& [name, text] : embedded_stdlib()) {
    if (!want.empty() && want != name) continue;
    any = true;
    auto src = std::make_shared<const SourceFile>("std/" + name + ".rubric", std::string(text));
    ParseResult r = parse_file(src);
    out += r.file ? module_doc("std." + name, *r.file) : fmt::format("## std.{}\n\n(does not parse)\n\n", name);
  }
  // A module of the grader's own, found as `use` finds it: -I folders, then RUBRIC_PATH.
  std::string search_notes;
  if (!any && !module.empty() && module.rfind("std.", 0) != 0) {
    auto use = std::make_shared<const SourceFile>("rubric doc", "use " + module + "\n");
    Program program = load_program(use, module_search(options().include_dirs));
    for (const auto& m : program.modules) {
      if (m.get() == program.root || m->is_stdlib || m->name != module || !m->file) continue;
      any = true;
      out += module_doc(module, *m->file);
    }
    for (const Diagnostic& d : program.diagnostics) {
      search_notes += "\n" + d.message;
      for (const std::string& n : d.notes) search_notes += "\n  " + n;
    }
  }
  // A name a standard module declares (`rubric doc no_regression`): that module's page.
  if (!any && !want.empty() && module.find('.') == std::string::npos)
    for (const std::string& m : stdlib_modules_declaring(want)) {
      any = true;
      auto src = std::make_shared<const SourceFile>(m.substr(4) + ".rubric", std::string(embedded_stdlib().at(m.substr(4))));
      ParseResult r = parse_file(src);
      if (r.file) out += fmt::format("'{}' is in {} (use {}):\n\n", want, m, m) + module_doc(m, *r.file);
    }
  if (found) *found = any;
  if (!any) {
    std::string known;
    for (const auto& f : families) known += " " + f.first;
    for (const auto& m : embedded_stdlib()) known += " std." + m.first;
    return fmt::format("no module or builtin family '{}'; known:{}{}\n", module, known, search_notes);
  }
  return out;
}

}  // namespace rubric
