#include "report/json_writer.hpp"

#include <cmath>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "operators/json/json_quote.hpp"

namespace rubric::report {

std::string json_quote(std::string_view raw) { return json::json_quote(raw); }

void JsonWriter::newline() {
  if (one_line_) return;
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
  if (stack_.empty() && !one_line_) out_ += '\n';
}

void JsonWriter::end_array() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += ']';
  if (stack_.empty() && !one_line_) out_ += '\n';
}

void JsonWriter::value(std::string_view s) {
  before_value();
  out_ += json_quote(s);
}

void JsonWriter::value(double d) {
  if (!std::isfinite(d)) return null();
  before_value();
  // fmt's shortest round-trip form; integral values print without a fraction ("4").
  fmt::format_to(std::back_inserter(out_), "{}", d);
}

void JsonWriter::value(std::int64_t i) {
  before_value();
  fmt::format_to(std::back_inserter(out_), "{}", i);
}

void JsonWriter::value(std::uint64_t u) {
  before_value();
  fmt::format_to(std::back_inserter(out_), "{}", u);
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
