// `rubric doc [MODULE]`: builtins by family with signatures and docs, and the standard library's
// defs, params and lets with their `##` documentation.
#include <fmt/format.h>
#include <map>

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

// A module's defs, params, concepts and lets with their `##` docs, in file order.
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
