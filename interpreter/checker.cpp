#include "interpreter/checker.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <unordered_set>

#include "grammar/ast_walk.hpp"
#include "grammar/suggest.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/phrase_words.hpp"
#include "interpreter/fractions.hpp"

namespace rubric {

namespace {

using K = StaticType::Kind;

StaticType typed(K k, std::optional<Dimension> d) {
  StaticType t;
  t.kind = k;
  t.dim = d;
  return t;
}
StaticType of(K k) { return typed(k, std::nullopt); }
StaticType number(Dimension d) { return typed(K::number, d); }

const char* kind_text(K k) {
  switch (k) {
    case K::unknown: return "value";
    case K::null: return "null";
    case K::boolean: return "bool";
    case K::number: return "number";
    case K::string: return "string";
    case K::list: return "list";
    case K::record: return "record";
    case K::path: return "path";
    case K::function: return "function";
    case K::samples: return "samples";
  }
  return "value";
}

struct Local {
  NameKind kind = NameKind::local;
  StaticType type;
  const ast::Def* def = nullptr;
  const ast::BlockLet* block_let = nullptr;  // a block's let: its uses are counted (unused-let warning)
};

struct Scope {
  const Scope* parent = nullptr;
  std::map<std::string, Local> names;
};

// What the checkers of one program share: the result types of function defs, typed once each.
struct DefTypes {
  std::unordered_map<const ast::Def*, StaticType> known;
  std::unordered_set<const ast::Def*> typing;  // a def being typed (recursion gives unknown)
};

bool same_type(const StaticType& a, const StaticType& b) {
  if (a.kind != b.kind || a.dim.has_value() != b.dim.has_value() || (a.dim && *a.dim != *b.dim)) return false;
  if (a.fields != b.fields && (!a.fields || !b.fields)) return false;
  if (a.fields && a.fields != b.fields) {
    if (a.fields->size() != b.fields->size()) return false;
    for (const auto& [k, t] : *a.fields) {
      auto it = b.fields->find(k);
      if (it == b.fields->end() || !same_type(t, it->second)) return false;
    }
  }
  if (a.item != b.item && (!a.item || !b.item || !same_type(*a.item, *b.item))) return false;
  return true;
}

class ModuleChecker {
 public:
  ModuleChecker(const Module& m, const Registry& reg, CheckerResult& out, bool is_root, DefTypes& def_types)
      : m_(m), reg_(reg), out_(out), is_root_(is_root), def_types_(def_types) {
    for (const auto& u : m.uses)
      if (u.alias.empty()) unqualified_.push_back(u.module);
  }

  void run() {
    check_clashes();
    for (const auto& item : m_.file->items) {
      if (auto* p = std::get_if<ast::Param>(&item)) {
        Scope s;
        expr(*p->value, s);
      } else if (auto* l = std::get_if<ast::LetDecl>(&item)) {
        Scope s;
        let_type(l->name.name, *l->value);
      } else if (auto* d = std::get_if<ast::Def>(&item)) {
        def(*d);
      }
    }
    if (m_.file->header) {
      Scope s;
      if (m_.file->header->title) expr(*m_.file->header->title, s);
      if (m_.file->header->fields) header_fields(*m_.file->header->fields, s);
    }
    bool is_module = !is_root_;
    std::map<std::string, SourceRange> seen;
    for (const auto& item : m_.file->items) {
      if (auto* c = std::get_if<ast::Criterion>(&item)) {
        if (is_module) module_holds_criteria(c->range);
        criterion(*c, nullptr, seen);
      } else if (auto* g = std::get_if<std::shared_ptr<const ast::Group>>(&item)) {
        if (is_module) module_holds_criteria((*g)->range);
        group(**g, nullptr, seen);
      }
    }
  }

 private:
  void error(SourceRange r, std::string msg, std::vector<std::string> notes = {}) {
    out_.diagnostics.push_back(Diagnostic{Severity::error, m_.file->source, r, std::move(msg), std::move(notes)});
  }
  void warning(SourceRange r, std::string msg) {
    out_.diagnostics.push_back(Diagnostic{Severity::warning, m_.file->source, r, std::move(msg), {}});
  }
  std::string text(const ast::Expr& e) const { return std::string(m_.file->source->slice(e.range)); }

  // The literal phrases in a phrase operand (a string, a list of them, `a near b`), each warned
  // about once when it has no words to match (phrase_words.hpp).
  void phrases(const ast::Expr& e) {
    if (const auto* s = std::get_if<ast::StringLit>(&e.node)) {
      if (s->parts.size() != 1 || !std::holds_alternative<std::string>(s->parts[0]) || !phrases_seen_.insert(&e).second) return;
      const std::string& phrase = std::get<std::string>(s->parts[0]);
      // "/" or "->" matches no word of any answer: every submission would be an ERROR.
      if (phrase_without_words(phrase)) {
        // A warning: the check that uses it is the rubric's ERROR when it runs, the rest of the report stands.
        out_.diagnostics.push_back(Diagnostic{Severity::warning, m_.file->source, e.range,
                                              fmt::format("the phrase \"{}\" has no words to match", phrase),
                                              {"a phrase is matched by its words; punctuation alone is in no answer's "
                                               "words, so every check that uses it is an ERROR"}});
      }
    } else if (const auto* l = std::get_if<ast::ListLit>(&e.node)) {
      for (const auto& item : l->items) phrases(*item);
    } else if (const auto* c = std::get_if<ast::Call>(&e.node)) {
      const auto* callee = std::get_if<ast::Name>(&c->callee->node);
      if (callee && callee->name == "near")
        for (std::size_t k = 0; k < c->args.size() && k < 2; ++k) phrases(*c->args[k]);
    }
  }

  // `polarity(t, "x") == "affirmd"`, `c.polarity != "stated"`: a polarity is one of four words, and a
  // literal that is none of them can never equal it, so every answer would get the same verdict.
  void polarity_literal(const ast::Expr& side, const ast::Expr& other) {
    bool call = false, field = false;  // `polarity(...)`, or a field that may be a claim's (a warning: other records may have one)
    if (const auto* c = std::get_if<ast::Call>(&side.node))
      if (const auto* name = std::get_if<ast::Name>(&c->callee->node)) call = name->name == "polarity";
    if (const auto* f = std::get_if<ast::Field>(&side.node)) field = f->name.name == "polarity";
    const bool reads_polarity = call || field;
    const auto* s = std::get_if<ast::StringLit>(&other.node);
    if (!reads_polarity || !s || s->parts.size() != 1 || !std::holds_alternative<std::string>(s->parts[0])) return;
    const std::string& lit = std::get<std::string>(s->parts[0]);
    static const std::vector<std::string> kPolarities = {"affirmed", "negated", "hedged", "absent"};
    if (std::find(kPolarities.begin(), kPolarities.end(), lit) != kPolarities.end()) return;
    std::vector<std::string> notes = {"a polarity is \"affirmed\", \"negated\", \"hedged\" or \"absent\" (docs/text.md)"};
    if (auto best = nearest_name(lit, kPolarities); !best.empty()) notes.push_back(fmt::format("did you mean \"{}\"?", best));
    std::string msg = fmt::format("\"{}\" is no polarity, so this comparison has the same value for every answer", lit);
    if (call) error(other.range, std::move(msg), std::move(notes));
    else out_.diagnostics.push_back(Diagnostic{Severity::warning, m_.file->source, other.range, std::move(msg), std::move(notes)});
  }

  void module_holds_criteria(SourceRange r) { error(r, fmt::format("module '{}' holds a criterion; only rubric files (with a header) may", m_.name)); }

  void check_clashes() {
    std::map<std::string, const Module*> owner;
    for (const auto& u : m_.uses) {
      if (!u.alias.empty()) continue;
      for (const auto& d : u.module->decls) {
        if (auto own = m_.decls.find(d.first); own != m_.decls.end()) {
          // The module's own declaration shadows the used one: said, since every use of the name
          // here now means this one ("concept bank_conflict = ..." after `use std.concepts`).
          if (const ast::Ident* id = own->second.ident())
            out_.diagnostics.push_back(Diagnostic{Severity::warning, m_.file->source, id->range,
                                                  fmt::format("'{}' here shadows {}'s '{}', which this file uses", d.first,
                                                              u.module->name, d.first),
                                                  {fmt::format("rename it, or use {} as {} to keep both", u.module->name,
                                                               u.module->name.substr(u.module->name.rfind('.') + 1))}});
          continue;
        }
        auto [it, inserted] = owner.emplace(d.first, u.module);
        if (!inserted && it->second != u.module)
          error(u.range, fmt::format("'{}' is defined by both '{}' and '{}', both used unqualified", d.first, it->second->name, u.module->name),
                {fmt::format("use one of them with an alias: use {} as {}", u.module->name, u.module->name.substr(u.module->name.rfind('.') + 1))});
      }
    }
  }

  // `pass`, `confidence`, `seed`: what the evaluator would warn about and replace with the
  // default, said before anything runs; a fraction written without its `%` gets "write 70%".
  void header_fields(const ast::Expr& fields, const Scope& s) {
    expr(fields, s);
    auto* rec = std::get_if<ast::RecordLit>(&fields.node);
    if (!rec) return;
    for (const auto& f : rec->fields) {
      auto range = header_field_range(f.key.name);
      if (!range) continue;
      StaticType t = types_.count(f.value.get()) ? types_.at(f.value.get()) : of(K::unknown);
      auto v = plain_literal(*f.value);
      bool wrong_kind = t.kind != K::unknown && (t.kind != K::number || (t.dim && !t.dim->dimensionless()));
      bool out_of_range = v && !(*v >= range->lo && *v <= range->hi);
      if (!wrong_kind && !out_of_range) continue;
      std::vector<std::string> notes;
      if (auto hint = out_of_range && range->fraction ? percent_hint(*v) : std::nullopt) notes.push_back(*hint);
      out_.diagnostics.push_back(Diagnostic{Severity::warning, m_.file->source, f.value->range,
                                            header_field_problem(f.key.name, *range, text(*f.value)), std::move(notes)});
    }
  }

  // The type of a function def's value, from its body with its parameters unknown: typed once per
  // program by a checker of the def's own module whose diagnostics are dropped (the def itself is
  // checked, and reported, where it is declared).
  StaticType def_result(const ast::Def& d, const Module* owner) {
    if (d.is_check() || !d.body_expr) return of(K::unknown);
    if (auto it = def_types_.known.find(&d); it != def_types_.known.end()) return it->second;
    if (!def_types_.typing.insert(&d).second) return of(K::unknown);
    CheckerResult dropped;
    ModuleChecker quiet(owner ? *owner : m_, reg_, dropped, false, def_types_);
    Scope s;
    for (const auto& p : d.params) s.names[p.name.name] = Local{};
    StaticType t = quiet.expr(*d.body_expr, s);
    def_types_.typing.erase(&d);
    def_types_.known[&d] = t;
    return t;
  }

  // An argument given to a def's fraction parameter (its default written as a percentage) as a
  // plain number above 1: `min = 70` asks for 7000%.
  void fraction_arguments(const ast::Call& n, const ast::Def& d, const Module* owner, const std::string& name) {
    const SourceFile& source = *(owner ? owner->file->source : m_.file->source);
    auto warn = [&](const ast::DefParam& p, const ast::Expr& arg) {
      if (!is_fraction_param(p, source)) return;
      auto v = plain_literal(arg);
      auto hint = v ? percent_hint(*v) : std::nullopt;
      if (!hint) return;
      out_.diagnostics.push_back(Diagnostic{Severity::warning, m_.file->source, arg.range,
                                            fmt::format("'{}' of '{}' is a fraction: {} is {:g}%", p.name.name, name, text(arg), *v * 100),
                                            {*hint}});
    };
    for (std::size_t i = 0; i < n.args.size() && i < d.params.size(); ++i) warn(d.params[i], *n.args[i]);
    for (const auto& na : n.named)
      for (const auto& p : d.params)
        if (p.name.name == na.name.name) warn(p, *na.value);
  }

  // A key looked up in a record whose keys are known (a record literal, here or returned by a def).
  StaticType record_key(const StaticType& record, const std::string& key, SourceRange at) {
    if (record.kind != K::record || !record.fields) return of(K::unknown);
    if (auto it = record.fields->find(key); it != record.fields->end()) return it->second;
    std::vector<std::string> keys;
    for (const auto& f : *record.fields) keys.push_back(f.first);
    std::vector<std::string> notes;
    if (auto best = nearest_name(key, keys); !best.empty()) notes.push_back(fmt::format("did you mean '{}'?", best));
    std::string listed;
    for (std::size_t i = 0; i < keys.size() && i < 12; ++i) listed += (i ? ", " : "") + keys[i];
    if (keys.size() > 12) listed += fmt::format(", ... ({} keys)", keys.size());
    error(at, fmt::format("no key '{}' in this record; keys: {}", key, listed), notes);
    return of(K::unknown);
  }

  // ---- names ----

  struct Found {
    NameKind kind;
    StaticType type;
    const ast::Def* def = nullptr;
    const Module* module = nullptr;
    const Builtin* builtin = nullptr;
  };

  std::optional<Found> resolve(const std::string& name, const Scope& scope) {
    for (const Scope* s = &scope; s; s = s->parent) {
      auto it = s->names.find(name);
      if (it != s->names.end()) {
        if (it->second.block_let) used_block_lets_.insert(it->second.block_let);
        return Found{it->second.kind, it->second.type, it->second.def, nullptr, nullptr};
      }
    }
    if (auto f = resolve_in(m_, name, true)) return f;
    for (const Module* u : unqualified_)
      if (auto f = resolve_in(*u, name, false)) return f;
    for (const auto& u : m_.uses)
      if (u.alias == name) return Found{NameKind::module_alias, of(K::unknown), nullptr, u.module, nullptr};
    if (name == "submission" || name == "reference") return Found{NameKind::root, of(K::path), nullptr, nullptr, nullptr};
    if (reg_.has_binding(name)) return Found{NameKind::binding, of(K::unknown), nullptr, nullptr, nullptr};
    if (auto b = reg_.find(name)) return Found{NameKind::builtin, of(K::function), nullptr, nullptr, b.get()};
    return std::nullopt;
  }

  std::optional<Found> resolve_in(const Module& m, const std::string& name, bool own) {
    auto it = m.decls.find(name);
    if (it == m.decls.end()) return std::nullopt;
    const Decl& d = it->second;
    switch (d.kind) {
      case Decl::Kind::def:
        return Found{d.def->is_check() ? NameKind::check_def : NameKind::def, of(K::function), d.def, &m, nullptr};
      case Decl::Kind::param:
        return Found{NameKind::param, own ? let_type(name, *d.param->value) : of(K::unknown), nullptr, &m, nullptr};
      case Decl::Kind::let:
        return Found{NameKind::let, own ? let_type(name, *d.let->value) : of(K::unknown), nullptr, &m, nullptr};
    }
    return std::nullopt;
  }

  // Top-level lets and params are typed once, on demand (they are lazy: order does not matter).
  StaticType let_type(const std::string& name, const ast::Expr& e) {
    auto it = let_types_.find(name);
    if (it != let_types_.end()) return it->second;
    if (in_progress_.count(name)) return of(K::unknown);
    in_progress_.insert(name);
    Scope s;
    StaticType t = expr(e, s);
    in_progress_.erase(name);
    let_types_[name] = t;
    return t;
  }

  void undefined(const std::string& name, SourceRange r, const Scope& scope) {
    std::vector<std::string> candidates;
    for (const Scope* s = &scope; s; s = s->parent)
      for (const auto& n : s->names) candidates.push_back(n.first);
    for (const auto& d : m_.decls) candidates.push_back(d.first);
    for (const Module* u : unqualified_)
      for (const auto& d : u->decls) candidates.push_back(d.first);
    for (const auto& n : reg_.names()) candidates.push_back(n);
    candidates.push_back("submission");
    candidates.push_back("reference");
    std::vector<std::string> notes;
    std::string best = nearest_name(name, candidates);
    std::string aliased;  // a module this file uses under an alias that declares the name
    for (const auto& u : m_.uses)
      if (!u.alias.empty() && u.module->decls.count(name)) aliased = u.alias;
    const std::vector<std::string> std_modules = stdlib_modules_declaring(name);
    if (name == "None" || name == "newaxis") {
      notes.push_back("Python's None is written null; a new axis (numpy's t[None]) is not supported in tensor subscripts");
    } else if (!aliased.empty()) {
      notes.push_back(fmt::format("'{}' is in a module this file uses as '{}': write '{}.{}'", name, aliased, aliased, name));
    } else if (!std_modules.empty()) {
      std::string which;
      for (const auto& m : std_modules) which += (which.empty() ? "" : " and ") + m;
      notes.push_back(fmt::format("'{}' is defined in {}; add `use {}`", name, which, std_modules.front()));
    } else if (!best.empty()) {
      notes.push_back(fmt::format("did you mean '{}'?", best));
    }
    error(r, fmt::format("undefined name '{}'", name), notes);
  }

  // ---- units ----

  std::optional<Dimension> dim(const StaticType& t) {
    if (t.kind == K::number || t.kind == K::samples) return t.dim;
    return std::nullopt;
  }

  void need_same(const ast::Expr& whole, const StaticType& a, const StaticType& b, const char* what) {
    auto da = dim(a), db = dim(b);
    if (da && db && *da != *db)
      error(whole.range, fmt::format("{} needs equal dimensions: {} vs {}", what, dimension_description(*da), dimension_description(*db)),
            {fmt::format("in '{}'", text(whole))});
  }

  // ---- expressions ----

  StaticType record_type(const ast::Expr& e, StaticType t) {
    if (t.kind != K::unknown) types_[&e] = t;
    return t;
  }

  StaticType expr(const ast::Expr& e, const Scope& scope) { return record_type(e, expr_inner(e, scope)); }

  StaticType expr_inner(const ast::Expr& e, const Scope& scope) {
    return std::visit(
        [&](const auto& n) -> StaticType {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ast::NullLit>) {
            return of(K::null);
          } else if constexpr (std::is_same_v<T, ast::BoolLit>) {
            return of(K::boolean);
          } else if constexpr (std::is_same_v<T, ast::NumberLit>) {
            if (n.unit.empty()) return number(Dimension{});
            std::string why;
            auto u = parse_unit(n.unit, &why);
            if (!u) {
              error(e.range, why, {unit_note()});
              return of(K::number);
            }
            return number(u->dim);
          } else if constexpr (std::is_same_v<T, ast::StringLit>) {
            for (const auto& p : n.parts)
              if (auto* x = std::get_if<ast::ExprPtr>(&p)) expr(**x, scope);
            return of(K::string);
          } else if constexpr (std::is_same_v<T, ast::Name>) {
            auto f = resolve(n.name, scope);
            if (!f) {
              undefined(n.name, e.range, scope);
              return of(K::unknown);
            }
            if (f->kind == NameKind::module_alias) error(e.range, fmt::format("'{}' names a module; use '{}.name'", n.name, n.name));
            return f->type;
          } else if constexpr (std::is_same_v<T, ast::ListLit>) {
            StaticType list = of(K::list);
            std::optional<StaticType> item;
            bool one_type = true;
            for (const auto& i : n.items) {
              StaticType t = expr(*i, scope);
              if (!item) item = t;
              else one_type = one_type && same_type(*item, t);
            }
            if (item && one_type && item->kind != K::unknown) list.item = std::make_shared<const StaticType>(*item);
            return list;
          } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
            auto fields = std::make_shared<std::map<std::string, StaticType>>();
            for (const auto& f : n.fields) (*fields)[f.key.name] = expr(*f.value, scope);
            StaticType record = of(K::record);
            record.fields = std::move(fields);
            return record;
          } else if constexpr (std::is_same_v<T, ast::Unary>) {
            StaticType t = expr(*n.operand, scope);
            if (n.op == ast::UnaryOp::logical_not) {
              not_bool(*n.operand, t, "'not'");
              return of(K::boolean);
            }
            return t.kind == K::number || t.kind == K::samples ? t : of(K::unknown);
          } else if constexpr (std::is_same_v<T, ast::Binary>) {
            return binary(e, n, scope);
          } else if constexpr (std::is_same_v<T, ast::Within>) {
            StaticType a = expr(*n.value, scope), t = expr(*n.tolerance, scope), b = expr(*n.reference, scope);
            need_same(e, a, b, "'within'");
            auto dt = dim(t), da = dim(a);
            if (dt && !dt->dimensionless() && da && *dt != *da)
              error(n.tolerance->range, fmt::format("the tolerance has dimension {} but the values have {}", dimension_description(*dt),
                                                    dimension_description(*da)),
                    {"a plain tolerance (5%, 0.05) is relative; one with a unit is absolute"});
            return of(K::boolean);
          } else if constexpr (std::is_same_v<T, ast::Matches>) {
            StaticType a = expr(*n.value, scope), b = expr(*n.reference, scope);
            if (a.kind == K::number && b.kind == K::number) need_same(e, a, b, "'matches'");
            for (const auto* x : {&n.both, &n.rtol, &n.atol, &n.ulp})
              if (*x) {
                StaticType t = expr(**x, scope);
                if (auto d = dim(t); d && !d->dimensionless())
                  error((*x)->range, fmt::format("a 'matches' tolerance is a plain number, not {}", dimension_description(*d)));
              }
            return of(K::boolean);
          } else if constexpr (std::is_same_v<T, ast::Mentions>) {
            StaticType t = expr(*n.text, scope), p = expr(*n.phrases, scope);
            const char* verb = n.verb == ast::MentionVerb::affirms ? "affirms" : n.verb == ast::MentionVerb::denies ? "denies" : "mentions";
            if (t.kind != K::unknown && t.kind != K::string)
              error(n.text->range, fmt::format("'{}' searches a string, not a {}", verb, kind_text(t.kind)));
            if (n.verb != ast::MentionVerb::mentions) {
              phrases(*n.phrases);
              // A phrase, a list of phrases or a concept (a record); under any/all, a list.
              if (p.kind != K::unknown && p.kind != K::string && p.kind != K::list && p.kind != K::record)
                error(n.phrases->range, fmt::format("'{}' needs a phrase, a list of phrases or a concept, not a {}", verb, kind_text(p.kind)));
              if (n.mode != ast::MentionMode::one && p.kind != K::unknown && p.kind != K::list)
                error(n.phrases->range, fmt::format("'{} any' and '{} all' take a list", verb, verb));
              return of(K::boolean);
            }
            if (n.mode == ast::MentionMode::one && p.kind != K::unknown && p.kind != K::string)
              error(n.phrases->range, fmt::format("'mentions' needs a string phrase; use 'mentions any [...]' for a list"));
            if (n.mode != ast::MentionMode::one && p.kind != K::unknown && p.kind != K::list)
              error(n.phrases->range, "'mentions any' and 'mentions all' take a list of phrases");
            return of(K::boolean);
          } else if constexpr (std::is_same_v<T, ast::As>) {
            StaticType v = expr(*n.value, scope);
            std::string why;
            auto u = parse_unit(n.unit, &why);
            if (!u) {
              error(n.unit_range.known() ? n.unit_range : e.range, why, {unit_note()});
              return of(K::unknown);
            }
            if (auto d = dim(v); d && !d->dimensionless())
              error(e.range, fmt::format("'as {}' gives a unit to a plain number, but '{}' already has dimension {}", n.unit,
                                         text(*n.value), dimension_description(*d)));
            return typed(v.kind == K::samples ? K::samples : K::number, u->dim);
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            return call(e, n, scope, false);
          } else if constexpr (std::is_same_v<T, ast::Field>) {
            if (auto* nm = std::get_if<ast::Name>(&n.object->node)) {
              auto f = resolve(nm->name, scope);
              if (f && f->kind == NameKind::module_alias) {
                if (!f->module->decls.count(n.name.name)) {
                  std::vector<std::string> names;
                  for (const auto& d : f->module->decls) names.push_back(d.first);
                  std::vector<std::string> notes;
                  if (auto best = nearest_name(n.name.name, names); !best.empty()) notes.push_back(fmt::format("did you mean '{}'?", best));
                  error(n.name.range.known() ? n.name.range : e.range,
                        fmt::format("module '{}' has no '{}'", f->module->name, n.name.name), notes);
                }
                return of(K::unknown);
              }
            }
            StaticType object = expr(*n.object, scope);
            return record_key(object, n.name.name, n.name.range.known() ? n.name.range : e.range);
          } else if constexpr (std::is_same_v<T, ast::Index>) {
            StaticType object = expr(*n.object, scope);
            if (n.index) {
              expr(*n.index, scope);
              if (auto* key = std::get_if<ast::StringLit>(&n.index->node); key && key->parts.size() == 1)
                if (auto* k = std::get_if<std::string>(&key->parts[0])) return record_key(object, *k, n.index->range);
              if (object.kind == K::list && object.item && std::holds_alternative<ast::NumberLit>(n.index->node))
                return *object.item;
            }
            for (const ast::Subscript& sub : n.subscripts)
              for (const ast::ExprPtr& part : {sub.start, sub.stop, sub.step})
                if (part) expr(*part, scope);
            return of(K::unknown);
          } else if constexpr (std::is_same_v<T, ast::IfExpr>) {
            StaticType c = expr(*n.condition, scope);
            not_bool(*n.condition, c, "'if'");
            StaticType a = expr(*n.then_value, scope), b = expr(*n.else_value, scope);
            if (a.never) return b;
            if (b.never) return a;
            if (same_type(a, b)) return a;
            if (a.kind == b.kind && a.kind != K::number && a.kind != K::samples) return of(a.kind);
            return of(K::unknown);
          } else if constexpr (std::is_same_v<T, ast::Lambda>) {
            Scope inner{&scope, {}};
            for (const auto& p : n.params) inner.names[p.name] = Local{};
            expr(*n.body, inner);
            return of(K::function);
          } else if constexpr (std::is_same_v<T, ast::BlockExpr>) {
            return block_expr(n, scope);
          } else {
            return of(K::unknown);
          }
        },
        e.node);
  }

  // `{ let a = ...; value }`: each let sees the parameters and the lets before it (not itself);
  // a name is bound once per block and never shadows a parameter or another local name, so
  // every name in a function body means one thing. The block's type is its value's.
  StaticType block_expr(const ast::BlockExpr& n, const Scope& scope) {
    Scope inner{&scope, {}};
    std::map<std::string, SourceRange> bound;
    for (const ast::BlockLet& l : n.lets) {
      StaticType t = expr(*l.value, inner);
      const std::string& name = l.name.name;
      // A refused let is reported once, as an error; the first binding stays in scope.
      if (auto it = bound.find(name); it != bound.end()) {
        error(l.name.range, fmt::format("duplicate let '{}' in this block", name),
              {fmt::format("'{}' is first bound at {}; a block binds each name once", name, m_.file->source->location(it->second.begin))});
        warned_unused_.insert(&l);
        continue;
      }
      if (bound_locally(name, scope)) {
        error(l.name.range, fmt::format("let '{}' would shadow a parameter or local name of the same name", name),
              {"a block's let does not shadow local names; choose another name"});
        warned_unused_.insert(&l);
      }
      bound.emplace(name, l.name.range);
      inner.names[name] = Local{NameKind::local, t, nullptr, &l};
    }
    StaticType value = expr(*n.value, inner);
    for (const ast::BlockLet& l : n.lets)
      if (!used_block_lets_.count(&l) && warned_unused_.insert(&l).second)
        warning(l.name.range, fmt::format("unused let '{}': nothing in the block refers to it", l.name.name));
    return value;
  }

  // A parameter, loop variable or local let in an enclosing scope (group lets, like top-level
  // ones, may be shadowed).
  static bool bound_locally(const std::string& name, const Scope& scope) {
    for (const Scope* s = &scope; s; s = s->parent) {
      auto it = s->names.find(name);
      if (it != s->names.end()) return it->second.kind == NameKind::local;
    }
    return false;
  }

  static std::string unit_note() {
    std::string s = "known units:";
    for (auto u : unit_atoms()) s += fmt::format(" {}", u);
    return s;
  }

  void not_bool(const ast::Expr& e, const StaticType& t, const char* what) {
    if (t.kind != K::unknown && t.kind != K::boolean)
      error(e.range, fmt::format("{} needs a bool, but '{}' is a {}", what, text(e), kind_text(t.kind)));
  }

  StaticType binary(const ast::Expr& e, const ast::Binary& n, const Scope& scope) {
    using ast::BinaryOp;
    StaticType a = expr(*n.lhs, scope), b = expr(*n.rhs, scope);
    switch (n.op) {
      case BinaryOp::logical_and:
      case BinaryOp::logical_or:
        not_bool(*n.lhs, a, n.op == BinaryOp::logical_and ? "'and'" : "'or'");
        not_bool(*n.rhs, b, n.op == BinaryOp::logical_and ? "'and'" : "'or'");
        return of(K::boolean);
      case BinaryOp::eq:
      case BinaryOp::ne:
        if (a.kind == K::number && b.kind == K::number) need_same(e, a, b, "comparison");
        polarity_literal(*n.lhs, *n.rhs);
        polarity_literal(*n.rhs, *n.lhs);
        return of(K::boolean);
      case BinaryOp::lt:
      case BinaryOp::le:
      case BinaryOp::gt:
      case BinaryOp::ge:
        need_same(e, a, b, "comparison");
        return of(K::boolean);
      case BinaryOp::in: return of(K::boolean);
      case BinaryOp::add:
      case BinaryOp::sub: {
        if (a.kind == K::string || a.kind == K::list) return a;
        need_same(e, a, b, n.op == BinaryOp::add ? "'+'" : "'-'");
        auto da = dim(a), db = dim(b);
        K k = a.kind == K::samples || b.kind == K::samples ? K::samples : K::number;
        if ((a.kind == K::number || a.kind == K::samples) && (b.kind == K::number || b.kind == K::samples))
          return typed(k, da ? da : db);
        return of(K::unknown);
      }
      case BinaryOp::mul:
      case BinaryOp::div: {
        if (a.kind == K::path) return of(K::path);
        auto da = dim(a), db = dim(b);
        bool nums = (a.kind == K::number || a.kind == K::samples) && (b.kind == K::number || b.kind == K::samples);
        if (!nums) return of(K::unknown);
        K k = a.kind == K::samples || b.kind == K::samples ? K::samples : K::number;
        if (da && db) return typed(k, n.op == BinaryOp::mul ? *da * *db : *da / *db);
        return typed(k, std::nullopt);
      }
    }
    return of(K::unknown);
  }

  // Arity of builtins and defs; `in_check` when this is the call of a `check` statement.
  StaticType call(const ast::Expr& e, const ast::Call& n, const Scope& scope, bool in_check) {
    // The phrases of concept(...) (a `concept` declaration), near(a, b) and polarity(t, p).
    if (const auto* nm = std::get_if<ast::Name>(&n.callee->node)) {
      auto f = resolve(nm->name, scope);
      if (f && f->kind == NameKind::builtin && (nm->name == "concept" || nm->name == "near") && !n.args.empty()) phrases(*n.args[0]);
      if (f && f->kind == NameKind::builtin && nm->name == "near" && n.args.size() > 1) phrases(*n.args[1]);
      if (f && f->kind == NameKind::builtin && nm->name == "polarity" && n.args.size() > 1) phrases(*n.args[1]);
    }
    std::vector<StaticType> arg_types;
    for (std::size_t i = 0; i < n.args.size(); ++i) {
      // `any(claims(t), c => c.valu > 2)`: a lambda over a list of known records types its parameter
      // as the list's items, so a key they lack is found here, not on the answers that have claims.
      const auto* lambda = std::get_if<ast::Lambda>(&n.args[i]->node);
      if (i == 1 && lambda && lambda->params.size() == 1 && !arg_types.empty() && arg_types[0].kind == K::list &&
          arg_types[0].item && arg_types[0].item->kind == K::record && arg_types[0].item->fields && list_builtin(n, scope)) {
        Scope inner{&scope, {}};
        inner.names[lambda->params[0].name] = Local{NameKind::local, *arg_types[0].item, nullptr};
        expr(*lambda->body, inner);
        arg_types.push_back(of(K::function));
        continue;
      }
      arg_types.push_back(expr(*n.args[i], scope));
    }
    for (const auto& a : n.named) expr(*a.value, scope);
    const ast::Def* def = nullptr;
    const Module* owner = nullptr;
    const Builtin* builtin = nullptr;
    std::string name;
    if (auto* nm = std::get_if<ast::Name>(&n.callee->node)) {
      name = nm->name;
      auto f = resolve(nm->name, scope);
      if (!f) {
        undefined(nm->name, n.callee->range, scope);
        return of(K::unknown);
      }
      def = f->def;
      owner = f->module;
      builtin = f->builtin;
      if (f->kind == NameKind::local || f->kind == NameKind::let || f->kind == NameKind::param) {
        if (f->type.kind != K::unknown && f->type.kind != K::function)
          error(n.callee->range, fmt::format("'{}' is a {}, not a function", nm->name, kind_text(f->type.kind)));
      }
    } else if (auto* fld = std::get_if<ast::Field>(&n.callee->node)) {
      expr(*n.callee, scope);
      if (auto* mn = std::get_if<ast::Name>(&fld->object->node)) {
        auto f = resolve(mn->name, scope);
        if (f && f->kind == NameKind::module_alias) {
          auto it = f->module->decls.find(fld->name.name);
          if (it != f->module->decls.end() && it->second.kind == Decl::Kind::def) {
            def = it->second.def;
            owner = f->module;
          }
          name = mn->name + "." + fld->name.name;
        }
      }
    } else {
      expr(*n.callee, scope);
    }
    if (in_check) {
      if (builtin || (def && !def->is_check()))
        error(e.range, fmt::format("'check' runs a check def (one with a {{ }} body); '{}' is a {}", name,
                                   builtin ? "builtin" : "function def"),
              {"call a function in an expression instead: expect f(...)"});
    } else if (def && def->is_check()) {
      error(e.range, fmt::format("'{}' is a check def: run it with 'check {}(...)' inside a criterion", name, name));
    }
    if (def) {
      std::size_t required = 0;
      for (const auto& p : def->params) required += p.default_value ? 0 : 1;
      if (n.args.size() > def->params.size())
        error(e.range, fmt::format("too many arguments to '{}': {} given, it takes {}", name, n.args.size(), def->params.size()));
      std::set<std::string> given;
      for (std::size_t i = 0; i < n.args.size() && i < def->params.size(); ++i) given.insert(def->params[i].name.name);
      for (const auto& na : n.named) {
        bool known = std::any_of(def->params.begin(), def->params.end(), [&](const ast::DefParam& p) { return p.name.name == na.name.name; });
        if (!known) error(na.name.range.known() ? na.name.range : e.range, fmt::format("'{}' has no parameter '{}'", name, na.name.name));
        else if (!given.insert(na.name.name).second) error(e.range, fmt::format("argument '{}' to '{}' given twice", na.name.name, name));
      }
      for (const auto& p : def->params)
        if (!p.default_value && !given.count(p.name.name))
          error(e.range, fmt::format("missing argument '{}' to '{}'", p.name.name, name));
      fraction_arguments(n, *def, owner, name);
      return def_result(*def, owner);
    } else if (builtin) {
      // Overloads (a family extending a name) each have their own parameters: the call must fit one.
      std::string first_problem;
      bool fits = false;
      for (const Builtin* cur = builtin; cur && !fits; cur = cur->next.get()) {
        std::string problem = arity_problem(*cur, n, name);
        if (problem.empty()) fits = true;
        else if (first_problem.empty()) first_problem = problem;
      }
      if (!fits) error(e.range, first_problem);
      if (reg_.keeps_unit(name) && !arg_types.empty()) return unit_of_first(arg_types.front());
      if (name == "claims") return claims_type();
      if ((name == "filter" || name == "sort") && !arg_types.empty() && arg_types[0].kind == K::list) return arg_types[0];
      if (name == "error") {
        StaticType t = of(K::unknown);
        t.never = true;
        return t;
      }
    }
    return of(K::unknown);
  }

  // Whether the call is to a builtin that calls its second argument on each item of its first.
  bool list_builtin(const ast::Call& n, const Scope& scope) {
    const auto* nm = std::get_if<ast::Name>(&n.callee->node);
    if (!nm) return false;
    static const std::set<std::string> kOverItems = {"any", "all", "filter", "map", "count", "sort"};
    auto f = resolve(nm->name, scope);
    return f && f->kind == NameKind::builtin && kOverItems.count(nm->name);
  }

  // What `claims(t)` returns: a list of records whose keys are fixed (interpreter/builtins/text.cpp).
  static StaticType claims_type() {
    auto fields = std::make_shared<std::map<std::string, StaticType>>();
    (*fields)["value"] = of(K::unknown);  // a number whose unit is the claim's
    for (const char* k : {"unit", "text", "sentence", "polarity", "noun", "kind", "ambiguous", "source"}) (*fields)[k] = of(K::string);
    StaticType item = of(K::record);
    item.fields = std::move(fields);
    StaticType list = of(K::list);
    list.item = std::make_shared<const StaticType>(std::move(item));
    return list;
  }

  // A builtin that keeps its first argument's unit: a number of that unit, when it is known.
  static StaticType unit_of_first(const StaticType& a) {
    const StaticType& x = a.kind == K::list && a.item ? *a.item : a;
    if ((x.kind == K::number || x.kind == K::samples) && x.dim) return number(*x.dim);
    return of(K::unknown);
  }

  static std::string arity_problem(const Builtin& b, const ast::Call& n, const std::string& name) {
    std::size_t positional_max = b.variadic ? SIZE_MAX : b.params.size();
    if (n.args.size() > positional_max)
      return fmt::format("too many arguments to '{}': {} given, it takes at most {} ({})", name, n.args.size(), positional_max,
                         b.signature());
    std::size_t named_required = 0;
    for (const auto& na : n.named) {
      auto it = std::find_if(b.params.begin(), b.params.end(), [&](const ParamSpec& p) { return p.name == na.name.name; });
      if (it == b.params.end()) return fmt::format("'{}' has no parameter '{}' ({})", name, na.name.name, b.signature());
      if (!it->default_value) ++named_required;
    }
    if (n.args.size() + named_required < b.required_count())
      return fmt::format("too few arguments to '{}': {} given, it needs {} ({})", name, n.args.size() + named_required,
                         b.required_count(), b.signature());
    return "";
  }

  // ---- declarations and statements ----

  void def(const ast::Def& d) {
    Scope s;
    std::set<std::string> seen;
    for (const auto& p : d.params) {
      if (!seen.insert(p.name.name).second) error(p.name.range, fmt::format("parameter '{}' appears twice", p.name.name));
      if (p.default_value) expr(*p.default_value, s);
      s.names[p.name.name] = Local{};
    }
    if (d.body_expr) expr(*d.body_expr, s);
    if (d.body_stmts) block(*d.body_stmts, s);
  }

  void block(const ast::Block& stmts, const Scope& parent) {
    Scope s{&parent, {}};
    for (const auto& st : stmts) stmt(st, s);
  }

  void stmt(const ast::Stmt& st, Scope& s) {
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ast::LetStmt>) {
            StaticType t = expr(*n.value, s);
            s.names[n.name.name] = Local{NameKind::local, t, nullptr};
          } else if constexpr (std::is_same_v<T, ast::ExpectStmt>) {
            StaticType t = expr(*n.condition, s);
            if (t.kind != K::unknown && t.kind != K::boolean)
              error(n.condition->range, fmt::format("'expect' needs a bool, but '{}' is a {}", text(*n.condition), kind_text(t.kind)));
            if (n.message) expr(*n.message, s);
          } else if constexpr (std::is_same_v<T, ast::CheckStmt>) {
            if (auto* c = std::get_if<ast::Call>(&n.call->node)) call(*n.call, *c, s, true);
            else error(n.call->range, "'check' needs a call: check f(args)");
          } else if constexpr (std::is_same_v<T, ast::NoteStmt>) {
            expr(*n.text, s);
          } else if constexpr (std::is_same_v<T, ast::ScoreStmt>) {
            StaticType t = expr(*n.value, s);
            if (t.kind != K::unknown && t.kind != K::number)
              error(n.value->range, fmt::format("'score' needs a number in [0, 1], got a {}", kind_text(t.kind)));
            else if (t.dim && !t.dim->dimensionless())
              error(n.value->range, fmt::format("'score' needs a plain number, got dimension {}", dimension_description(*t.dim)));
          } else if constexpr (std::is_same_v<T, ast::ForStmt>) {
            StaticType t = expr(*n.iterable, s);
            if (t.kind != K::unknown && t.kind != K::list)
              error(n.iterable->range, fmt::format("'for' needs a list, got a {}", kind_text(t.kind)));
            Scope inner{&s, {}};
            inner.names[n.var.name] = Local{NameKind::local, t.kind == K::list && t.item ? *t.item : of(K::unknown), nullptr};
            block(*n.body, inner);
          } else if constexpr (std::is_same_v<T, ast::IfStmt>) {
            StaticType t = expr(*n.condition, s);
            not_bool(*n.condition, t, "'if'");
            block(*n.then_body, s);
            if (n.else_body) block(*n.else_body, s);
          }
        },
        st.node);
  }

  void weight(const ast::ExprPtr& w, const Scope& s, const char* what) {
    if (!w) return;
    StaticType t = expr(*w, s);
    if (t.kind != K::unknown && t.kind != K::number) error(w->range, fmt::format("{} must be a number, got a {}", what, kind_text(t.kind)));
    else if (t.dim && !t.dim->dimensionless())
      error(w->range, fmt::format("{} must be a plain number, got dimension {}", what, dimension_description(*t.dim)));
  }

  void id_seen(const ast::Ident& id, std::map<std::string, SourceRange>& seen) {
    auto [it, inserted] = seen.emplace(id.name, id.range);
    if (!inserted)
      error(id.range, fmt::format("duplicate criterion id '{}'", id.name), {fmt::format("first used at {}", m_.file->source->location(it->second.begin))});
  }

  void after(const ast::Criterion& c, const std::map<std::string, SourceRange>& seen) {
    for (const auto& a : c.after) {
      if (a.name == c.id.name) {
        error(a.range, fmt::format("criterion '{}' is after itself (a cycle)", a.name));
      } else if (!seen.count(a.name)) {
        all_ids();
        if (ids_.count(a.name)) {
          error(a.range, fmt::format("'after {}' refers forward: '{}' is declared later", a.name, a.name),
                {"'after' must point to a criterion declared earlier (this also rules out cycles)"});
        } else {
          std::vector<std::string> notes;
          if (auto best = nearest_name(a.name, std::vector<std::string>(ids_.begin(), ids_.end())); !best.empty())
            notes.push_back(fmt::format("did you mean '{}'?", best));
          error(a.range, fmt::format("'after {}': no criterion or group with that id", a.name), notes);
        }
      }
    }
  }

  void all_ids() {
    if (ids_done_) return;
    ids_done_ = true;
    ast::walk_criteria(
        m_.file->items, [&](const ast::Criterion& c, int) { ids_.insert(c.id.name); },
        [&](const ast::Group& g, int) { ids_.insert(g.id.name); });
  }

  void criterion(const ast::Criterion& c, const Scope* parent, std::map<std::string, SourceRange>& seen) {
    Scope top;
    const Scope& s = parent ? *parent : top;
    after(c, seen);
    id_seen(c.id, seen);
    if (c.title) expr(*c.title, s);
    weight(c.weight, s, "weight");
    weight(c.penalty, s, "penalty");
    for (const auto& n : c.needs)
      if (n.name != "gpu") error(n.range, fmt::format("unknown need '{}' (known: gpu)", n.name));
    block(c.body, s);
  }

  void group(const ast::Group& g, const Scope* parent, std::map<std::string, SourceRange>& seen) {
    id_seen(g.id, seen);
    Scope s{parent, {}};
    if (g.title) expr(*g.title, s);
    weight(g.weight, s, "weight");
    for (const auto& item : g.items)
      if (auto* l = std::get_if<ast::LetDecl>(&item)) s.names[l->name.name] = Local{NameKind::let, of(K::unknown), nullptr};
    for (const auto& item : g.items) {
      if (auto* l = std::get_if<ast::LetDecl>(&item)) {
        StaticType t = expr(*l->value, s);
        s.names[l->name.name].type = t;
      }
    }
    for (const auto& item : g.items) {
      if (auto* c = std::get_if<ast::Criterion>(&item)) criterion(*c, &s, seen);
      else if (auto* sg = std::get_if<std::shared_ptr<const ast::Group>>(&item)) group(**sg, &s, seen);
    }
  }

  const Module& m_;
  const Registry& reg_;
  CheckerResult& out_;
  // The type of every expression whose type is known (the header's fields are judged by it).
  std::unordered_map<const ast::Expr*, StaticType> types_;
  std::vector<const Module*> unqualified_;
  std::unordered_map<std::string, StaticType> let_types_;
  std::unordered_set<std::string> in_progress_;
  std::set<std::string> ids_;
  bool ids_done_ = false;
  std::set<const ast::BlockLet*> used_block_lets_, warned_unused_;
  bool is_root_ = false;
  DefTypes& def_types_;
  std::unordered_set<const ast::Expr*> phrases_seen_;  // phrases already linted (phrase_words.hpp)
};

}  // namespace

CheckerResult check_program(const Program& program, const Registry& registry) {
  CheckerResult out;
  DefTypes def_types;
  for (const auto& m : program.modules) {
    if (!m->file) continue;
    ModuleChecker(*m, registry, out, m.get() == program.root, def_types).run();
  }
  return out;
}

}  // namespace rubric
