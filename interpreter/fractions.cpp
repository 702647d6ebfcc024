#include "interpreter/fractions.hpp"

#include <fmt/format.h>

namespace rubric {

std::optional<HeaderFieldRange> header_field_range(const std::string& key) {
  if (key == "pass") return HeaderFieldRange{0, 1, true, "100%"};
  if (key == "confidence") return HeaderFieldRange{0.5, 0.999999, true, "95%"};
  if (key == "seed") return HeaderFieldRange{0, 1.8e19, false, "0"};
  return std::nullopt;
}

std::string header_field_problem(const std::string& key, const HeaderFieldRange& range, const std::string& got) {
  return fmt::format("header field '{}' must be a plain number in [{}, {}]; got {}; using the default {}", key, range.lo,
                     range.hi, got, range.default_text);
}

std::optional<std::string> percent_hint(double value) {
  if (!(value > 1)) return std::nullopt;
  return fmt::format("a fraction is meant: write {:g}% ({:g} means {:g}%)", value, value, value * 100);
}

bool is_fraction_param(const ast::DefParam& p, const SourceFile& source) {
  if (!p.default_value || !std::holds_alternative<ast::NumberLit>(p.default_value->node)) return false;
  std::string_view text = source.slice(p.default_value->range);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return !text.empty() && text.back() == '%';
}

std::optional<double> plain_literal(const ast::Expr& e) {
  if (auto* n = std::get_if<ast::NumberLit>(&e.node)) return n->unit.empty() ? std::optional<double>(n->value) : std::nullopt;
  if (auto* u = std::get_if<ast::Unary>(&e.node); u && u->op == ast::UnaryOp::negate)
    if (auto v = plain_literal(*u->operand)) return -*v;
  return std::nullopt;
}

}  // namespace rubric
