#include "interpreter/needs.hpp"

#include <fmt/format.h>

#include <set>
#include <utility>

#include "interpreter/builtins/registry.hpp"

namespace rubric {

namespace {

// Walks expressions and statements, following names to the lets and defs of the module (and of
// modules it uses), each once.
class UseFinder {
 public:
  enum class Need { gpu, judge };
  UseFinder(const Registry& r, Need need) : registry_(r), need_(need) {}

  std::optional<std::string> block(const ast::Block& b, const Module& m) {
    for (const auto& s : b)
      if (auto why = stmt(s, m)) return why;
    return std::nullopt;
  }

  std::optional<std::string> expr(const ast::ExprPtr& e, const Module& m) { return e ? expr(*e, m) : std::nullopt; }

  std::optional<std::string> expr(const ast::Expr& e, const Module& m) {
    return std::visit(
        [&](const auto& n) -> std::optional<std::string> {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ast::Name>) {
            return name(n.name, m);
          } else if constexpr (std::is_same_v<T, ast::StringLit>) {
            for (const auto& part : n.parts)
              if (auto* x = std::get_if<ast::ExprPtr>(&part))
                if (auto why = expr(*x, m)) return why;
            return std::nullopt;
          } else if constexpr (std::is_same_v<T, ast::ListLit>) {
            return each(n.items, m);
          } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
            for (const auto& f : n.fields)
              if (auto why = expr(f.value, m)) return why;
            return std::nullopt;
          } else if constexpr (std::is_same_v<T, ast::Unary>) {
            return expr(n.operand, m);
          } else if constexpr (std::is_same_v<T, ast::Binary>) {
            return first(expr(n.lhs, m), [&] { return expr(n.rhs, m); });
          } else if constexpr (std::is_same_v<T, ast::Within>) {
            return each({n.value, n.tolerance, n.reference}, m);
          } else if constexpr (std::is_same_v<T, ast::Matches>) {
            return each({n.value, n.reference, n.both, n.rtol, n.atol, n.ulp}, m);
          } else if constexpr (std::is_same_v<T, ast::Mentions>) {
            return each({n.text, n.phrases}, m);
          } else if constexpr (std::is_same_v<T, ast::As>) {
            return expr(n.value, m);
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            if (auto why = call(n, m)) return why;
            if (auto why = expr(n.callee, m)) return why;
            if (auto why = each(n.args, m)) return why;
            for (const auto& na : n.named)
              if (auto why = expr(na.value, m)) return why;
            return std::nullopt;
          } else if constexpr (std::is_same_v<T, ast::Field>) {
            // `g.kernel` through a module alias.
            if (auto* obj = std::get_if<ast::Name>(&n.object->node))
              for (const auto& u : m.uses)
                if (u.alias == obj->name && u.module) return decl(n.name.name, *u.module);
            return expr(n.object, m);
          } else if constexpr (std::is_same_v<T, ast::Index>) {
            return first(expr(n.object, m), [&] { return expr(n.index, m); });
          } else if constexpr (std::is_same_v<T, ast::IfExpr>) {
            return each({n.condition, n.then_value, n.else_value}, m);
          } else if constexpr (std::is_same_v<T, ast::Lambda>) {
            return expr(n.body, m);
          } else if constexpr (std::is_same_v<T, ast::BlockExpr>) {
            for (const ast::BlockLet& l : n.lets)
              if (auto why = expr(l.value, m)) return why;
            return expr(n.value, m);
          } else {
            return std::nullopt;
          }
        },
        e.node);
  }

 private:
  template <class F>
  static std::optional<std::string> first(std::optional<std::string> a, F b) {
    return a ? a : b();
  }

  std::optional<std::string> each(const std::vector<ast::ExprPtr>& es, const Module& m) {
    for (const auto& e : es)
      if (auto why = expr(e, m)) return why;
    return std::nullopt;
  }

  std::optional<std::string> stmt(const ast::Stmt& s, const Module& m) {
    return std::visit(
        [&](const auto& n) -> std::optional<std::string> {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ast::LetStmt>) return expr(n.value, m);
          else if constexpr (std::is_same_v<T, ast::ExpectStmt>) return expr(n.condition, m);
          else if constexpr (std::is_same_v<T, ast::CheckStmt>) return expr(n.call, m);
          else if constexpr (std::is_same_v<T, ast::NoteStmt>) return std::nullopt;  // a note never decides
          else if constexpr (std::is_same_v<T, ast::ScoreStmt>) return expr(n.value, m);
          else if constexpr (std::is_same_v<T, ast::ForStmt>) return first(expr(n.iterable, m), [&] { return block(*n.body, m); });
          else return first(expr(n.condition, m), [&]() -> std::optional<std::string> {
            if (auto why = block(*n.then_body, m)) return why;
            return n.else_body ? block(*n.else_body, m) : std::nullopt;
          });
        },
        s.node);
  }

  // A call of a builtin that needs the device itself, or the judge (Builtin::needs).
  std::optional<std::string> call(const ast::Call& c, const Module& m) {
    auto* callee = std::get_if<ast::Name>(&c.callee->node);
    if (!callee) return std::nullopt;
    if (m.decls.count(callee->name)) return std::nullopt;  // the module's own def shadows a builtin
    auto b = registry_.find(callee->name);
    if (!b) return std::nullopt;
    if (need_ == Need::judge) return b->needs.judge ? std::optional<std::string>(callee->name) : std::nullopt;
    switch (b->needs.gpu) {
      case BuiltinNeeds::Gpu::no: return std::nullopt;
      case BuiltinNeeds::Gpu::always: return callee->name;
      case BuiltinNeeds::Gpu::for_cu_source:
        if (c.args.empty()) return std::nullopt;
        if (auto source = cu_source(*c.args[0])) return fmt::format("{} of {}", callee->name, *source);
        return std::nullopt;
    }
    return std::nullopt;
  }

  // The string literal part ending in ".cu" in a source path expression (`submission / "k.cu"`).
  static std::optional<std::string> cu_source(const ast::Expr& e) {
    if (auto* s = std::get_if<ast::StringLit>(&e.node)) {
      for (const auto& part : s->parts)
        if (auto* text = std::get_if<std::string>(&part); text && text->size() >= 3 && text->compare(text->size() - 3, 3, ".cu") == 0)
          return *text;
      return std::nullopt;
    }
    if (auto* b = std::get_if<ast::Binary>(&e.node)) {
      if (auto r = cu_source(*b->rhs)) return r;
      return cu_source(*b->lhs);
    }
    return std::nullopt;
  }

  std::optional<std::string> name(const std::string& n, const Module& m) {
    if (auto why = decl(n, m)) return why;
    for (const auto& u : m.uses)
      if (u.alias.empty() && u.module && u.module->decls.count(n)) return decl(n, *u.module);
    return std::nullopt;
  }

  std::optional<std::string> decl(const std::string& n, const Module& m) {
    auto it = m.decls.find(n);
    if (it == m.decls.end()) return std::nullopt;
    if (!seen_.insert({&m, n}).second) return std::nullopt;
    const Decl& d = it->second;
    if (d.kind == Decl::Kind::let && d.let) return expr(d.let->value, m);
    if (d.kind == Decl::Kind::def && d.def) {
      for (const auto& p : d.def->params)
        if (auto why = expr(p.default_value, m)) return why;
      if (d.def->body_expr) return expr(d.def->body_expr, m);
      if (d.def->body_stmts) return block(*d.def->body_stmts, m);
    }
    return std::nullopt;  // params are literals (or --set)
  }

  const Registry& registry_;
  Need need_;
  std::set<std::pair<const Module*, std::string>> seen_;
};

}  // namespace

std::optional<std::string> gpu_use(const ast::Criterion& c, const Module& m, const Registry& registry) {
  UseFinder finder(registry, UseFinder::Need::gpu);
  return finder.block(c.body, m);
}

std::optional<std::string> judge_use(const ast::Criterion& c, const Module& m, const Registry& registry) {
  UseFinder finder(registry, UseFinder::Need::judge);
  return finder.block(c.body, m);
}

}  // namespace rubric
