#include "grammar/ast_print.hpp"

#include <fmt/format.h>

namespace rubric::ast {

const char* op_text(BinaryOp op) {
  switch (op) {
    case BinaryOp::logical_or: return "or";
    case BinaryOp::logical_and: return "and";
    case BinaryOp::eq: return "==";
    case BinaryOp::ne: return "!=";
    case BinaryOp::lt: return "<";
    case BinaryOp::le: return "<=";
    case BinaryOp::gt: return ">";
    case BinaryOp::ge: return ">=";
    case BinaryOp::add: return "+";
    case BinaryOp::sub: return "-";
    case BinaryOp::mul: return "*";
    case BinaryOp::div: return "/";
    case BinaryOp::in: return "in";
  }
  return "?";
}

namespace {

std::string quoted_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '{': out += "{{"; break;
      default: out += c;
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += ' ';
    out += p;
  }
  return out;
}

struct ExprPrinter {
  std::string operator()(const NullLit&) const { return "null"; }
  std::string operator()(const BoolLit& b) const { return b.value ? "true" : "false"; }
  std::string operator()(const NumberLit& n) const {
    return n.unit.empty() ? fmt::format("{}", n.value) : fmt::format("{}[{}]", n.value, n.unit);
  }
  std::string operator()(const StringLit& s) const {
    std::string out = s.raw ? "r\"" : "\"";
    for (const StringPart& p : s.parts) {
      if (const auto* text = std::get_if<std::string>(&p))
        out += s.raw ? *text : quoted_text(*text);
      else
        out += "{" + to_sexpr(std::get<ExprPtr>(p)) + "}";
    }
    return out + "\"";
  }
  std::string operator()(const Name& n) const { return n.name; }
  std::string operator()(const ListLit& l) const {
    std::vector<std::string> items;
    for (const ExprPtr& e : l.items) items.push_back(to_sexpr(e));
    return "[" + join(items) + "]";
  }
  std::string operator()(const RecordLit& r) const {
    std::vector<std::string> fields{"record"};
    for (const RecordField& f : r.fields) fields.push_back(f.key.name + "=" + to_sexpr(f.value));
    return "(" + join(fields) + ")";
  }
  std::string operator()(const Unary& u) const {
    return fmt::format("({} {})", u.op == UnaryOp::negate ? "-" : "not", to_sexpr(u.operand));
  }
  std::string operator()(const Binary& b) const {
    return fmt::format("({} {} {})", op_text(b.op), to_sexpr(b.lhs), to_sexpr(b.rhs));
  }
  std::string operator()(const Within& w) const {
    return fmt::format("(within {} {} {})", to_sexpr(w.value), to_sexpr(w.tolerance), to_sexpr(w.reference));
  }
  std::string operator()(const Matches& m) const {
    std::string out = fmt::format("(matches {} {}", to_sexpr(m.value), to_sexpr(m.reference));
    switch (m.form) {
      case ToleranceForm::dtype_default: break;
      case ToleranceForm::both: out += " :to " + to_sexpr(m.both); break;
      case ToleranceForm::ulp: out += " :ulp " + to_sexpr(m.ulp); break;
      case ToleranceForm::explicit_rtol_atol:
        if (m.rtol) out += " :rtol " + to_sexpr(m.rtol);
        if (m.atol) out += " :atol " + to_sexpr(m.atol);
        break;
    }
    return out + ")";
  }
  std::string operator()(const Mentions& m) const {
    const char* verb = m.verb == MentionVerb::affirms ? "affirms" : m.verb == MentionVerb::denies ? "denies" : "mentions";
    const char* mode = m.mode == MentionMode::one ? "" : m.mode == MentionMode::any ? "-any" : "-all";
    return fmt::format("({}{} {} {})", verb, mode, to_sexpr(m.text), to_sexpr(m.phrases));
  }
  std::string operator()(const As& a) const { return fmt::format("(as {} {})", to_sexpr(a.value), a.unit); }
  std::string operator()(const Call& c) const {
    std::vector<std::string> parts{"call", to_sexpr(c.callee)};
    for (const ExprPtr& a : c.args) parts.push_back(to_sexpr(a));
    for (const NamedArg& n : c.named) parts.push_back(":" + n.name.name + " " + to_sexpr(n.value));
    return "(" + join(parts) + ")";
  }
  std::string operator()(const Field& f) const { return fmt::format("(. {} {})", to_sexpr(f.object), f.name.name); }
  std::string operator()(const Index& i) const {
    if (i.index) return fmt::format("([] {} {})", to_sexpr(i.object), to_sexpr(i.index));
    std::vector<std::string> parts{"[:]", to_sexpr(i.object)};
    for (const Subscript& s : i.subscripts) {
      auto part = [](const ExprPtr& e) { return e ? to_sexpr(e) : std::string("_"); };
      switch (s.kind) {
        case Subscript::Kind::index: parts.push_back(to_sexpr(s.start)); break;
        case Subscript::Kind::ellipsis: parts.push_back("..."); break;
        case Subscript::Kind::range:
          parts.push_back(fmt::format("(: {} {} {})", part(s.start), part(s.stop), part(s.step)));
          break;
      }
    }
    return "(" + join(parts) + ")";
  }
  std::string operator()(const IfExpr& i) const {
    return fmt::format("(if {} {} {})", to_sexpr(i.condition), to_sexpr(i.then_value), to_sexpr(i.else_value));
  }
  std::string operator()(const Lambda& l) const {
    std::vector<std::string> params;
    for (const Ident& p : l.params) params.push_back(p.name);
    return fmt::format("(lambda ({}) {})", join(params), to_sexpr(l.body));
  }
  std::string operator()(const BlockExpr& b) const {
    std::vector<std::string> parts{"block"};
    for (const BlockLet& l : b.lets) parts.push_back(fmt::format("(let {} {})", l.name.name, to_sexpr(l.value)));
    parts.push_back(to_sexpr(b.value));
    return "(" + join(parts) + ")";
  }
};

std::string block_of(const std::shared_ptr<const Block>& b) { return b ? to_sexpr(*b) : "nil"; }

struct StmtPrinter {
  std::string operator()(const LetStmt& s) const { return fmt::format("(let {} {})", s.name.name, to_sexpr(s.value)); }
  std::string operator()(const ExpectStmt& s) const {
    if (s.message) return fmt::format("(expect {} :else {})", to_sexpr(s.condition), to_sexpr(s.message));
    return fmt::format("(expect {})", to_sexpr(s.condition));
  }
  std::string operator()(const CheckStmt& s) const { return fmt::format("(check {})", to_sexpr(s.call)); }
  std::string operator()(const NoteStmt& s) const { return fmt::format("(note {})", to_sexpr(s.text)); }
  std::string operator()(const ScoreStmt& s) const { return fmt::format("(score {})", to_sexpr(s.value)); }
  std::string operator()(const ForStmt& s) const {
    return fmt::format("(for {} {} {})", s.var.name, to_sexpr(s.iterable), block_of(s.body));
  }
  std::string operator()(const IfStmt& s) const {
    if (s.else_body)
      return fmt::format("(if {} {} :else {})", to_sexpr(s.condition), block_of(s.then_body), block_of(s.else_body));
    return fmt::format("(if {} {})", to_sexpr(s.condition), block_of(s.then_body));
  }
};

std::string let_decl(const LetDecl& l) { return fmt::format("(let {} {})", l.name.name, to_sexpr(l.value)); }

struct TopPrinter {
  std::string operator()(const Use& u) const {
    std::string path;
    for (const std::string& p : u.path) path += (path.empty() ? "" : ".") + p;
    return u.alias ? fmt::format("(use {} :as {})", path, u.alias->name) : fmt::format("(use {})", path);
  }
  std::string operator()(const Import& i) const {
    return i.alias ? fmt::format("(import \"{}\" :as {})", i.path, i.alias->name) : fmt::format("(import \"{}\")", i.path);
  }
  std::string operator()(const Param& p) const { return fmt::format("(param {} {})", p.name.name, to_sexpr(p.value)); }
  std::string operator()(const LetDecl& l) const { return let_decl(l); }
  std::string operator()(const Def& d) const {
    std::vector<std::string> params;
    for (const DefParam& p : d.params)
      params.push_back(p.default_value ? p.name.name + "=" + to_sexpr(p.default_value) : p.name.name);
    std::string body = d.is_check() ? to_sexpr(*d.body_stmts) : "= " + to_sexpr(d.body_expr);
    return fmt::format("(def {} ({}) {})", d.name.name, join(params), body);
  }
  std::string operator()(const Criterion& c) const { return to_sexpr(c); }
  std::string operator()(const std::shared_ptr<const Group>& g) const { return to_sexpr(*g); }
};

}  // namespace

std::string to_sexpr(const Expr& e) { return std::visit(ExprPrinter{}, e.node); }
std::string to_sexpr(const ExprPtr& e) { return e ? to_sexpr(*e) : "nil"; }
std::string to_sexpr(const Stmt& s) { return std::visit(StmtPrinter{}, s.node); }

std::string to_sexpr(const Block& b) {
  std::vector<std::string> parts;
  for (const Stmt& s : b) parts.push_back(to_sexpr(s));
  return "(" + join(parts) + ")";
}

std::string to_sexpr(const Criterion& c) {
  std::vector<std::string> parts{"criterion", c.id.name, to_sexpr(c.title)};
  if (c.weight) parts.push_back(":weight " + to_sexpr(c.weight));
  if (c.penalty) parts.push_back(":penalty " + to_sexpr(c.penalty));
  if (c.required) parts.push_back(":required");
  if (!c.after.empty()) {
    std::vector<std::string> ids;
    for (const Ident& i : c.after) ids.push_back(i.name);
    parts.push_back(":after (" + join(ids) + ")");
  }
  if (!c.needs.empty()) {
    std::vector<std::string> ids;
    for (const Ident& i : c.needs) ids.push_back(i.name);
    parts.push_back(":needs (" + join(ids) + ")");
  }
  parts.push_back(to_sexpr(c.body));
  return "(" + join(parts) + ")";
}

std::string to_sexpr(const Group& g) {
  std::vector<std::string> parts{"group", g.id.name, to_sexpr(g.title)};
  if (g.weight) parts.push_back(":weight " + to_sexpr(g.weight));
  std::vector<std::string> items;
  for (const GroupItem& item : g.items) {
    if (const auto* c = std::get_if<Criterion>(&item)) items.push_back(to_sexpr(*c));
    else if (const auto* sub = std::get_if<std::shared_ptr<const Group>>(&item)) items.push_back(to_sexpr(**sub));
    else items.push_back(let_decl(std::get<LetDecl>(item)));
  }
  parts.push_back("(" + join(items) + ")");
  return "(" + join(parts) + ")";
}

std::string to_sexpr(const TopItem& item) { return std::visit(TopPrinter{}, item); }

std::string to_sexpr(const File& f) {
  std::string out;
  if (f.header) out += fmt::format("(rubric {} {})\n", to_sexpr(f.header->title), to_sexpr(f.header->fields));
  for (const TopItem& item : f.items) out += to_sexpr(item) + "\n";
  return out;
}

}  // namespace rubric::ast
