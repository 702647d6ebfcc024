#include "report/json_writer.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "report/utf8.hpp"

namespace rubric::report {

std::string json_quote(std::string_view raw) {
  const std::string s = sanitize_utf8(raw);
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7f) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else out += ch;
    }
  }
  out += '"';
  return out;
}

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  if (stack_.back().is_object) throw std::logic_error("JsonWriter: value inside an object needs a key");
  if (!stack_.back().empty) out_ += ',';
  stack_.back().empty = false;
  newline();
}

void JsonWriter::key(std::string_view name) {
  if (stack_.empty() || !stack_.back().is_object) throw std::logic_error("JsonWriter: key outside an object");
  if (!stack_.back().empty) out_ += ',';
  stack_.back().empty = false;
  newline();
  out_ += json_quote(name);
  out_ += ": ";
  after_key_ = true;
}

void JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  stack_.push_back({true});
}

void JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  stack_.push_back({false});
}

void JsonWriter::end_object() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += '}';
  if (stack_.empty()) out_ += '\n';
}

void JsonWriter::end_array() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += ']';
  if (stack_.empty()) out_ += '\n';
}

void JsonWriter::value(std::string_view s) {
  before_value();
  out_ += json_quote(s);
}

void JsonWriter::value(double d) {
  if (!std::isfinite(d)) return null();
  before_value();
  // fmt's shortest round-trip form; integral values print without a fraction ("4").
  out_ += fmt::format("{}", d);
}

void JsonWriter::value(std::int64_t i) {
  before_value();
  out_ += fmt::format("{}", i);
}

void JsonWriter::value(std::uint64_t u) {
  before_value();
  out_ += fmt::format("{}", u);
}

void JsonWriter::value(bool b) {
  before_value();
  out_ += b ? "true" : "false";
}

void JsonWriter::null() {
  before_value();
  out_ += "null";
}

void JsonWriter::value(const std::optional<double>& d) {
  if (d) value(*d);
  else null();
}

}  // namespace rubric::report
