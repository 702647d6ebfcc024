#include "interpreter/literal.hpp"

#include <fmt/format.h>

#include "grammar/parse.hpp"
#include "interpreter/decimal.hpp"

namespace rubric {

std::optional<Value> literal_value(const ast::Expr& e, std::string* why) {
  auto fail = [&](std::string m) -> std::optional<Value> {
    if (why) *why = std::move(m);
    return std::nullopt;
  };
  if (std::holds_alternative<ast::NullLit>(e.node)) return Value();
  if (auto* b = std::get_if<ast::BoolLit>(&e.node)) return Value::boolean(b->value);
  if (auto* n = std::get_if<ast::NumberLit>(&e.node)) {
    if (n->unit.empty()) return Value::number(n->value);
    std::string err;
    auto u = parse_unit(n->unit, &err);
    if (!u) return fail(err);
    return Value::number(decimal::mul(n->value, u->scale), u->dim);
  }
  if (auto* s = std::get_if<ast::StringLit>(&e.node)) {
    std::string out;
    for (const auto& p : s->parts) {
      if (!std::holds_alternative<std::string>(p)) return fail("a string with {interpolation} is not a literal");
      out += std::get<std::string>(p);
    }
    return Value::string(std::move(out));
  }
  if (auto* l = std::get_if<ast::ListLit>(&e.node)) {
    List items;
    for (const auto& i : l->items) {
      auto v = literal_value(*i, why);
      if (!v) return std::nullopt;
      items.push_back(std::move(*v));
    }
    return Value::list(std::move(items));
  }
  if (auto* r = std::get_if<ast::RecordLit>(&e.node)) {
    Record rec;
    for (const auto& f : r->fields) {
      auto v = literal_value(*f.value, why);
      if (!v) return std::nullopt;
      rec.fields.emplace_back(f.key.name, std::move(*v));
    }
    return Value::record(std::move(rec));
  }
  if (auto* u = std::get_if<ast::Unary>(&e.node); u && u->op == ast::UnaryOp::negate) {
    auto v = literal_value(*u->operand, why);
    if (!v) return std::nullopt;
    if (!v->is(ValueKind::number)) return fail("only numbers can be negated");
    return Value::number(-v->as_number(), v->as_quantity().dim);
  }
  return fail("not a literal (a number, string, bool, null, list or record)");
}

std::optional<Value> parse_literal(const std::string& text, std::string* why) {
  auto src = std::make_shared<const SourceFile>("<literal>", text);
  ExpressionParseResult r = parse_expression(src);
  if (!r.expr) {
    if (why) *why = r.diagnostics.empty() ? "cannot parse" : r.diagnostics.front().message;
    return std::nullopt;
  }
  return literal_value(*r.expr, why);
}

}  // namespace rubric
